import { resolveCitations, sentenceCitation } from '../../metrics/citations/index.js';
import { callKey } from '../../metrics/trajectory/call-key.js';
import type { CheckMeta } from '../../model/check.js';
import type { Workup } from '../../model/workup.js';
import type { HtmlNote, HtmlPath, HtmlSentence, HtmlTrajectory, HtmlWorkup, MarkStatus } from './types.js';

const CONTENT_LIMIT = 400;

/**
 * The report's view of one workup: the note with every citation and claim marked, the ledger, the trajectory as a
 * timeline, and the required path against the traversed one. Resolution and uncited claims come from the citation
 * metrics; "unsupported" comes from the checks' evidence (the entailment verdicts the checks recorded).
 */
export function workupView(
  workup: Workup,
  metas: readonly CheckMeta[],
  path?: string,
): Omit<HtmlWorkup, 'key'> {
  const view: Omit<HtmlWorkup, 'key'> = {
    id: workup.id,
    ledger: workup.ledger.map((entry) => ({
      id: entry.id,
      store: entry.store,
      query: entry.query,
      results: entry.results.length,
      ...(entry.error ? { error: entry.error } : {}),
    })),
    paths: paths(metas),
  };
  if (path) view.path = path;
  if (workup.note) view.note = noteView(workup, unsupportedFrom(metas));
  if (workup.trajectory) view.trajectory = trajectoryView(workup);
  return view;
}

/** What the checks' evidence says is unsupported: claim texts and citation ids. */
interface Unsupported {
  texts: Set<string>;
  ids: Set<string>;
}

/**
 * Reads `evidence.unsupported` of every check: an array of claim texts, or of objects naming the claim (`text`,
 * `sentence` or `claim`) and optionally the citations that fail to support it (`citations`, `id`, `cite`).
 */
function unsupportedFrom(metas: readonly CheckMeta[]): Unsupported {
  const out: Unsupported = { texts: new Set(), ids: new Set() };
  for (const meta of metas) {
    const list = meta.evidence?.['unsupported'];
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      if (typeof item === 'string') out.texts.add(normalize(item));
      else if (item && typeof item === 'object') {
        const o = item as Record<string, unknown>;
        for (const key of ['text', 'sentence', 'claim'])
          if (typeof o[key] === 'string') out.texts.add(normalize(o[key]));
        for (const key of ['id', 'cite']) if (typeof o[key] === 'string') out.ids.add(o[key]);
        if (Array.isArray(o['citations']))
          for (const id of o['citations']) if (typeof id === 'string') out.ids.add(id);
      }
    }
  }
  return out;
}

function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function noteView(workup: Workup, unsupported: Unsupported): HtmlNote {
  const note = workup.note!;
  const resolution = resolveCitations(workup);
  const failed = new Set(resolution.resolved.filter((c) => c.error).map((c) => c.id));
  const known = new Set(workup.ledger.map((entry) => entry.id));
  const counts: Record<MarkStatus, number> = {
    resolved: 0,
    'failed-query': 0,
    dangling: 0,
    uncited: 0,
    unsupported: 0,
  };
  const sections = note.sections.map((section) => ({
    title: section.title,
    claims: section.claims,
    segments: section.segments.map((segment) => ({
      kind: segment.kind,
      sentences: segment.sentences.map((sentence) => {
        const text = normalize(sentence.text);
        const out: HtmlSentence = {
          text: sentence.text,
          citations: sentence.citations.map((citation) => {
            const status = !known.has(citation.id)
              ? 'dangling'
              : unsupported.ids.has(citation.id) && unsupported.texts.has(text)
                ? 'unsupported'
                : failed.has(citation.id)
                  ? 'failed-query'
                  : 'resolved';
            // An unsupported citation is counted once, as its claim, below.
            if (status !== 'unsupported') counts[status]++;
            return { id: citation.id, status };
          }),
        };
        // Judged sentence by sentence with citation recall's own rule, so the report marks what `score` counts.
        if (segment.claims && unsupported.texts.has(text)) out.status = 'unsupported';
        else if (sentenceCitation(segment, sentence) === 'uncited') out.status = 'uncited';
        if (out.status) counts[out.status]++;
        return out;
      }),
    })),
  }));
  return { sections, counts };
}

function trajectoryView(workup: Workup): HtmlTrajectory {
  const trajectory = workup.trajectory!;
  const seen = new Set<string>();
  let toolCalls = 0;
  let errors = 0;
  let redundant = 0;
  const steps = trajectory.steps.map((step) => {
    const out: HtmlTrajectory['steps'][number] = {
      id: step.step_id,
      type: step.step_type,
      content:
        step.content.length > CONTENT_LIMIT ? `${step.content.slice(0, CONTENT_LIMIT)}…` : step.content,
      latencyMs: step.latency_ms,
      tokens: step.tokens_used,
    };
    if (step.tool_name) out.tool = step.tool_name;
    if (step.error !== null) {
      out.error = step.error;
      errors++;
    }
    if (step.step_type === 'tool_call') {
      toolCalls++;
      const key = callKey(step.tool_name, step.tool_input);
      if (seen.has(key)) {
        out.redundant = true;
        redundant++;
      }
      seen.add(key);
    }
    return out;
  });
  // The header totals the rows below it; the trajectory's own totals are kept beside them where they differ (an
  // importer that wrote none, an SDK's usage, a run's wall time), never shown as the total of those rows.
  const totalTokens = steps.reduce((sum, step) => sum + step.tokens, 0);
  const totalLatencyMs = steps.reduce((sum, step) => sum + step.latencyMs, 0);
  const view: HtmlTrajectory = { steps, totalTokens, totalLatencyMs, toolCalls, errors, redundant };
  const recorded: NonNullable<HtmlTrajectory['recorded']> = {};
  if (trajectory.total_tokens !== totalTokens) recorded.tokens = trajectory.total_tokens;
  if (trajectory.total_latency_ms !== totalLatencyMs) recorded.latencyMs = trajectory.total_latency_ms;
  if (Object.keys(recorded).length > 0) view.recorded = recorded;
  return view;
}

/**
 * The required and traversed relation paths a check recorded. Read from `evidence.required_path` (or `required`,
 * `requiredPath`: relation names, or `{ relations }`) and `evidence.traversed` (relation names) or `evidence.path`
 * (the hops of a traversal, each with a `relation`), falling back to `evidence.prefix.relations` (how far the ledger
 * got when it did not complete the path).
 */
function paths(metas: readonly CheckMeta[]): HtmlPath[] {
  const out: HtmlPath[] = [];
  for (const meta of metas) {
    const e = meta.evidence;
    if (!e) continue;
    const required = relations(e['required_path'] ?? e['requiredPath'] ?? e['required']);
    const traversed =
      relations(e['traversed']) ??
      relations(e['path']) ??
      relations((e['prefix'] as { relations?: unknown })?.relations);
    if (required)
      out.push({ spec: meta.spec, criterion: meta.criterion, required, traversed: traversed ?? [] });
  }
  return out;
}

function relations(value: unknown): string[] | undefined {
  if (value && typeof value === 'object' && !Array.isArray(value))
    return relations((value as { relations?: unknown }).relations);
  if (!Array.isArray(value)) return undefined;
  const out: string[] = [];
  for (const item of value) {
    if (typeof item === 'string') out.push(item);
    else if (
      item &&
      typeof item === 'object' &&
      typeof (item as { relation?: unknown }).relation === 'string'
    )
      out.push((item as { relation: string }).relation);
  }
  return out;
}
