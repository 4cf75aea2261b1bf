import { caseDifferenceInterval, type Interval } from '../metrics/stats/interval.js';
import { exactDropPower } from '../metrics/stats/power.js';
import { BootstrapDraws } from '../metrics/stats/random.js';
import { type StratifiedTest, significant, stratifiedDrop } from '../metrics/stats/stratified.js';
import type { Counts } from '../metrics/stats/tests.js';
import { byteCompare } from '../model/order.js';
import { isFlaky, tallyTrials } from '../trials/tally.js';
import type { TrendRun } from './types.js';

/** The default significance level of the regression gate: a drop is flagged when p < 0.05. */
export const DEFAULT_LEVEL = 0.05;
/** The power at which the gate reports the smallest drop a comparison could detect. */
const POWER = 0.8;
/**
 * The fewest values a side needs before a metric's mean is tested by bootstrap: below it a percentile bootstrap is
 * overconfident (a baseline that happens to be constant has no spread to resample), and the pass-rate test alone
 * decides. 30 is the usual rule of thumb for the bootstrap of a mean.
 */
export const MIN_BOOTSTRAP_VALUES = 30;
/** The fewest compared cases for the bootstrap to resample whole cases rather than each case's trials. */
export const MIN_BOOTSTRAP_TASKS = 10;

export interface SignificanceOptions {
  /**
   * The significance level: the largest chance of calling a change a regression (or an improvement) when nothing
   * changed. A probability in (0, 0.5).
   * @default 0.05
   */
  level?: number;
  /** Bootstrap resamples for continuous metrics. @default 1000 */
  resamples?: number;
  /** The bootstrap's seed, so a gate's verdict is reproducible. @default 1 */
  seed?: number;
}

/** One side of a comparison of a spec x criterion: its trials summed over the cases present in both runs. */
export interface SideSummary extends Counts {
  /** passes / trials; `null` with no trials. */
  rate: number | null;
  /** Mean of the numeric values, in the metric's unit; absent when the metric gives none. */
  mean?: number;
  /** How many numeric values the mean is over. */
  values: number;
}

/** What the gate concludes about a spec x criterion. */
export type ChangeStatus = 'regressed' | 'improved' | 'flaky' | 'no-change';

/** A case of a spec: a task case (for a `*.cases.yaml` spec) and the task its trials ran. */
export interface CaseRef {
  spec: string;
  /** The task case; absent for a spec without cases (a needle or a rubric). */
  case?: string;
  /** The task (a workup's `meta.task`, or the workup id of a workup that names none). */
  task: string;
}

/** A case whose pass rate fell, with its own counts and its own one-sided test. */
export interface CaseDrop {
  /** The task case; absent for a spec without cases. */
  case?: string;
  task: string;
  before: Counts;
  after: Counts;
  /** The one-sided p-value of the drop on this case alone (the gate's test on one stratum). */
  pDrop: number;
  /** `exact`: Fisher's exact test; `cmh`: its normal approximation, for large counts. */
  test: 'exact' | 'cmh';
}

