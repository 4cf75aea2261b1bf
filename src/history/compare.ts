import { numericValue } from '../checks/format.js';
import { byteCompare } from '../model/order.js';
import {
  type CaseRef,
  type CriterionComparison,
  caseLabel,
  compareRuns,
  DEFAULT_LEVEL,
  type SignificanceOptions,
} from './significance.js';
import type { TrendRun } from './types.js';

/**
 * The default tolerance for a [0, 1] score: a move of more than 0.02 (two percentage points) is past it. Smaller moves
 * are within the noise of an LLM judge or a re-sampled run.
 */
export const DEFAULT_TOLERANCE = 0.02;
/**
 * The default tolerance for a metric with a unit (queries, steps, ms, tokens, usd, a 1-5 score): a move of more than
 * 10% of the baseline value is past it.
 */
export const DEFAULT_RELATIVE_TOLERANCE = 0.1;

export interface CompareOptions extends SignificanceOptions {
  /**
   * How far a [0, 1] score may move (absolute) before the case is `moved`. Given (or `relativeTolerance` given), a
   * move for the worse past it is a regression too: the gate then holds values, not only verdicts.
   * @default 0.02
   */
  tolerance?: number;
  /**
   * How far a metric with a unit may move, as a fraction of its baseline value, before the case is `moved`; given, a
   * move for the worse past it is a regression (as with `tolerance`).
   * @default 0.1
   */
  relativeTolerance?: number;
}

/**
 * Whether options compare as none do (the default gate, what `needlework ui` compares with): no tolerance, and the
 * level, resamples and seed left to their defaults.
 */
export function isDefaultGate(options: CompareOptions = {}): boolean {
  return (
    options.tolerance === undefined &&
    options.relativeTolerance === undefined &&
    options.level === undefined &&
    options.resamples === undefined &&
    options.seed === undefined
  );
}

/**
 * What became of one case x criterion (a case is spec x case x task) between the baseline and the current run:
 * - `regressed`: it got worse and the gate says so: with one trial a side, pass became fail; with repeats, the
 *   criterion's pass rate fell significantly (the stratified exact test) and this case's fell; with a tolerance given,
 *   its value moved the wrong way past it;
 * - `fixed`: it failed in every trial of the baseline and passes in every trial now, or the criterion's pass rate rose
 *   significantly and this case's rose;
 * - `still-failing`: it failed in every trial of both runs (a known failure);
 * - `flaky`: with repeats, its trials now both pass and fail, and no significant change was found;
 * - `moved`: it changed without a verdict from the gate: its pass rate moved with no significant change (too few
 *   trials to tell), or its value moved past the tolerance with its verdicts unchanged;
 * - `added` / `removed`: only the current run / only the baseline holds it (not compared);
 * - `unchanged`: none of the above.
 */
export type CaseStatus =
  | 'regressed'
  | 'fixed'
  | 'still-failing'
  | 'flaky'
  | 'moved'
  | 'added'
  | 'removed'
  | 'unchanged';

/** The statuses in the order the comparison is told: what got worse first. */
export const CASE_STATUSES: readonly CaseStatus[] = [
  'regressed',
  'fixed',
  'flaky',
  'moved',
  'still-failing',
  'added',
  'removed',
  'unchanged',
];

/** One side of a case x criterion: its trials, and its value and reason as its checks give them. */
export interface CaseSide {
  /** Trials decided (pass or fail). */
  trials: number;
  passes: number;
  /** The mean of its numeric values, in the metric's unit; absent when the metric gives none. */
  mean?: number;
  /** The reason of its first failing check, else of its first check: what was expected against what was found. */
  reason?: string;
}

/** One case x criterion of the comparison. */
export interface CaseChange extends CaseRef {
  criterion: string;
  metric: string;
  /** The unit of `mean` when not a [0, 1] score. */
  unit?: string;
  lowerIsBetter: boolean;
  status: CaseStatus;
  /**
   * What the status rests on: `one-trial` (one trial a side: a flip of the verdict, which one trial cannot tell from
   * chance), `exact-test` (the criterion's stratified test at the level), `tolerance` (the value against its
   * tolerance), `not-significant` (a pass rate that moved without a significant change).
   */
  basis?: 'one-trial' | 'exact-test' | 'tolerance' | 'not-significant';
  /** For `moved`: whether it moved for the better or the worse. */
  direction?: 'better' | 'worse';
  /** The task is the workup's own id (its workup named no `meta.task`): the case alone names it. */
  ownTask?: true;
  /** The one workup whose checks the case holds (on the current side, else the baseline's), when there is one. */
  workup?: string;
  /** The one-sided p-value of this case's own drop (or rise), where a test was run on it. */
  p?: number;
  /** The baseline's side; absent for an added case. */
  before?: CaseSide;
  /** The current run's side; absent for a removed case. */
  after?: CaseSide;
}

