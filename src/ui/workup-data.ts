import { callsOf, wholeEvidence } from '../checks/trajectory-evidence.js';
import type { ToolCall } from '../metrics/trajectory/match.js';
import type { Workup } from '../model/workup.js';
import { stringifyJson } from '../parse/json.js';
import { type EvidenceOf, noteMarks, requiredPaths, tallySteps } from '../views/workup.js';
import type {
  ExpectedCalls,
  ExpectedPath,
  WorkupAnswer,
  WorkupCheck,
  WorkupLedgerEntry,
  WorkupNote,
  WorkupStep,
} from './client/types.js';

/** The longest a step's text (content, arguments, output) is sent; a longer one is cut and the step says so. */
export const STEP_TEXT_LIMIT = 20_000;
/** The most facts of one ledger entry that are sent; the entry says how many it returned. */
export const LEDGER_FACTS_LIMIT = 200;

/** A check of the workup, as the store keeps it (`reason`) or as a test attached it (`summary`). */
export interface WorkupCheckInput extends EvidenceOf {
  case?: string | undefined;
  workup?: string;
  task?: string | undefined;
  trial?: number | string | undefined;
  metric: string;
  value: number | boolean | null;
  unit?: string | undefined;
  threshold?: number | undefined;
  comparator?: '>=' | '<=' | '==' | undefined;
  verdict: 'pass' | 'fail' | 'not-applicable';
  reason?: string | undefined;
  summary?: string | undefined;
}

/** Where the workup was read from, and what kept it from being read, as its reader found. */
export interface WorkupSource {
  run: string;
  /** The workup's id when no workup could be read (else the workup's own id is used). */
  workup?: string;
  path?: string;
  files?: string[];
  problem?: WorkupAnswer['problem'];
}

/**
 * One workup as the UI shows it, from the workup (undefined when it could not be read: `source.problem` says why) and
 * the run's checks of it: its steps, its note with each citation resolved to its ledger entry, and what its checks
 * expected laid over them: the expected tool calls (matched, out of order, missing, extra) as each tool-calls check's
 * own match paired them (its evidence's `alignment`), and each needle's required path through the ledger. Pure: no
 * disk, no store, so the static report inlines its answers as the server sends them.
 */
export function workupAnswer(
  workup: Workup | undefined,
  checks: readonly WorkupCheckInput[],
  source: WorkupSource,
): WorkupAnswer {
  const first = checks[0];
  const answer: WorkupAnswer = {
    run: source.run,
    workup: workup?.id ?? source.workup ?? first?.workup ?? '',
    checks: checks.map(checkOf),
    steps: [],
    ledger: [],
    expected: [],
    paths: [],
  };
  if (source.path !== undefined) answer.path = source.path;
  if (source.files && source.files.length > 1) answer.files = source.files;
  const task = workup?.meta.task ?? first?.task;
  const trial = workup?.meta.trial ?? first?.trial;
  if (task !== undefined) answer.task = task;
  if (trial !== undefined) answer.trial = trial;
  if (source.problem) answer.problem = source.problem;
  if (!workup) return answer;

  const trajectory = workup.trajectory;
  // A call's arguments as text, written once: a passing check's expected calls are the run's own (`wholeEvidence`).
  const written = new Map<unknown, string>();
  const argsText = (args: unknown): string => {
    let text = written.get(args);
    if (text === undefined) {
      text = stringifyJson(args ?? {}) ?? '{}';
      if (args !== null && typeof args === 'object') written.set(args, text);
    }
    return text;
  };
  const input = workup.meta.input ?? (trajectory?.task_input || undefined);
  if (input !== undefined) answer.input = input;
  if (trajectory?.final_answer) answer.finalAnswer = trajectory.final_answer;
  answer.ledger = workup.ledger.map((entry) => {
    const out: WorkupLedgerEntry = {
      id: entry.id,
      store: entry.store,
      query: entry.query,
      results: entry.results
        .slice(0, LEDGER_FACTS_LIMIT)
        .map(({ subject, relation, object }) => ({ subject, relation, object })),
      resultCount: entry.results.length,
      cited: 0,
    };
    if (entry.text !== undefined) out.text = entry.text;
    if (entry.error !== undefined) out.error = entry.error;
    return out;
  });
  const entryOf = new Map<string, number>();
  answer.ledger.forEach((entry, i) => {
    if (!entryOf.has(entry.id)) entryOf.set(entry.id, i);
  });

  const note = noteMarks(workup, checks);
  if (note) answer.note = resolved(note, entryOf, answer.ledger);
  if (trajectory) {
    const tally = tallySteps(trajectory);
    answer.tally = {
      toolCalls: tally.toolCalls,
      errors: tally.errors,
      redundant: tally.redundant.size,
      tokens: tally.tokens,
      latencyMs: tally.latencyMs,
      ...(tally.recorded && { recorded: tally.recorded }),
    };
    let call = 0;
    answer.steps = trajectory.steps.map((step, i) => {
      const out: WorkupStep = {
        id: step.step_id,
        type: step.step_type,
        content: '',
        latencyMs: step.latency_ms,
        tokens: step.tokens_used,
      };
      const cut: NonNullable<WorkupStep['cut']> = {};
      out.content = capped(step.content, (n) => (cut.content = n));
      if (step.tool_name !== null) out.tool = step.tool_name;
      if (step.step_type === 'tool_call') {
        out.args = capped(argsText(step.tool_input), (n) => (cut.args = n));
        out.call = call++;
        if (tally.redundant.has(i)) out.redundant = true;
      }
      if (step.tool_output !== null && step.tool_output !== undefined) {
        const text =
          typeof step.tool_output === 'string' ? step.tool_output : (stringifyJson(step.tool_output) ?? '');
        out.output = capped(text, (n) => (cut.output = n));
      }
      if (step.error !== null) out.error = step.error;
      if (step.call_id !== undefined) out.callId = step.call_id;
      if (Object.keys(cut).length > 0) out.cut = cut;
      return out;
    });
  }
  const mismatch = { found: false };
  let calls: ToolCall[] | undefined;
  const runCalls = () => (calls ??= trajectory ? callsOf(trajectory) : []);
  for (const check of checks) {
    const expected = expectedCalls(check, answer.steps, runCalls, answer.expected.length, mismatch, argsText);
    if (expected) answer.expected.push(expected);
  }
  if (mismatch.found && !answer.problem)
    answer.problem = {
      kind: 'changed',
      message: `the workup's trajectory is not the one its checks matched (they name tool calls it does not have): ${source.path ?? 'the workup'} changed since the run`,
    };
  answer.paths = requiredPaths(checks).map((p, index) =>
    expectedPath(p, checks[p.check]!, entryOf, answer.ledger, index),
  );
  return answer;
}

