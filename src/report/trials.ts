import type { Check } from '../model/check.js';
import { type CriterionStatistics, type TaskStatistics, trialStatistics } from '../trials/summary.js';
import type { TrialCheck } from '../trials/tally.js';
import type { CheckRecord } from './checks.js';

/** The statistics of the task each check's workup is a trial of, for the reports to show beside each check. */
export interface TrialIndex {
  /** The task statistics of a check's spec x criterion x task; undefined for a workup that names no task. */
  of(meta: Pick<Check, 'spec' | 'criterion' | 'task'>): TaskStatistics | undefined;
  /** The k values pass@k and pass^k were computed for. */
  ks(meta: Pick<Check, 'spec' | 'criterion'>): string[];
}

const computed = new WeakMap<readonly CheckRecord[], CriterionStatistics[]>();

/**
 * The trial statistics (default options) of the checks whose workup names a task. Computed once per array of records:
 * `collectChecks` hands the reporters of one run the same array, so the JUnit file and the HTML report share one
 * computation (at 10,000 tasks its bootstrap intervals are a second each).
 */
export function recordTrialStatistics(records: readonly CheckRecord[]): CriterionStatistics[] {
  let stats = computed.get(records);
  if (!stats) {
    stats = trialStatistics(trialChecks(records));
    computed.set(records, stats);
  }
  return stats;
}

/**
 * Computes the trial statistics of a run's checks once (only tasks named by a workup: a workup without one is a task
 * of one trial, with nothing to add), indexed by spec x criterion x task.
 */
export function indexTrials(checks: readonly CheckRecord[]): TrialIndex {
  // Nested by spec, then criterion: a look-up per check builds no joined key (30,000 of them after a run's last test).
  const bySpec = new Map<string, Map<string, { ks: string[]; tasks: Map<string, TaskStatistics> }>>();
  for (const criterion of recordTrialStatistics(checks)) {
    let byCriterion = bySpec.get(criterion.spec);
    if (!byCriterion) {
      byCriterion = new Map();
      bySpec.set(criterion.spec, byCriterion);
    }
    const tasks = new Map<string, TaskStatistics>();
    for (const task of criterion.tasks) tasks.set(task.task, task);
    byCriterion.set(criterion.criterion, { ks: Object.keys(criterion.overall.passAtK), tasks });
  }
  return {
    of: (meta) =>
      meta.task === undefined ? undefined : bySpec.get(meta.spec)?.get(meta.criterion)?.tasks.get(meta.task),
    ks: (meta) => bySpec.get(meta.spec)?.get(meta.criterion)?.ks ?? [],
  };
}

/**
 * The checks whose workup names a task, as the trials layer reads them: the fields it reads, not a copy of each
 * check's whole meta (at 30,000 checks the copies were a quarter of the statistics' time, and their garbage).
 */
function* trialChecks(records: readonly CheckRecord[]): Generator<TrialCheck> {
  for (const { meta, state } of records) {
    if (meta?.task === undefined) continue;
    yield {
      spec: meta.spec,
      case: meta.case,
      criterion: meta.criterion,
      workup: meta.workup,
      task: meta.task,
      metric: meta.metric,
      verdict: meta.verdict,
      value: meta.value,
      unit: meta.unit,
      comparator: meta.comparator,
      state,
    };
  }
}
