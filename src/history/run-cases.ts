import type { Counts } from '../metrics/stats/tests.js';
import { tallyTrials } from '../trials/tally.js';
import { TaskCases } from './task-cases.js';
import type { TrendCheck, TrendRun } from './types.js';

/** A case of a spec: a task case (for a `*.cases.yaml` spec) and the task its trials ran. */
export interface CaseRef {
  spec: string;
  /** The task case; absent for a spec without cases (a needle or a rubric). */
  case?: string;
  /** The task (a workup's `meta.task`, or the workup id of a workup that names none). */
  task: string;
}

/**
 * One case x criterion of a run: its trials and passes (from the run's stored trials), the numeric values of its
 * checks, and what its checks say of it. The significance test reads the counts and values (`compareRuns`), the
 * comparison all of it (`compare`): one index of a run serves both.
 */
export interface CaseTrials extends Counts {
  ref: CaseRef;
  criterion: string;
  /** The metric of the trial (or check) it was first met in. */
  metric: string;
  /**
   * The finite numeric values of its decided checks (booleans are verdicts, not values), in the order of its checks.
   * Shared and empty (`NO_VALUES`) until it has one: most criteria give none.
   */
  values: number[];
  /** The unit of its checks (the last one a check gives). */
  unit: string | undefined;
  /** Some check of it keeps lower values better (`<=`). */
  lowerIsBetter: boolean;
  /** Some check of it names no task: the task is the workup's id. */
  ownTask: boolean;
  /** The workup of its checks; null once they come from several. */
  workup: string | null | undefined;
  /** The reason of its first check that gives one, and of its first failing check that does. */
  reason: string | undefined;
  failReason: string | undefined;
  /** The case its first check named (`NO_CASE` for none), as `tallyTrials` groups checks (see `valuesOfChecks`). */
  group: string | typeof NO_CASE | undefined;
}

/** One spec x criterion of one run: its cases, and what its checks say of its unit and direction. */
export interface CriterionCases {
  spec: string;
  criterion: string;
  metric: string;
  unit?: string;
  lowerIsBetter: boolean;
  /** In the order first met. */
  cases: CaseTrials[];
  /** By task and case. */
  byCase: TaskCases<CaseTrials>;
}

const NO_CASE = Symbol('no case');
/** The values of a case that has none: never added to (see `addValue`). */
const NO_VALUES: number[] = [];

/**
 * A run's spec x criteria: by their key in the order first met (what `compareRuns` walks), and by spec and criterion
 * in maps nested on the strings the run already holds: a key joined for each of a run's 30,000 trials and checks (to
 * find its criterion, then its case) was most of the time `casesOf` took. A run's trials come grouped by spec x
 * criterion: the last one found is looked up again without a Map.
 */
export class RunCriteria {
  readonly byKey = new Map<string, CriterionCases>();
  /** Every case of every criterion, in the order first met. */
  readonly all: CaseTrials[] = [];
  private readonly bySpec = new Map<string, Map<string, CriterionCases>>();
  private last: CriterionCases | undefined;

  find(spec: string, criterion: string): CriterionCases | undefined {
    const last = this.last;
    if (last !== undefined && last.spec === spec && last.criterion === criterion) return last;
    const c = this.bySpec.get(spec)?.get(criterion);
    if (c) this.last = c;
    return c;
  }

  /** The spec x criterion, made (with no cases yet) when there is none. */
  make(spec: string, criterion: string, metric: string): CriterionCases {
    let c = this.find(spec, criterion);
    if (!c) {
      c = { spec, criterion, metric, lowerIsBetter: false, cases: [], byCase: new TaskCases() };
      this.byKey.set(`${spec}\0${criterion}`, c);
      let byCriterion = this.bySpec.get(spec);
      if (!byCriterion) {
        byCriterion = new Map();
        this.bySpec.set(spec, byCriterion);
      }
      byCriterion.set(criterion, c);
      this.last = c;
    }
    return c;
  }

  /** The case of `c` of this case and task (a case-less spec's by task alone), made when `c` has none yet. */
  caseOf(c: CriterionCases, theCase: string | undefined, task: string, metric: string): CaseTrials {
    let t = c.byCase.get(theCase, task);
    if (!t) {
      const ref: CaseRef =
        theCase === undefined ? { spec: c.spec, task } : { spec: c.spec, case: theCase, task };
      t = {
        ref,
        criterion: c.criterion,
        metric,
        trials: 0,
        passes: 0,
        values: NO_VALUES,
        unit: undefined,
        lowerIsBetter: false,
        ownTask: false,
        workup: undefined,
        reason: undefined,
        failReason: undefined,
        group: undefined,
      };
      c.cases.push(t);
      c.byCase.set(task, t);
      this.all.push(t);
    }
    return t;
  }
}

function addValue(t: CaseTrials, value: number): void {
  if (t.values === NO_VALUES) t.values = [value];
  else t.values.push(value);
}

