// A workup as a reader shows it, beside the checks made of it: the note with every citation and claim marked, the
// redundant tool calls, the required relation paths. Data only (no markup, no disk), shared by the HTML report and
// the UI, which each shape it for their page.
import { resolveCitations, sentenceCitation } from '../metrics/citations/index.js';
import { callKey } from '../metrics/trajectory/call-key.js';
import type { Trajectory } from '../model/trajectory.js';
import type { Workup } from '../model/workup.js';

/** What a workup view reads of a check: whose it is, and its evidence. */
export interface EvidenceOf {
  spec: string;
  criterion: string;
  evidence?: Record<string, unknown> | undefined;
}

/** How a citation or a sentence of the note stands. */
export type MarkStatus = 'resolved' | 'failed-query' | 'dangling' | 'uncited' | 'unsupported';

export interface NoteMarks {
  sections: Array<{
    title: string;
    /** False for sections that make no claims (`Gaps & caveats`, `Provenance`). */
    claims: boolean;
    segments: Array<{ kind: 'bullet' | 'paragraph'; sentences: SentenceMarks[] }>;
  }>;
  /** Citation marks counted by status (`resolved`, `failed-query`, `dangling`), and uncited and unsupported claims (sentences). */
  counts: Record<MarkStatus, number>;
}

export interface SentenceMarks {
  text: string;
  /** `uncited` or `unsupported` when the sentence is one; absent when it is cited and not disputed. */
  status?: 'uncited' | 'unsupported';
  citations: Array<{ id: string; status: 'resolved' | 'failed-query' | 'dangling' | 'unsupported' }>;
}

/** A needle's required relation path against the one the ledger traversed, as one check recorded them. */
export interface RequiredPath {
  spec: string;
  criterion: string;
  required: string[];
  traversed: string[];
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
function unsupportedFrom(checks: readonly EvidenceOf[]): Unsupported {
  const out: Unsupported = { texts: new Set(), ids: new Set() };
  for (const check of checks) {
    const list = check.evidence?.['unsupported'];
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

/**
 * The note with every citation and claim marked. Resolution and uncited claims come from the citation metrics;
 * "unsupported" comes from the checks' evidence (the entailment verdicts the checks recorded). Undefined without a
 * note.
 */
export function noteMarks(workup: Workup, checks: readonly EvidenceOf[]): NoteMarks | undefined {
  const note = workup.note;
  if (!note) return undefined;
  const unsupported = unsupportedFrom(checks);
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
        const out: SentenceMarks = {
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
        // Judged sentence by sentence with citation recall's own rule, so the view marks what `score` counts.
        if (segment.claims && unsupported.texts.has(text)) out.status = 'unsupported';
        else if (sentenceCitation(segment, sentence) === 'uncited') out.status = 'uncited';
        if (out.status) counts[out.status]++;
        return out;
      }),
    })),
  }));
  return { sections, counts };
}

/** The trajectory's steps counted: tool calls, errors, and the calls that repeat an earlier one exactly. */
export interface StepTally {
  toolCalls: number;
  errors: number;
  /** The indexes (into `steps`) of the tool calls that repeat an earlier call: same tool, same arguments. */
  redundant: Set<number>;
  /** Tokens and latency (ms) of the steps, summed. */
  tokens: number;
  latencyMs: number;
  /**
   * The trajectory's own totals (`total_tokens`, `total_latency_ms`) where they differ from the sums of its steps: an
   * SDK's reported usage, or the wall time of the run, which includes time between steps. Absent when they agree.
   */
  recorded?: { tokens?: number; latencyMs?: number };
}

export function tallySteps(trajectory: Trajectory): StepTally {
  const seen = new Set<string>();
  const redundant = new Set<number>();
  let toolCalls = 0;
  let errors = 0;
  let tokens = 0;
  let latencyMs = 0;
  trajectory.steps.forEach((step, i) => {
    tokens += step.tokens_used;
    latencyMs += step.latency_ms;
    if (step.error !== null) errors++;
    if (step.step_type !== 'tool_call') return;
    toolCalls++;
    const key = callKey(step.tool_name, step.tool_input);
    if (seen.has(key)) redundant.add(i);
    seen.add(key);
  });
  const tally: StepTally = { toolCalls, errors, redundant, tokens, latencyMs };
  const recorded: NonNullable<StepTally['recorded']> = {};
  if (trajectory.total_tokens !== tokens) recorded.tokens = trajectory.total_tokens;
  if (trajectory.total_latency_ms !== latencyMs) recorded.latencyMs = trajectory.total_latency_ms;
  if (Object.keys(recorded).length > 0) tally.recorded = recorded;
  return tally;
}

/**
 * The required and traversed relation paths the checks recorded, each with the index of its check. Read from
 * `evidence.required_path` (or `required`, `requiredPath`: relation names, or `{ relations }`) and
 * `evidence.traversed` (relation names) or `evidence.path` (the hops of a traversal, each with a `relation`), falling
 * back to `evidence.prefix.relations` (how far the ledger got when it did not complete the path).
 */
export function requiredPaths(checks: readonly EvidenceOf[]): Array<RequiredPath & { check: number }> {
  const out: Array<RequiredPath & { check: number }> = [];
  checks.forEach((check, i) => {
    const e = check.evidence;
    if (!e) return;
    const required = relations(e['required_path'] ?? e['requiredPath'] ?? e['required']);
    const traversed =
      relations(e['traversed']) ??
      relations(e['path']) ??
      relations((e['prefix'] as { relations?: unknown })?.relations);
    if (required)
      out.push({
        spec: check.spec,
        criterion: check.criterion,
        required,
        traversed: traversed ?? [],
        check: i,
      });
  });
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
