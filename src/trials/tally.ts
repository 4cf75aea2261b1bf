import type { Check } from '../model/check.js';
import { taskOf } from './identity.js';

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

/** A spec x criterion's groups: by task case (`undefined` for a check of no case), then by task. */
type ByCase = Map<string | undefined, Map<string, TaskTrials>>;

/**
 * Groups checks into trials: one group per spec x criterion x case x task (a workup without a task is its own task;
 * a check of no task case has no case), in byte order of those four. Reads only the checks' verdicts and values,
 * never a workup.
 */
export function tallyTrials(checks: Iterable<TrialCheck>): TaskTrials[] {
  // Nested maps (spec, criterion, case and task) rather than one joined key: no string is built per check.
  const groups = new Map<string, Map<string, ByCase>>();
  for (const check of checks) {
    if (!ran(check)) continue;
    const task = taskOf(check);
    let bySpec = groups.get(check.spec);
    if (!bySpec) {
      bySpec = new Map();
      groups.set(check.spec, bySpec);
    }
    let byCase = bySpec.get(check.criterion);
    if (!byCase) {
      byCase = new Map();
      bySpec.set(check.criterion, byCase);
    }
    let byTask = byCase.get(check.case);
    if (!byTask) {
      byTask = new Map();
      byCase.set(check.case, byTask);
    }
    let group = byTask.get(task);
    if (!group) {
      group = newGroup(check, task);
      byTask.set(task, group);
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
  for (const spec of sortedKeys(groups)) {
    const bySpec = groups.get(spec) as Map<string, ByCase>;
    for (const criterion of sortedKeys(bySpec)) pushInOrder(bySpec.get(criterion) as ByCase, sorted);
  }
  return sorted;
}

/**
 * Appends a spec x criterion's groups in byte order of the key `case NUL task` (`task` alone for a check of no case).
 * NUL sorts before every character, so when every group has a case, or none has, that is the order of case, then
 * task, which the nested maps give without joining the two.
 */
function pushInOrder(byCase: ByCase, out: TaskTrials[]): void {
  if (byCase.size > 1 && byCase.has(undefined)) {
    // Checks of a task case and checks of none under one spec x criterion: the joined keys decide.
    const keyed: Array<[string, TaskTrials]> = [];
    for (const [c, byTask] of byCase)
      for (const [task, group] of byTask) keyed.push([c === undefined ? task : `${c}\0${task}`, group]);
    keyed.sort(([a], [b]) => byteCompare(a, b));
    for (const [, group] of keyed) out.push(group);
    return;
  }
  for (const c of sortedKeys(byCase as Map<string, Map<string, TaskTrials>>)) {
    const byTask = byCase.get(c) as Map<string, TaskTrials>;
    for (const task of sortedKeys(byTask)) out.push(byTask.get(task) as TaskTrials);
  }
}

/**
 * A map's keys in byte order: the default sort compares strings by UTF-16 code units, as `byteCompare` does, without a
 * call per comparison. (A map of the one key `undefined` gives it back.)
 */
function sortedKeys<T>(map: Map<string, T>): string[] {
  const keys = [...map.keys()];
  return keys.length > 1 ? keys.sort() : keys;
}

/** A new group for a check's spec x criterion x case x task: an object literal of `TaskTrials`' fields in order. */
function newGroup(check: TrialCheck, task: string): TaskTrials {
  const lowerIsBetter = check.comparator === '<=';
  if (check.unit !== undefined)
    return {
      spec: check.spec,
      criterion: check.criterion,
      ...(check.case !== undefined && { case: check.case }),
      task,
      metric: check.metric,
      unit: check.unit,
      lowerIsBetter,
      trials: 0,
      passes: 0,
      notApplicable: 0,
      values: [],
    };
  if (check.case !== undefined)
    return {
      spec: check.spec,
      criterion: check.criterion,
      case: check.case,
      task,
      metric: check.metric,
      lowerIsBetter,
      trials: 0,
      passes: 0,
      notApplicable: 0,
      values: [],
    };
  return {
    spec: check.spec,
    criterion: check.criterion,
    task,
    metric: check.metric,
    lowerIsBetter,
    trials: 0,
    passes: 0,
    notApplicable: 0,
    values: [],
  };
}

/** Whether a task's trials of a criterion disagree: some passed and some failed (a flaky criterion on that task). */
export function isFlaky(group: Pick<TaskTrials, 'trials' | 'passes'>): boolean {
  return group.passes > 0 && group.passes < group.trials;
}
