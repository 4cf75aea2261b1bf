import { formatValue } from '../checks/format.js';
import {
  CASE_STATUSES,
  type CaseChange,
  type CaseSide,
  type CaseStatus,
  hasRegressed,
  type RunComparison,
  type RunLabel,
} from '../history/compare.js';
import { type ChangeStatus, caseLabel } from '../history/significance.js';
import { casesToName, formatCaseDrop, formatComparison } from './criterion-text.js';

/** The statuses a row is shown for: what changed; still-failing, added and removed cases are counted, not listed. */
const CHANGED = ['regressed', 'fixed', 'flaky', 'moved'] as const satisfies readonly CaseStatus[];
const LISTED: ReadonlySet<CaseStatus> = new Set(CHANGED);

/** One case x criterion of the comparison as every output words it. */
export interface GateRow {
  status: CaseStatus;
  /** `refunds/refund-late`. */
  case: string;
  criterion: string;
  /** The baseline's side: `pass`, `fail`, `2/3 passed`, with the value where it has one; `-` when absent. */
  before: string;
  /** The current run's side, in the same words. */
  after: string;
  /** What the status rests on: `one trial a side`, `p = 0.012, exact test`, `past the tolerance 0.02`. */
  basis?: string;
  /** The current run's reason (else the baseline's): what was expected against what was found. */
  reason?: string;
  /** The whole line: `refunds/refund-late answer-contains: pass -> fail (one trial a side): expected ...`. */
  line: string;
  /** An added case x criterion that fails: a failure the baseline did not have. */
  newFailure?: true;
}

/** The comparison in the words every output uses: the terminal, JUnit, the HTML report, the job summary, OTel. */
export interface GateText {
  /** `vs 2770e68 (main): nothing regressed; 1 still failing`: the whole story when nothing changed. */
  headline: string;
  /** The baseline in words: `run 20261122T030100Z-00000001 (2770e68) on main`. */
  baseline: string;
  /** Whether the gate fails: something regressed. */
  regressed: boolean;
  /** Every case x criterion that changed, regressed first, then fixed, flaky, moved, still failing, added, removed. */
  rows: GateRow[];
  /** `1 regressed, 1 fixed, 0 flaky, 0 moved, 2 still failing, 1 added, 0 removed, 27 unchanged`. */
  counts: string;
  /** What the reader must know to trust the verdicts: one trial a side cannot tell a regression from chance. */
  notes: string[];
  /**
   * The evidence of the exact test for each spec x criterion with repeats that moved (or has a case that fell
   * significantly on its own): its pass rates, p-value and smallest detectable drop, and the cases that dropped.
   */
  criteria: Array<{
    status: ChangeStatus;
    spec: string;
    criterion: string;
    /** The level the test ran at (the gate's, halved when a metric's mean was tested too). */
    level: number;
    text: string;
    drops: string[];
  }>;
}

/** The gate of a run against its baseline, as every report of the run shows it: the comparison and its words. */
export interface RunGate {
  comparison: RunComparison;
  text: GateText;
}

/** How many rows a terminal prints of each status before `... and N more`. */
export const TERMINAL_ROWS = 20;

/** `2770e68 (main)`, or the run's id when it names no commit. */
export function runName(run: RunLabel): string {
  const name = run.commit ? run.commit.slice(0, 7) : run.id;
  return run.branch ? `${name} (${run.branch})` : name;
}

const STATUS_WORDS: Record<CaseStatus, string> = {
  regressed: 'regressed',
  fixed: 'fixed',
  flaky: 'flaky',
  moved: 'moved',
  'still-failing': 'still failing',
  added: 'added',
  removed: 'removed',
  unchanged: 'unchanged',
};

/** A status in words: `still failing`. */
export function statusWords(status: CaseStatus): string {
  return STATUS_WORDS[status];
}