/** A run as the comparison names it. */
export interface RunLabel {
  id: string;
  time: string;
  commit?: string;
  branch?: string;
}

/** The comparison of a run with its baseline: the one every output renders. */
export interface RunComparison {
  /** `default`: verdicts (flips, and the exact test with repeats); `tolerance`: values past a tolerance regress too. */
  method: 'default' | 'tolerance';
  /** The significance level of the exact test. */
  level: number;
  /** The tolerances `moved` was decided with. */
  tolerance: number;
  relativeTolerance: number;
  current: RunLabel;
  baseline: RunLabel;
  /** Every case x criterion of either run but the unchanged ones, in the order of `CASE_STATUSES`, then by case. */
  changes: CaseChange[];
  /** How many case x criterion pairs have each status (`unchanged` included). */
  counts: Record<CaseStatus, number>;
  /** Each spec x criterion both runs hold, with the stratified test over its cases (what decides with repeats). */
  criteria: CriterionComparison[];
  /**
   * Whether some regressed or fixed case rests on one trial a side, where a flip cannot be told from chance: the
   * outputs then say so, and how to add repeats.
   */
  oneTrial: boolean;
  /**
   * The case x criterion pairs of hand-written tests (spec `matcher`) that only one side ran because that side ran no
   * hand-written test at all (`needlework run` runs the YAML specs; `vitest run` runs the test files too): not
   * compared, and not called added or removed. Zero when both sides ran hand-written tests, or neither did.
   */
  otherTests: { baselineOnly: number; currentOnly: number };
}

/** The spec id hand-written matcher tests record their checks under. */
const MATCHER_SPEC = 'matcher';

/** Drops the `matcher` pairs of a run when the other ran none, and says how many. */
function withoutUnmatchedTests(mine: Pairs, other: Pairs): number {
  const ranTests = (pairs: Pairs) => pairs.list.some((p) => p.ref.spec === MATCHER_SPEC);
  if (!ranTests(mine) || ranTests(other)) return 0;
  const before = mine.list.length;
  mine.drop((pair) => pair.ref.spec === MATCHER_SPEC);
  return before - mine.list.length;
}

/** Whether the comparison holds a regression: what fails the gate. */
export function hasRegressed(comparison: RunComparison): boolean {
  return comparison.counts.regressed > 0;
}

/** A case x criterion's key, the same in both runs. */
export function changeKey(ref: {
  spec: string;
  case?: string | undefined;
  task: string;
  criterion: string;
}): string {
  return `${ref.spec}\0${ref.criterion}\0${ref.case ?? ''}\0${ref.task}`;
}

interface Pair {
  ref: CaseRef & { criterion: string; metric: string };
  unit?: string;
  lowerIsBetter: boolean;
  trials: number;
  passes: number;
  /** The sum of its numeric values, added in the order of its checks, and how many there are. */
  sum: number;
  values: number;
  reason?: string;
  failReason?: string;
  /** Its checks name no task: the task is the workup's id. */
  ownTask?: true;
  /** The workup of its checks; null once they come from several. */
  workup?: string | null;
}

/**
 * A run's pairs, in the order they were first met, found by spec, criterion, task and case (as `changeKey` keys them:
 * no case and the case `''` are one) in maps nested on the strings the run already holds: a key joined from the four
 * for each of a run's 60,000 trials and checks was a third of the pairing's time.
 */
class Pairs {
  list: Pair[] = [];
  private readonly index = new Map<string, Map<string, Map<string, Map<string, Pair>>>>();

  get(spec: string, criterion: string, task: string, c: string | undefined): Pair | undefined {
    return this.index
      .get(spec)
      ?.get(criterion)
      ?.get(task)
      ?.get(c ?? '');
  }

  add(pair: Pair): void {
    const { spec, criterion, task } = pair.ref;
    const byCriterion = within(this.index, spec);
    const byTask = within(byCriterion, criterion);
    within(byTask, task).set(pair.ref.case ?? '', pair);
    this.list.push(pair);
  }

  drop(which: (pair: Pair) => boolean): void {
    for (const pair of this.list)
      if (which(pair))
        this.index
          .get(pair.ref.spec)
          ?.get(pair.ref.criterion)
          ?.get(pair.ref.task)
          ?.delete(pair.ref.case ?? '');
    this.list = this.list.filter((pair) => !which(pair));
  }
}

/** The map under `key` in `map`, made when there is none. */
function within<V>(map: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let inner = map.get(key);
  if (!inner) {
    inner = new Map();
    map.set(key, inner);
  }
  return inner;
}