/** The comparison of one spec x criterion between a baseline run and the current run. */
export interface CriterionComparison {
  spec: string;
  criterion: string;
  metric: string;
  /** The unit of means and differences when not a [0, 1] score. */
  unit?: string;
  lowerIsBetter: boolean;
  /**
   * `regressed` or `improved`: a significant change at the level (pass rate or metric); `flaky`: no significant change,
   * and in the current run some task's trials both passed and failed; `no-change`: nothing detectable at this sample
   * size (see `detectableDrop`).
   */
  status: ChangeStatus;
  /** The baseline's trials of the cases present in both runs. */
  before: SideSummary;
  /** The current run's trials of the cases present in both runs. */
  after: SideSummary;
  /**
   * The pass-rate test, stratified by case (see `stratifiedDrop`): the exact conditional test for small counts, the
   * Cochran-Mantel-Haenszel test otherwise, one-sided each way; `cases` is the number of cases that carried
   * information (trials on both sides and both a pass and a fail). Absent when no case has trials on both sides.
   */
  passRate?: { test: StratifiedTest['test']; pDrop: number; pRise: number; cases: number };
  /** How many cases (case x task) of this criterion both runs hold: the only ones compared. */
  cases: number;
  /** The cases of this criterion only the current run holds: not compared, never a change in pass rate. */
  added: CaseRef[];
  /** The cases of this criterion only the baseline holds: not compared. */
  removed: CaseRef[];
  /**
   * Each compared case whose pass rate fell, with its counts and its own one-sided p-value, most significant first
   * (then by case and task). The JUnit properties, the job summary and the HTML report render this list.
   */
  droppedCases: CaseDrop[];
  /**
   * For a metric with at least `MIN_BOOTSTRAP_VALUES` numeric values a side: the percentile bootstrap interval of the
   * mean over the compared cases of each case's change in mean (`caseDifferenceInterval`: every case weighs the same,
   * so trials per case cannot move it), in the metric's unit, at the confidence that makes each side of it a
   * one-sided test at the level the metric gets.
   */
  difference?: Interval;
  /** The compared cases (as `caseLabel` writes them) whose trials of this criterion both passed and failed now. */
  flakyTasks: string[];
  /**
   * The smallest drop in pass rate (a ratio in [0, 1]) that the gate's test detects with 80% power at the level, for
   * the compared trials taken as one case at the baseline's pass rate: from the exact power (`exactDropPower`), not
   * an approximation. `null` when a side has no trials, the baseline never passed, or even a drop to 0 would go
   * undetected at these counts.
   */
  detectableDrop: number | null;
  /** The level each test was run at: the gate's level, halved when both the pass rate and the metric are tested. */
  level: number;
}

/** One case's trials of one spec x criterion in one run, and its numeric values. */
interface CaseTrials extends Counts {
  ref: CaseRef;
  values: number[];
}

/** One spec x criterion of one run: its cases, and what its checks say of its unit and direction. */
interface CriterionCases {
  spec: string;
  criterion: string;
  metric: string;
  unit?: string;
  lowerIsBetter: boolean;
  /** In the order first met. */
  cases: CaseTrials[];
  /** By case (`''` for none: no case and the case `''` are one) and task. */
  byCase: Map<string, Map<string, CaseTrials>>;
}

/**
 * A run's spec x criteria: by their key in the order first met (what `compareRuns` walks), and by spec and criterion
 * in maps nested on the strings the run already holds: a key joined for each of a run's 30,000 trials and checks (to
 * find its criterion, then its case) was most of the time `casesOf` took.
 */
class RunCriteria {
  readonly byKey = new Map<string, CriterionCases>();
  private readonly bySpec = new Map<string, Map<string, CriterionCases>>();

  find(spec: string, criterion: string): CriterionCases | undefined {
    return this.bySpec.get(spec)?.get(criterion);
  }

  /** The spec x criterion, made (with no cases yet) when there is none. */
  make(spec: string, criterion: string, metric: string): CriterionCases {
    let c = this.find(spec, criterion);
    if (!c) {
      c = { spec, criterion, metric, lowerIsBetter: false, cases: [], byCase: new Map() };
      this.byKey.set(`${spec}\0${criterion}`, c);
      let byCriterion = this.bySpec.get(spec);
      if (!byCriterion) {
        byCriterion = new Map();
        this.bySpec.set(spec, byCriterion);
      }
      byCriterion.set(criterion, c);
    }
    return c;
  }
}

/** The case of `c` of this case and task, if it has one. */
function caseIn(c: CriterionCases, theCase: string | undefined, task: string): CaseTrials | undefined {
  return c.byCase.get(theCase ?? '')?.get(task);
}

/** A case in words: `book-flight` (a task), or `refund-policy [task refund-7]` when the case and task differ. */
export function caseLabel(ref: Pick<CaseRef, 'case' | 'task'>): string {
  return ref.case === undefined || ref.case === ref.task
    ? (ref.case ?? ref.task)
    : `${ref.case} [task ${ref.task}]`;
}

/** A run's trials by spec x criterion, then by case x task: counts from the stored trials, values from the checks. */
function casesOf(run: TrendRun): RunCriteria {
  const criteria = trialCases(run);
  return valuesOfChecks(run, criteria) ? criteria : talliedCases(run);
}