function checkOf(check: WorkupCheckInput): WorkupCheck {
  const out: WorkupCheck = {
    spec: check.spec,
    criterion: check.criterion,
    metric: check.metric,
    value: typeof check.value === 'number' && !Number.isFinite(check.value) ? null : check.value,
    verdict: check.verdict,
  };
  if (check.case !== undefined) out.case = check.case;
  if (check.unit !== undefined) out.unit = check.unit;
  if (check.threshold !== undefined) out.threshold = check.threshold;
  if (check.comparator !== undefined) out.comparator = check.comparator;
  const reason = check.reason ?? check.summary;
  if (reason !== undefined) out.reason = reason;
  return out;
}

/** `text`, or its first `STEP_TEXT_LIMIT` characters, telling `cut` its whole length when it cuts. */
function capped(text: string, cut: (length: number) => void): string {
  if (text.length <= STEP_TEXT_LIMIT) return text;
  cut(text.length);
  return text.slice(0, STEP_TEXT_LIMIT);
}

/** The note's marks with each citation's ledger entry, and each entry's count of citations. */
function resolved(
  note: NonNullable<ReturnType<typeof noteMarks>>,
  entryOf: ReadonlyMap<string, number>,
  ledger: WorkupLedgerEntry[],
): WorkupNote {
  return {
    counts: note.counts,
    sections: note.sections.map((section) => ({
      ...section,
      segments: section.segments.map((segment) => ({
        kind: segment.kind,
        sentences: segment.sentences.map((sentence) => ({
          ...sentence,
          citations: sentence.citations.map((citation) => {
            const entry = entryOf.get(citation.id);
            if (entry === undefined) return citation;
            (ledger[entry] as WorkupLedgerEntry).cited++;
            return { ...citation, entry };
          }),
        })),
      })),
    })),
  };
}

/** A list of whole numbers in [0, below), or undefined for anything else (evidence is read, not trusted). */
function positions(value: unknown, below: number): number[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.every((n) => Number.isInteger(n) && n >= 0 && n < below) ? (value as number[]) : undefined;
}

/**
 * A tool-calls check's expected calls laid over the steps, from its evidence (`reference`, `alignment`, `mode`,
 * `args`: what `trajectoryMatch` records, whole or, for a pass, slim and completed from the run's calls by
 * `wholeEvidence`), marking the steps; undefined for a check that recorded none. Positions the steps do not have, or
 * slim evidence that does not fit the run's calls (the workup changed since the run) set `mismatch` and mark nothing.
 */
