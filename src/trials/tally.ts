import type { Check } from '../model/check.js';
import { taskOf } from '../workup/trial-identity.js';

const byteCompare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** What the trials layer reads of a check: its identity, verdict and value, and whether Vitest ran it. */
export type TrialCheck = Pick<
  Check,
  'spec' | 'case' | 'criterion' | 'workup' | 'task' | 'metric' | 'verdict' | 'value' | 'unit' | 'comparator'
> & {
  /** Vitest's state of the test; a skipped or interrupted test is no trial. */
  state?: 'passed' | 'failed' | 'skipped' | 'pending';
};

/** The trials of one task (of one case, for a task-cases spec) for one spec x criterion. */
export interface TaskTrials {
  spec: string;
  criterion: string;
  /** The task case of a `*.cases.yaml` spec the trials belong to; absent for other specs. */
  case?: string;
  task: string;
  metric: string;
  /** The unit of `values`, when not a [0, 1] score. */
  unit?: string;
  /** Whether lower values are better (`<=` comparator). */
  lowerIsBetter: boolean;
  /** Trials decided (pass or fail). */
  trials: number;
  /** Trials that passed. */
  passes: number;
  /** Trials whose metric did not apply. */
  notApplicable: number;
  /** The numeric values of the decided trials (booleans are not values), in the metric's unit. */
  values: number[];
}

/** Whether a check counts as a trial: Vitest ran it (a skipped test decided nothing). */
function ran(check: TrialCheck): boolean {
  return check.state !== 'skipped' && check.state !== 'pending';
}

/**
 * Groups checks into trials: one group per spec x criterion x case x task (a workup without a task is its own task;
 * a check of no task case has no case), in byte order of those four. Reads only the checks' verdicts and values,
 * never a workup.
 */
export function tallyTrials(checks: Iterable<TrialCheck>): TaskTrials[] {
  // Nested maps (spec, criterion, case and task) rather than one joined key of all: one string is built per check only
  // for a check of a task case.
  const groups = new Map<string, Map<string, Map<string, TaskTrials>>>();
  for (const check of checks) {
    if (!ran(check)) continue;
    const task = taskOf(check);
    // Case, then task: NUL sorts before every character, so the byte order of the key is that of case, then task.
    const key = check.case === undefined ? task : `${check.case}\0${task}`;
    let bySpec = groups.get(check.spec);
    if (!bySpec) {
      bySpec = new Map();
      groups.set(check.spec, bySpec);
    }
    let byCriterion = bySpec.get(check.criterion);
    if (!byCriterion) {
      byCriterion = new Map();
      bySpec.set(check.criterion, byCriterion);
    }
    let group = byCriterion.get(key);
    if (!group) {
      group = {
        spec: check.spec,
        criterion: check.criterion,
        ...(check.case !== undefined && { case: check.case }),
        task,
        metric: check.metric,
        ...(check.unit !== undefined && { unit: check.unit }),
        lowerIsBetter: check.comparator === '<=',
        trials: 0,
        passes: 0,
        notApplicable: 0,
        values: [],
      };
      byCriterion.set(key, group);
    }
    if (check.verdict === 'not-applicable') {
      group.notApplicable++;
      continue;
    }
    group.trials++;
    if (check.verdict === 'pass') group.passes++;
    if (typeof check.value === 'number' && Number.isFinite(check.value)) group.values.push(check.value);
  }
  const sorted: TaskTrials[] = [];
  const keys = <T>(map: Map<string, T>) => [...map.keys()].sort(byteCompare);
  for (const spec of keys(groups)) {
    const bySpec = groups.get(spec) as Map<string, Map<string, TaskTrials>>;
    for (const criterion of keys(bySpec)) {
      const byTask = bySpec.get(criterion) as Map<string, TaskTrials>;
      for (const task of keys(byTask)) sorted.push(byTask.get(task) as TaskTrials);
    }
  }
  return sorted;
}

/** Whether a task's trials of a criterion disagree: some passed and some failed (a flaky criterion on that task). */
export function isFlaky(group: Pick<TaskTrials, 'trials' | 'passes'>): boolean {
  return group.passes > 0 && group.passes < group.trials;
}