/** A run's case x criterion pairs: trials and passes from its stored trials, values and reasons from its checks. */
function pairsOf(run: TrendRun): Pairs {
  const pairs = new Pairs();
  // The ref is built only for a pair not seen yet: at 10,000 cases each run has 30,000 trials and 30,000 checks, and
  // a ref object per lookup was most of the comparison's garbage.
  const pairOf = (
    spec: string,
    c: string | undefined,
    task: string,
    criterion: string,
    metric: string,
  ): Pair => {
    let pair = pairs.get(spec, criterion, task, c);
    if (!pair) {
      const ref: Pair['ref'] =
        c === undefined ? { spec, task, criterion, metric } : { spec, case: c, task, criterion, metric };
      pair = { ref, lowerIsBetter: false, trials: 0, passes: 0, sum: 0, values: 0 };
      pairs.add(pair);
    }
    return pair;
  };
  for (const t of run.trials) {
    const pair = pairOf(t.spec, t.case, t.task, t.criterion, t.metric);
    pair.trials += t.trials;
    pair.passes += t.passes;
  }
  for (const check of run.checks) {
    if (check.state === 'skipped' || check.state === 'pending') continue;
    const pair = pairOf(check.spec, check.case, check.task ?? check.workup, check.criterion, check.metric);
    if (check.task === undefined) pair.ownTask = true;
    pair.workup = pair.workup === undefined || pair.workup === check.workup ? check.workup : null;
    if (check.unit !== undefined) pair.unit = check.unit;
    if (check.comparator === '<=') pair.lowerIsBetter = true;
    // Booleans are verdicts, not values: the pass counts already hold them.
    const value = typeof check.value === 'boolean' ? undefined : numericValue(check.value);
    if (value !== undefined && check.verdict !== 'not-applicable') {
      pair.sum += value;
      pair.values++;
    }
    if (check.reason !== undefined) {
      pair.reason ??= check.reason;
      if (check.verdict === 'fail') pair.failReason ??= check.reason;
    }
  }
  return pairs;
}

/**
 * The mean of a pair's values (at least one): their sum in the order of its checks, as a sum of the list of them
 * was, without a list a pair (30,000 arrays a side at 10,000 cases, most of a comparison's garbage).
 */
const meanOf = (pair: Pick<Pair, 'sum' | 'values'>): number => pair.sum / pair.values;

function sideOf(pair: Pair): CaseSide {
  const side: CaseSide = { trials: pair.trials, passes: pair.passes };
  if (pair.values) side.mean = meanOf(pair);
  const reason = pair.failReason ?? pair.reason;
  if (reason !== undefined) side.reason = reason;
  return side;
}

const allFail = (s: Pick<CaseSide, 'trials' | 'passes'>) => s.trials > 0 && s.passes === 0;
const allPass = (s: Pick<CaseSide, 'trials' | 'passes'>) => s.trials > 0 && s.passes === s.trials;

/**
 * Compares a run with its baseline case by case and criterion by criterion: every case x criterion is regressed,
 * fixed, still failing, flaky, moved, added, removed or unchanged (see `CaseStatus`). Where each side has one trial, a
 * pass-to-fail flip is a regression (the outputs say that one trial cannot tell it from chance); where a side has
 * repeats, the stratified exact test of the criterion (`compareRuns`) decides, and names the cases that dropped.
 * Tolerances decide `moved`; given explicitly, a move for the worse past them is a regression as well.
 */