/** The case of `c` of this case and task (a case-less spec's by task alone), made with its ref when `c` has none yet. */
function caseOf(c: CriterionCases, spec: string, theCase: string | undefined, task: string): CaseTrials {
  let t = caseIn(c, theCase, task);
  if (!t) {
    const ref: CaseRef = theCase === undefined ? { spec, task } : { spec, case: theCase, task };
    t = { ref, trials: 0, passes: 0, values: [] };
    c.cases.push(t);
    let byTask = c.byCase.get(theCase ?? '');
    if (!byTask) {
      byTask = new Map();
      c.byCase.set(theCase ?? '', byTask);
    }
    byTask.set(task, t);
  }
  return t;
}

/** The criteria and cases of a run's stored trials, with their counts (in the order of the trials). */
function trialCases(run: TrendRun): RunCriteria {
  const criteria = new RunCriteria();
  // A run's trials come grouped by spec x criterion: the last one found is looked up again without a key.
  let last: CriterionCases | undefined;
  for (const t of run.trials) {
    const c =
      last?.spec === t.spec && last.criterion === t.criterion
        ? last
        : criteria.make(t.spec, t.criterion, t.metric);
    last = c;
    const trials = caseOf(c, t.spec, t.case, t.task);
    trials.trials += t.trials;
    trials.passes += t.passes;
  }
  return criteria;
}

/**
 * Adds the numeric values of the run's checks (and the unit and direction they give) to the cases of its trials, in
 * one pass over the checks, with what `talliedCases` gives them: true when it could. It gives up (false, `criteria`
 * then half-filled) on a run whose checks group otherwise than its trials: a check of a case or criterion its trials
 * do not hold (`talliedCases` adds those in the byte order of its groups), two groups of one case (a case `''` beside
 * checks of no case) or two units in one criterion (the last group's, in byte order, is the criterion's).
 */
function valuesOfChecks(run: TrendRun, criteria: RunCriteria): boolean {
  // Per case, as `tallyTrials` groups it: the case of its first check (`NO_CASE` for none) stands for its group.
  const groupCase = new Map<CaseTrials, string | typeof NO_CASE>();
  let last: CriterionCases | undefined;
  for (const check of run.checks) {
    if (check.state === 'skipped' || check.state === 'pending') continue;
    const c =
      last?.spec === check.spec && last.criterion === check.criterion
        ? last
        : criteria.find(check.spec, check.criterion);
    if (!c) return false;
    last = c;
    const task = check.task ?? check.workup;
    const t = caseIn(c, check.case, task);
    if (!t) return false;
    const seen = groupCase.get(t);
    if (seen === undefined) {
      // The group's first check gives its unit and direction (as `tallyTrials` makes the group from it).
      groupCase.set(t, check.case ?? NO_CASE);
      if (check.unit !== undefined) {
        if (c.unit !== undefined && c.unit !== check.unit) return false;
        c.unit = check.unit;
      }
      if (check.comparator === '<=') c.lowerIsBetter = true;
    } else if (seen !== (check.case ?? NO_CASE)) return false;
    if (check.verdict === 'not-applicable') continue;
    if (typeof check.value === 'number' && Number.isFinite(check.value)) t.values.push(check.value);
  }
  return true;
}

const NO_CASE = Symbol('no case');

/** `casesOf` through `tallyTrials`: the trials' cases, then the checks' groups in byte order (any run). */
function talliedCases(run: TrendRun): RunCriteria {
  const criteria = trialCases(run);
  for (const group of tallyTrials(run.checks)) {
    const c = criteria.make(group.spec, group.criterion, group.metric);
    if (group.unit !== undefined) c.unit = group.unit;
    c.lowerIsBetter ||= group.lowerIsBetter;
    const values = caseOf(c, group.spec, group.case, group.task).values;
    for (const v of group.values) values.push(v);
  }
  return criteria;
}