/** One side in words: `pass` or `fail` for one trial, `2/3 passed` for repeats, with the value where there is one. */
function sideText(side: CaseSide | undefined, change: CaseChange): string {
  if (!side) return '-';
  const verdict =
    side.trials === 0
      ? 'n/a'
      : side.trials === 1
        ? side.passes === 1
          ? 'pass'
          : 'fail'
        : `${side.passes}/${side.trials} passed`;
  return side.mean === undefined
    ? verdict
    : `${verdict} (${change.metric} ${formatValue(side.mean, change.unit)})`;
}

function pText(p: number): string {
  return p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(3)}`;
}

function basisText(change: CaseChange, comparison: RunComparison): string | undefined {
  switch (change.basis) {
    case 'one-trial':
      return 'one trial a side';
    case 'exact-test':
      return change.p === undefined ? 'exact test' : `${pText(change.p)}, exact test`;
    case 'not-significant':
      return change.p === undefined ? 'not significant' : `not significant: ${pText(change.p)}`;
    case 'tolerance':
      return change.unit !== undefined
        ? `past the tolerance ${formatValue(comparison.relativeTolerance * 100)}%`
        : `past the tolerance ${formatValue(comparison.tolerance)}`;
    default:
      return undefined;
  }
}

/**
 * A case as a row names it: a task case by its case (and its task, where several tasks run it), a case of a spec without
 * cases run by one workup by that workup (`compound-alpha/grounded`), else by its task.
 */
function caseName(change: CaseChange): string {
  if (change.case !== undefined) return change.ownTask ? change.case : caseLabel(change);
  return change.workup ?? change.task;
}

/** One change as a row, with its line. */
export function gateRow(change: CaseChange, comparison: RunComparison): GateRow {
  const name = `${change.spec}/${caseName(change)}`;
  const before = sideText(change.before, change);
  const after = sideText(change.after, change);
  const basis = basisText(change, comparison);
  const reason = change.after?.reason ?? change.before?.reason;
  const moved = change.direction ? ` ${change.direction}` : '';
  const line = `${name} ${change.criterion}: ${before} -> ${after}${basis ? ` (${basis}${moved && `,${moved}`})` : ''}${reason ? `: ${reason}` : ''}`;
  return {
    status: change.status,
    case: name,
    criterion: change.criterion,
    before,
    after,
    ...(basis !== undefined && { basis }),
    ...(reason !== undefined && { reason }),
    line,
    ...(isNewFailure(change) && { newFailure: true as const }),
  };
}

/** `nothing regressed; 1 still failing` or `2 regressed, 1 fixed; 3 still failing`. */
function summaryWords(comparison: RunComparison): string {
  const c = comparison.counts;
  const moved = CHANGED.filter((s) => c[s] > 0).map((s) => `${c[s]} ${STATUS_WORDS[s]}`);
  const head = c.regressed ? moved.join(', ') : ['nothing regressed', ...moved].join(', ');
  const failing = comparison.changes.filter(isNewFailure).length;
  const tail = (['still-failing', 'added', 'removed'] as const)
    .filter((s) => c[s] > 0)
    .map((s) => `${c[s]} ${STATUS_WORDS[s]}${s === 'added' && failing ? ` (${failing} failing)` : ''}`);
  return tail.length ? `${head}; ${tail.join(', ')}` : head;
}

/**
 * An added case x criterion with a failing trial: a failure the baseline did not have, which fails the gate (docs/gate.md,
 * exit codes) though nothing regressed, so the story names it.
 */
function isNewFailure(change: CaseChange): boolean {
  return change.status === 'added' && change.after !== undefined && change.after.passes < change.after.trials;
}

/** The comparison's headline alone (`gateText`'s), without the words of each change: what the change column shows. */
export function gateHeadline(comparison: RunComparison): string {
  return `vs ${runName(comparison.baseline)}: ${summaryWords(comparison)}`;
}

/** The comparison in words: its headline, its rows and its counts. */
export function gateText(comparison: RunComparison): GateText {
  const c = comparison.counts;
  const notes: string[] = [];
  if (comparison.oneTrial)
    notes.push(
      'one trial a side cannot tell a regression from chance: record several trials of each task (workups sharing a meta.task) and the exact test decides (docs/gate.md)',
    );
  const { baselineOnly, currentOnly } = comparison.otherTests;
  if (baselineOnly)
    notes.push(
      `${baselineOnly} ${baselineOnly === 1 ? 'check' : 'checks'} of hand-written tests in the baseline not compared: this run ran the YAML specs only (needlework run), the baseline its test files too (vitest run)`,
    );
  if (currentOnly)
    notes.push(
      `${currentOnly} ${currentOnly === 1 ? 'check' : 'checks'} of hand-written tests not compared: the baseline ran the YAML specs only (needlework run), this run its test files too (vitest run)`,
    );
  if (sharesNothing(c))
    notes.push(
      'this run and its baseline have no case x criterion in common: they look like two different suites, whose histories are kept apart with a results store each (--store, docs/store.md)',
    );
  const commit = comparison.baseline.commit ? ` (${comparison.baseline.commit.slice(0, 7)})` : '';
  const branch = comparison.baseline.branch ? ` on ${comparison.baseline.branch}` : '';
  return {
    headline: gateHeadline(comparison),
    baseline: `run ${comparison.baseline.id}${commit}${branch}`,
    regressed: hasRegressed(comparison),
    rows: comparison.changes.map((change) => gateRow(change, comparison)),
    counts: CASE_STATUSES.map((s) => `${c[s]} ${STATUS_WORDS[s]}`).join(', '),
    notes,
    criteria: comparison.criteria
      .filter((k) => k.before.trials > k.cases || k.after.trials > k.cases)
      .filter((k) => k.status !== 'no-change' || casesToName(k).length > 0)
      .map((k) => ({
        status: k.status,
        spec: k.spec,
        criterion: k.criterion,
        level: k.level,
        text: formatComparison(k),
        drops: casesToName(k).map(formatCaseDrop),
      })),
  };
}

/** Whether the two runs compared nothing: every case x criterion of either is added or removed. */
function sharesNothing(c: RunComparison['counts']): boolean {
  return (
    c.added + c.removed > 0 && CASE_STATUSES.every((s) => s === 'added' || s === 'removed' || c[s] === 0)
  );
}

/**
 * The story a terminal prints: the headline alone when nothing changed (still-failing, added and removed cases are
 * counted in it, and so are flaky cases that passed as many of as many trials before: as flaky as they were);
 * otherwise the headline, each changed case x criterion (regressed first, at most `TERMINAL_ROWS` of each status), the
 * exact test of each criterion that moved, the counts and the notes.
 */
export function gateStory(text: GateText, maxRows: number = TERMINAL_ROWS): string[] {
  const listed = text.rows.filter(
    (r) => LISTED.has(r.status) && !(r.status === 'flaky' && r.before === r.after),
  );
  const criteria = text.criteria.filter(
    (k) =>
      k.status !== 'flaky' ||
      k.drops.length > 0 ||
      listed.some((r) => r.criterion === k.criterion && r.case.startsWith(`${k.spec}/`)),
  );
  if (listed.length === 0 && criteria.length === 0 && !text.rows.some((r) => r.newFailure))
    return [text.headline];
  const lines = [text.headline];
  for (const status of CASE_STATUSES) {
    if (!LISTED.has(status)) continue;
    const rows = listed.filter((r) => r.status === status);
    for (const row of rows.slice(0, maxRows)) lines.push(`  ${STATUS_WORDS[status]}: ${row.line}`);
    if (rows.length > maxRows) lines.push(`  ... and ${rows.length - maxRows} more ${STATUS_WORDS[status]}`);
  }
  const failing = text.rows.filter((r) => r.newFailure);
  for (const row of failing.slice(0, maxRows)) lines.push(`  added, failing: ${row.line}`);
  if (failing.length > maxRows) lines.push(`  ... and ${failing.length - maxRows} more added, failing`);
  for (const k of criteria) {
    lines.push(`  exact test at level ${k.level}: ${k.text}`);
    for (const drop of k.drops) lines.push(`    ↓ ${drop}`);
  }
  lines.push(`  ${text.counts}`);
  for (const note of text.notes) lines.push(`  note: ${note}`);
  return lines;
}