function expectedCalls(
  check: WorkupCheckInput,
  steps: WorkupStep[],
  runCalls: () => readonly ToolCall[],
  index: number,
  mismatch: { found: boolean },
  argsText: (args: unknown) => string,
): ExpectedCalls | undefined {
  const e = check.evidence;
  const whole = wholeEvidence(e, runCalls);
  if (!whole) return undefined;
  const { reference, alignment } = whole;
  const stepOfCall: number[] = [];
  steps.forEach((step, i) => {
    if (step.call !== undefined) stepOfCall[step.call] = i;
  });
  const out: ExpectedCalls = {
    spec: check.spec,
    criterion: check.criterion,
    verdict: check.verdict,
    mode: typeof e?.['mode'] === 'string' ? e['mode'] : 'strict',
    args: typeof e?.['args'] === 'string' ? e['args'] : 'exact',
    calls: reference.map((call) => {
      const c = (call ?? {}) as { tool?: unknown; args?: unknown };
      return {
        tool: typeof c.tool === 'string' ? c.tool : null,
        args: argsText(c.args),
        status: 'unaligned' as ExpectedCalls['calls'][number]['status'],
      };
    }),
    counts: { matched: 0, outOfOrder: 0, missing: 0, extra: 0 },
  };
  if (check.case !== undefined) out.case = check.case;
  if (typeof e?.['reason'] === 'string') out.reason = e['reason'];
  if (!alignment) {
    mismatch.found = true;
    return out;
  }
  const calls = stepOfCall.length;
  const rawPairs = alignment['pairs'];
  const pairs = Array.isArray(rawPairs)
    ? rawPairs.filter(
        (p): p is [number, number] =>
          Array.isArray(p) &&
          positions([p[0]], calls) !== undefined &&
          positions([p[1]], reference.length) !== undefined,
      )
    : [];
  const missing = positions(alignment['missing'], reference.length);
  const extra = positions(alignment['extra'], calls);
  if (!Array.isArray(rawPairs) || pairs.length !== rawPairs.length || !missing || !extra) {
    mismatch.found = true;
    return out;
  }
  for (const call of out.calls) call.status = 'missing-allowed';
  // In the run's order, the pairs whose expected calls keep their order are the longest increasing run of them; the
  // others came out of order.
  const byRun = [...pairs].sort((a, b) => a[0] - b[0]);
  const kept = longestIncreasing(byRun.map(([, j]) => j));
  const extraSet = new Set(extra);
  const paired = new Set<number>();
  byRun.forEach(([i, j], k) => {
    const status = kept.has(k) ? 'matched' : 'out-of-order';
    const call = out.calls[j]!;
    call.status = status;
    call.step = stepOfCall[i]!;
    paired.add(i);
    if (status === 'matched') out.counts.matched++;
    else out.counts.outOfOrder++;
    if (!extraSet.has(i)) mark(steps[stepOfCall[i]!]!, { expected: index, status, call: j });
  });
  for (const j of missing) out.calls[j]!.status = 'missing';
  out.counts.missing = missing.length;
  out.counts.extra = extra.length;
  for (let i = 0; i < calls; i++) {
    if (extraSet.has(i)) mark(steps[stepOfCall[i]!]!, { expected: index, status: 'extra' });
    else if (!paired.has(i)) mark(steps[stepOfCall[i]!]!, { expected: index, status: 'extra-allowed' });
  }
  // An unpaired expected call stands after the latest step (and the results answering it) of the calls expected
  // before it.
  let after = -1;
  for (const call of out.calls) {
    if (call.step === undefined) {
      call.after = after;
      continue;
    }
    let end = call.step;
    while (steps[end + 1]?.type === 'observation') end++;
    after = Math.max(after, end);
  }
  return out;
}

function mark(step: WorkupStep, m: NonNullable<WorkupStep['marks']>[number]): void {
  if (step.marks) step.marks.push(m);
  else step.marks = [m];
}

/** The indexes of one longest strictly increasing subsequence of `values` (patience sorting, O(n log n)). */
export function longestIncreasing(values: readonly number[]): Set<number> {
  const tails: number[] = [];
  const previous: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (values[tails[mid]!]! < v) lo = mid + 1;
      else hi = mid;
    }
    previous[i] = lo > 0 ? tails[lo - 1]! : -1;
    tails[lo] = i;
  }
  const kept = new Set<number>();
  for (let i = tails.length > 0 ? tails[tails.length - 1]! : -1; i !== -1; i = previous[i]!) kept.add(i);
  return kept;
}

/** A needle's required path with the hops the ledger traversed (`evidence.hops`), each on its ledger entry. */
function expectedPath(
  path: ReturnType<typeof requiredPaths>[number],
  check: WorkupCheckInput,
  entryOf: ReadonlyMap<string, number>,
  ledger: WorkupLedgerEntry[],
  index: number,
): ExpectedPath {
  const hops = Array.isArray(check.evidence?.['hops']) ? (check.evidence['hops'] as unknown[]) : [];
  return {
    spec: path.spec,
    criterion: path.criterion,
    verdict: check.verdict,
    required: path.required,
    traversed: path.traversed,
    hops: path.required.map((relation, k) => {
      const hop = (k < path.traversed.length ? hops[k] : undefined) as Record<string, unknown> | undefined;
      if (k >= path.traversed.length) return { relation, status: 'missing' as const };
      const out: ExpectedPath['hops'][number] = { relation, status: 'traversed' };
      if (typeof hop?.['ledgerId'] === 'string') {
        out.ledgerId = hop['ledgerId'];
        const entry = entryOf.get(hop['ledgerId']);
        if (entry !== undefined) {
          out.entry = entry;
          const onPath = ledger[entry] as WorkupLedgerEntry;
          if (onPath.hops) onPath.hops.push({ path: index, hop: k });
          else onPath.hops = [{ path: index, hop: k }];
        }
      }
      if (typeof hop?.['from'] === 'string') out.from = hop['from'];
      if (typeof hop?.['to'] === 'string') out.to = hop['to'];
      return out;
    }),
  };
}
