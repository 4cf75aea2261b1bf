import { byteCompare } from '../model/order.js';
import { type CaseTrials, casesOf, checkedCases, type RunCriteria } from './run-cases.js';
import {
  type CaseDrop,
  type CaseRef,
  type CriterionComparison,
  caseLabel,
  compareCriteria,
  levelOf,
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

/**
 * A run's case x criterion pairs, in the order they were first met, found by spec, criterion, task and case (as
 * `changeKey` keys them: no case and the case `''` are one): the index `casesOf` made for the significance test, when
 * its cases hold what their checks say (`checked`), else `checkedCases`.
 */
class Pairs {
  list: CaseTrials[];

  constructor(private readonly criteria: RunCriteria) {
    this.list = criteria.all;
  }

  get(spec: string, criterion: string, task: string, c: string | undefined): CaseTrials | undefined {
    return this.criteria.find(spec, criterion)?.byCase.get(c, task);
  }

  drop(which: (pair: CaseTrials) => boolean): void {
    for (const pair of this.list)
      if (which(pair))
        this.criteria.find(pair.ref.spec, pair.criterion)?.byCase.delete(pair.ref.case, pair.ref.task);
    this.list = this.list.filter((pair) => !which(pair));
  }
}

/**
 * The mean of a pair's values (at least one): their sum in the order of its checks, as a sum of the list of them
 * was.
 */
function meanOf(pair: CaseTrials): number {
  let sum = 0;
  for (const v of pair.values) sum += v;
  return sum / pair.values.length;
}

function sideOf(pair: CaseTrials): CaseSide {
  const side: CaseSide = { trials: pair.trials, passes: pair.passes };
  if (pair.values.length) side.mean = meanOf(pair);
  const reason = pair.failReason ?? pair.reason;
  if (reason !== undefined) side.reason = reason;
  return side;
}

/**
 * A change's case, criterion and what its checks say, in the order of `CaseChange`'s fields (a change is built field
 * by field: spreading a pair's ref into each of 9,000 changes was a tenth of a comparison).
 */
function changeOf(
  pair: CaseTrials,
  workup: string | null | undefined,
  unit: string | undefined,
  lowerIsBetter: boolean,
  status: CaseStatus,
): CaseChange {
  const change = { spec: pair.ref.spec } as CaseChange;
  if (pair.ref.case !== undefined) change.case = pair.ref.case;
  change.task = pair.ref.task;
  change.criterion = pair.criterion;
  change.metric = pair.metric;
  if (pair.ownTask) change.ownTask = true;
  if (typeof workup === 'string') change.workup = workup;
  if (unit !== undefined) change.unit = unit;
  change.lowerIsBetter = lowerIsBetter;
  change.status = status;
  return change;
}

/** A run's pairs: `casesOf`'s index of it when checked, else its own. */
function pairsOf(run: TrendRun, cases: { criteria: RunCriteria; checked: boolean }): Pairs {
  return new Pairs(cases.checked ? cases.criteria : checkedCases(run));
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
  const level = levelOf(options);
  // Each run is indexed once, for the significance test and for the pairs.
  const baseCases = casesOf(baseline);
  const nowCases = casesOf(current);
  const criteria = compareCriteria(baseCases.criteria, nowCases.criteria, options, level);
  const drops = new CaseDrops(criteria);
  const before = pairsOf(baseline, baseCases);
  const after = pairsOf(current, nowCases);
  const otherTests = {
    baselineOnly: withoutUnmatchedTests(before, after),
    currentOnly: withoutUnmatchedTests(after, before),
  };
  const changes: CaseChange[] = [];
  const counts = Object.fromEntries(CASE_STATUSES.map((s) => [s, 0])) as Record<CaseStatus, number>;
  let oneTrial = false;
  for (const now of after.list) {
    const was = before.get(now.ref.spec, now.criterion, now.ref.task, now.ref.case);
    const unit = now.unit ?? was?.unit;
    const workup = now.workup ?? was?.workup;
    const lowerIsBetter = now.lowerIsBetter || (was?.lowerIsBetter ?? false);
    if (!was) {
      const change = changeOf(now, workup, unit, lowerIsBetter, 'added');
      change.after = sideOf(now);
      counts.added++;
      changes.push(change);
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
      const criterion = drops.criterion(now.ref.spec, now.criterion);
      const rateA = was.passes / was.trials;
      const rateB = now.passes / now.trials;
      const drop = criterion && drops.find(criterion, now.ref.case, now.ref.task);
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
    if (status === 'unchanged' && was.values.length && now.values.length) {
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
    counts[status]++;
    if (status === 'unchanged') continue;
    const change = changeOf(now, workup, unit, lowerIsBetter, status);
    change.before = sideOf(was);
    change.after = sideOf(now);
    if (basis !== undefined) change.basis = basis;
    if (direction !== undefined) change.direction = direction;
    if (p !== undefined) change.p = p;
    changes.push(change);
  }
  for (const was of before.list) {
    if (after.get(was.ref.spec, was.criterion, was.ref.task, was.ref.case)) continue;
    const change = changeOf(was, was.workup, was.unit, was.lowerIsBetter, 'removed');
    change.before = sideOf(was);
    counts.removed++;
    changes.push(change);
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

/**
 * The compared criteria of a comparison by spec and criterion, and the cases whose pass rate each names as dropped
 * by task, each found when first asked for: a pair with repeats looks its criterion and its case's drop up (a search
 * of the drops for each of 10,000 pairs grew with the square of the cases).
 */
class CaseDrops {
  private readonly bySpec = new Map<string, Map<string, CriterionComparison>>();
  private readonly byTask = new Map<CriterionComparison, Map<string, CaseDrop[]>>();

  constructor(criteria: readonly CriterionComparison[]) {
    for (const c of criteria) {
      let byCriterion = this.bySpec.get(c.spec);
      if (!byCriterion) {
        byCriterion = new Map();
        this.bySpec.set(c.spec, byCriterion);
      }
      byCriterion.set(c.criterion, c);
    }
  }

  criterion(spec: string, criterion: string): CriterionComparison | undefined {
    return this.bySpec.get(spec)?.get(criterion);
  }

  /** The first drop of `criterion` of this case (no case is not the case `''` here) and task. */
  find(criterion: CriterionComparison, theCase: string | undefined, task: string): CaseDrop | undefined {
    let byTask = this.byTask.get(criterion);
    if (!byTask) {
      byTask = new Map();
      for (const d of criterion.droppedCases) {
        const list = byTask.get(d.task);
        if (list) list.push(d);
        else byTask.set(d.task, [d]);
      }
      this.byTask.set(criterion, byTask);
    }
    return byTask.get(task)?.find((d) => d.case === theCase);
  }
}

function labelOf(run: TrendRun): RunLabel {
  return {
    id: run.id,
    time: run.time,
    ...(run.commit !== undefined && { commit: run.commit }),
    ...(run.branch !== undefined && { branch: run.branch }),
  };
}