export function compare(current: TrendRun, baseline: TrendRun, options: CompareOptions = {}): RunComparison {
  const method =
    options.tolerance !== undefined || options.relativeTolerance !== undefined ? 'tolerance' : 'default';
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE;
  const relativeTolerance = options.relativeTolerance ?? DEFAULT_RELATIVE_TOLERANCE;
  const level = options.level ?? DEFAULT_LEVEL;
  const criteria = compareRuns(baseline, current, options);
  const byCriterion = new Map(criteria.map((c) => [`${c.spec}\0${c.criterion}`, c]));
  const before = pairsOf(baseline);
  const after = pairsOf(current);
  const otherTests = {
    baselineOnly: withoutUnmatchedTests(before, after),
    currentOnly: withoutUnmatchedTests(after, before),
  };
  const changes: CaseChange[] = [];
  const counts = Object.fromEntries(CASE_STATUSES.map((s) => [s, 0])) as Record<CaseStatus, number>;
  let oneTrial = false;
  const add = (change: CaseChange) => {
    counts[change.status]++;
    if (change.status !== 'unchanged') changes.push(change);
  };
  for (const now of after.list) {
    const was = before.get(now.ref.spec, now.ref.criterion, now.ref.task, now.ref.case);
    const unit = now.unit ?? was?.unit;
    const workup = now.workup ?? was?.workup;
    const lowerIsBetter = now.lowerIsBetter || (was?.lowerIsBetter ?? false);
    const head = (): Omit<CaseChange, 'status'> => ({
      ...now.ref,
      ...(now.ownTask && { ownTask: true as const }),
      ...(typeof workup === 'string' && { workup }),
      ...(unit !== undefined && { unit }),
      lowerIsBetter,
    });
    if (!was) {
      add({ ...head(), status: 'added', after: sideOf(now) });
      continue;
    }
    // Decided from the counts first: most pairs are unchanged, and only the others are built as changes (at 10,000
    // cases, 30,000 pairs a comparison).
    let status: CaseStatus = 'unchanged';
    let basis: CaseChange['basis'];
    let direction: CaseChange['direction'];
    let p: number | undefined;
    if (was.trials === 1 && now.trials === 1) {
      if (was.passes === 1 && now.passes === 0) [status, basis] = ['regressed', 'one-trial'];
      else if (was.passes === 0 && now.passes === 1) [status, basis] = ['fixed', 'one-trial'];
      else if (was.passes === 0) status = 'still-failing';
      if (basis === 'one-trial') oneTrial = true;
    } else if (was.trials > 0 && now.trials > 0) {
      const criterion = byCriterion.get(`${now.ref.spec}\0${now.ref.criterion}`);
      const rateA = was.passes / was.trials;
      const rateB = now.passes / now.trials;
      const drop = criterion?.droppedCases.find((d) => d.task === now.ref.task && d.case === now.ref.case);
      if (criterion?.status === 'regressed' && drop)
        [status, basis, p] = ['regressed', 'exact-test', drop.pDrop];
      else if (criterion?.status === 'improved' && rateB > rateA) [status, basis] = ['fixed', 'exact-test'];
      else if (allFail(was) && allPass(now)) [status, basis] = ['fixed', 'not-significant'];
      else if (now.passes > 0 && now.passes < now.trials) status = 'flaky';
      else if (allFail(was) && allFail(now)) status = 'still-failing';
      else if (rateA !== rateB) {
        [status, basis, direction] = ['moved', 'not-significant', rateB < rateA ? 'worse' : 'better'];
        if (drop) p = drop.pDrop;
      }
    }
    if (status === 'unchanged' && was.values && now.values) {
      const baseMean = meanOf(was);
      const delta = meanOf(now) - baseMean;
      const allowed = unit !== undefined ? Math.abs(baseMean) * relativeTolerance : tolerance;
      const worsening = lowerIsBetter ? delta : -delta;
      // A tiny epsilon keeps a move of exactly the tolerance (0.8 -> 0.78) from tripping on float rounding.
      if (Math.abs(delta) > allowed + 1e-9) {
        const way = worsening > 0 ? 'worse' : 'better';
        if (method === 'tolerance' && way === 'worse') [status, basis] = ['regressed', 'tolerance'];
        else [status, basis, direction] = ['moved', 'tolerance', way];
      }
    }
    if (status === 'unchanged') {
      counts.unchanged++;
      continue;
    }
    add({
      ...head(),
      status,
      before: sideOf(was),
      after: sideOf(now),
      ...(basis !== undefined && { basis }),
      ...(direction !== undefined && { direction }),
      ...(p !== undefined && { p }),
    });
  }
  for (const was of before.list) {
    if (after.get(was.ref.spec, was.ref.criterion, was.ref.task, was.ref.case)) continue;
    const unit = was.unit;
    add({
      ...was.ref,
      ...(was.ownTask && { ownTask: true as const }),
      ...(typeof was.workup === 'string' && { workup: was.workup }),
      ...(unit !== undefined && { unit }),
      lowerIsBetter: was.lowerIsBetter,
      status: 'removed',
      before: sideOf(was),
    });
  }
  const rank = new Map(CASE_STATUSES.map((s, i) => [s, i]));
  // Each change's case label made once, not twice a comparison (9,300 changes: 240,000 labels).
  const labels = new Map(changes.map((change) => [change, caseLabel(change)]));
  changes.sort(
    (x, y) =>
      (rank.get(x.status) ?? 0) - (rank.get(y.status) ?? 0) ||
      (x.p ?? 1) - (y.p ?? 1) ||
      byteCompare(x.spec, y.spec) ||
      byteCompare(labels.get(x) as string, labels.get(y) as string) ||
      byteCompare(x.criterion, y.criterion),
  );
  return {
    method,
    level,
    tolerance,
    relativeTolerance,
    current: labelOf(current),
    baseline: labelOf(baseline),
    changes,
    counts,
    criteria,
    oneTrial,
    otherTests,
  };
}

function labelOf(run: TrendRun): RunLabel {
  return {
    id: run.id,
    time: run.time,
    ...(run.commit !== undefined && { commit: run.commit }),
    ...(run.branch !== undefined && { branch: run.branch }),
  };
}