function side(cases: readonly CaseTrials[]): SideSummary {
  let trials = 0;
  let passes = 0;
  let sum = 0;
  let values = 0;
  for (const c of cases) {
    trials += c.trials;
    passes += c.passes;
    for (const v of c.values) sum += v;
    values += c.values.length;
  }
  const summary: SideSummary = { trials, passes, rate: trials ? passes / trials : null, values };
  if (values) summary.mean = sum / values;
  return summary;
}

/**
 * Whether a metric's values call for a test of their own: enough of them, varying, and not only 0 and 1 (a 0/1 metric
 * is its verdict, which the pass-rate test already covers).
 */
function continuous(a: readonly number[], b: readonly number[]): boolean {
  if (a.length < MIN_BOOTSTRAP_VALUES || b.length < MIN_BOOTSTRAP_VALUES) return false;
  const first = a[0] ?? b[0];
  const varies = a.some((v) => v !== first) || b.some((v) => v !== first);
  const binary = a.every((v) => v === 0 || v === 1) && b.every((v) => v === 0 || v === 1);
  return varies && !binary;
}

const byCase = (a: CaseRef, b: CaseRef): number =>
  byteCompare(a.spec, b.spec) || byteCompare(a.case ?? '', b.case ?? '') || byteCompare(a.task, b.task);

/**
 * Compares every spec x criterion present in both runs, case by case: only the cases (spec x case x task x criterion)
 * both runs hold are compared, and those only one run holds are listed apart as added or removed, never counted as a
 * change. A drop (or rise) counts only when it is significant at `level`: for pass rates the stratified test of
 * `stratifiedDrop` (one stratum per case: neither a change in the mix of cases nor in the trials per case can fake
 * or hide a change), for metrics with at least 30 numeric values a side (not only 0 and 1) a bootstrap interval of
 * the mean over cases of each case's change in mean that excludes 0 (resampling whole cases when there are at least
 * 10, else each case's trials). When both apply, each gets half the level (Bonferroni), so the chance of a false
 * regression stays within `level`. A p-value equal to the level is not below it (`significant`). Each case whose pass
 * rate fell is named with its own test.
 */
export function compareRuns(
  baseline: TrendRun,
  current: TrendRun,
  options: SignificanceOptions = {},
): CriterionComparison[] {
  const level = options.level ?? DEFAULT_LEVEL;
  if (!(level > 0 && level < 0.5))
    throw new RangeError(`the significance level must be in (0, 0.5), got ${level}`);
  const before = casesOf(baseline);
  const after = casesOf(current);
  const comparisons: CriterionComparison[] = [];
  // The criteria of a spec are resampled over the same cases: their bootstraps draw the same cases.
  const draws = new BootstrapDraws();
  for (const [key, now] of after.byKey) {
    const was = before.byKey.get(key);
    if (!was) continue;
    const paired: Array<[CaseTrials, CaseTrials]> = [];
    const added: CaseRef[] = [];
    const removed: CaseRef[] = [];
    for (const a of now.cases) {
      const b = caseIn(was, a.ref.case, a.ref.task);
      if (b) paired.push([b, a]);
      else added.push(a.ref);
    }
    for (const b of was.cases) if (!caseIn(now, b.ref.case, b.ref.task)) removed.push(b.ref);
    const wasSide = side(paired.map(([b]) => b));
    const nowSide = side(paired.map(([, a]) => a));
    const countable = paired.some(([b, a]) => b.trials > 0 && a.trials > 0);
    const bootstrap = continuous(
      paired.flatMap(([b]) => b.values),
      paired.flatMap(([, a]) => a.values),
    );
    const each = countable && bootstrap ? level / 2 : level;
    const lowerIsBetter = now.lowerIsBetter || was.lowerIsBetter;
    const unit = now.unit ?? was.unit;
    const comparison: CriterionComparison = {
      spec: now.spec,
      criterion: now.criterion,
      metric: now.metric,
      ...(unit !== undefined && { unit }),
      lowerIsBetter,
      status: 'no-change',
      before: wasSide,
      after: nowSide,
      cases: paired.length,
      added: added.sort(byCase),
      removed: removed.sort(byCase),
      droppedCases: countable ? droppedCases(paired) : [],
      flakyTasks: paired.filter(([, a]) => isFlaky(a)).map(([, a]) => caseLabel(a.ref)),
      detectableDrop: countable ? detectableDrop(wasSide, nowSide, each) : null,
      level: each,
    };
    let worse = false;
    let better = false;
    if (countable) {
      const test = stratifiedDrop(paired.map(([b, a]) => ({ before: b, after: a })));
      comparison.passRate = {
        test: test.test,
        pDrop: test.pDrop,
        pRise: test.pRise,
        cases: test.informative,
      };
      worse ||= significant(test.pDrop, each);
      better ||= significant(test.pRise, each);
    }
    if (bootstrap) {
      // Each compared case weighs the same; cases are resampled whole (their trials are correlated) once there are
      // enough of them, else each case's trials are.
      const withValues = paired.filter(([b, a]) => b.values.length > 0 && a.values.length > 0);
      const difference = caseDifferenceInterval(
        withValues.map(([b, a]) => ({ before: b.values, after: a.values })),
        {
          // Each end of a two-sided interval at 1 - 2 * level is a one-sided test at the level.
          confidence: 1 - 2 * each,
          byCase: withValues.length >= MIN_BOOTSTRAP_TASKS,
          draws,
          ...(options.resamples !== undefined && { resamples: options.resamples }),
          ...(options.seed !== undefined && { seed: options.seed }),
        },
      );
      if (difference) {
        comparison.difference = difference;
        const fell = difference.high < 0;
        const rose = difference.low > 0;
        worse ||= lowerIsBetter ? rose : fell;
        better ||= lowerIsBetter ? fell : rose;
      }
    }
    comparison.status = worse
      ? 'regressed'
      : better
        ? 'improved'
        : comparison.flakyTasks.length
          ? 'flaky'
          : 'no-change';
    comparisons.push(comparison);
  }
  return comparisons.sort((a, b) => byteCompare(a.spec, b.spec) || byteCompare(a.criterion, b.criterion));
}