/**
 * A run's trials by spec x criterion, then by case x task: counts from the stored trials, values from the checks;
 * `checked` when each case also holds what its checks say of it (see `valuesOfChecks`).
 */
export function casesOf(run: TrendRun): { criteria: RunCriteria; checked: boolean } {
  const criteria = trialCases(run);
  return valuesOfChecks(run, criteria)
    ? { criteria, checked: true }
    : { criteria: talliedCases(run), checked: false };
}

/** The criteria and cases of a run's stored trials, with their counts (in the order of the trials). */
function trialCases(run: TrendRun): RunCriteria {
  const criteria = new RunCriteria();
  for (const t of run.trials) {
    const trials = criteria.caseOf(criteria.make(t.spec, t.criterion, t.metric), t.case, t.task, t.metric);
    trials.trials += t.trials;
    trials.passes += t.passes;
  }
  return criteria;
}

/** Whether a check counts as a trial: Vitest ran it. */
const ran = (check: TrendCheck): boolean => check.state !== 'skipped' && check.state !== 'pending';

/** What a check says of its case x criterion beyond its value: its task, workup, unit, direction and reason. */
function noteCheck(t: CaseTrials, check: TrendCheck): void {
  if (check.task === undefined) t.ownTask = true;
  t.workup = t.workup === undefined || t.workup === check.workup ? check.workup : null;
  if (check.unit !== undefined) t.unit = check.unit;
  if (check.comparator === '<=') t.lowerIsBetter = true;
  if (check.reason !== undefined) {
    t.reason ??= check.reason;
    if (check.verdict === 'fail') t.failReason ??= check.reason;
  }
}

/** A check's numeric value, when it gives one: finite, not a boolean (a verdict), and its metric applied. */
function numberOf(check: TrendCheck): number | undefined {
  return check.verdict !== 'not-applicable' && typeof check.value === 'number' && Number.isFinite(check.value)
    ? check.value
    : undefined;
}

/**
 * Adds the numeric values of the run's checks (and the unit and direction they give) to the cases of its trials, in
 * one pass over the checks, with what `talliedCases` gives them, and what each check says of its case (`noteCheck`):
 * true when it could. It gives up (false, `criteria` then half-filled) on a run whose checks group otherwise than its
 * trials: a check of a case or criterion its trials do not hold (`talliedCases` adds those in the byte order of its
 * groups), two groups of one case (a case `''` beside checks of no case) or two units in one criterion (the last
 * group's, in byte order, is the criterion's).
 */
function valuesOfChecks(run: TrendRun, criteria: RunCriteria): boolean {
  for (const check of run.checks) {
    if (!ran(check)) continue;
    const c = criteria.find(check.spec, check.criterion);
    if (!c) return false;
    const t = c.byCase.get(check.case, check.task ?? check.workup);
    if (!t) return false;
    // Per case, as `tallyTrials` groups it: the case of its first check (`NO_CASE` for none) stands for its group.
    const group = check.case ?? NO_CASE;
    if (t.group === undefined) {
      // The group's first check gives its unit and direction (as `tallyTrials` makes the group from it).
      t.group = group;
      if (check.unit !== undefined) {
        if (c.unit !== undefined && c.unit !== check.unit) return false;
        c.unit = check.unit;
      }
      if (check.comparator === '<=') c.lowerIsBetter = true;
    } else if (t.group !== group) return false;
    noteCheck(t, check);
    const value = numberOf(check);
    if (value !== undefined) addValue(t, value);
  }
  return true;
}

/** `casesOf` through `tallyTrials`: the trials' cases, then the checks' groups in byte order (any run). */
function talliedCases(run: TrendRun): RunCriteria {
  const criteria = trialCases(run);
  for (const group of tallyTrials(run.checks)) {
    const c = criteria.make(group.spec, group.criterion, group.metric);
    if (group.unit !== undefined) c.unit = group.unit;
    c.lowerIsBetter ||= group.lowerIsBetter;
    const t = criteria.caseOf(c, group.case, group.task, group.metric);
    for (const v of group.values) addValue(t, v);
  }
  return criteria;
}

/**
 * A run's case x criterion pairs, made from its trials, then from its checks (a check of a pair its trials do not
 * hold adds it), each with what its checks say of it and their values: `casesOf`'s index where its checks group
 * otherwise than its trials.
 */
export function checkedCases(run: TrendRun): RunCriteria {
  const criteria = trialCases(run);
  for (const check of run.checks) {
    if (!ran(check)) continue;
    const c = criteria.make(check.spec, check.criterion, check.metric);
    const t = criteria.caseOf(c, check.case, check.task ?? check.workup, check.metric);
    noteCheck(t, check);
    const value = numberOf(check);
    if (value !== undefined) addValue(t, value);
  }
  return criteria;
}