/** The compared cases whose pass rate fell, each with its own one-sided test, most significant first. */
function droppedCases(paired: ReadonlyArray<[CaseTrials, CaseTrials]>): CaseDrop[] {
  const drops: CaseDrop[] = [];
  for (const [b, a] of paired) {
    if (b.trials === 0 || a.trials === 0 || a.passes * b.trials >= b.passes * a.trials) continue;
    const test = stratifiedDrop([{ before: b, after: a }]);
    drops.push({
      ...(a.ref.case !== undefined && { case: a.ref.case }),
      task: a.ref.task,
      before: { trials: b.trials, passes: b.passes },
      after: { trials: a.trials, passes: a.passes },
      pDrop: test.pDrop,
      test: test.test,
    });
  }
  return drops.sort(
    (x, y) => x.pDrop - y.pDrop || byteCompare(x.case ?? '', y.case ?? '') || byteCompare(x.task, y.task),
  );
}

/**
 * The smallest drop d from the baseline's pass rate p1 = passes / trials that the gate's test detects with 80% power
 * at `level`, for `before` and `after` trials of one case: the exact power (`exactDropPower`, every pair of outcomes
 * enumerated) rises with d, and d is found by bisection to 0.001 (a tenth of the point it is shown to). The normal approximation this replaces claimed 80%
 * where the exact power was 70% at 10 trials a side. `null` when a side has no trials, the baseline never passed, or
 * a drop to 0 has less than 80% power.
 */
export function detectableDrop(before: Counts, after: Counts, level: number = DEFAULT_LEVEL): number | null {
  const n1 = before.trials;
  const n2 = after.trials;
  if (n1 === 0 || n2 === 0 || before.passes === 0) return null;
  const p1 = before.passes / n1;
  const detects = (d: number): boolean => exactDropPower(n1, n2, p1, Math.max(0, p1 - d), level) >= POWER;
  if (!detects(p1)) return null;
  let low = 0;
  let high = p1;
  while (high - low > 1e-3) {
    const mid = (low + high) / 2;
    if (detects(mid)) high = mid;
    else low = mid;
  }
  return high;
}
