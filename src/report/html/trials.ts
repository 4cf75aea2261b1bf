import type { CheckRecord } from '../checks.js';
import { recordTrialStatistics } from '../trials.js';
import type { HtmlTrialCell, HtmlTrials } from './types.js';

/**
 * The report's view of repeated trials, from the checks of workups that name a task (a workup without one is a task of
 * one trial, with nothing to show), and a test of whether a check's criterion is flaky on its task.
 */
export function htmlTrials(
  records: readonly CheckRecord[],
): { trials: HtmlTrials; isFlaky: (spec: string, criterion: string, task: string) => boolean } | undefined {
  if (!records.some((r) => r.meta?.task !== undefined)) return undefined;
  const stats = recordTrialStatistics(records);
  const tasks = new Set<string>();
  const cells: HtmlTrialCell[] = [];
  const flaky = new Set<string>();
  for (const s of stats)
    for (const t of s.tasks) {
      tasks.add(t.task);
      cells.push({
        spec: s.spec,
        criterion: s.criterion,
        task: t.task,
        trials: t.trials,
        passes: t.passes,
        passRate: t.passRate,
        flaky: t.flaky,
      });
      if (t.flaky) flaky.add(`${s.spec}\0${s.criterion}\0${t.task}`);
    }
  return {
    trials: {
      criteria: stats.map((s) => ({
        spec: s.spec,
        criterion: s.criterion,
        metric: s.metric,
        trials: s.overall.trials,
        passes: s.overall.passes,
        passRate: s.overall.passRate,
        low: s.overall.interval?.low ?? null,
        high: s.overall.interval?.high ?? null,
        passAtK: s.overall.passAtK,
        passHatK: s.overall.passHatK,
        flakyTasks: s.overall.flakyTasks,
      })),
      tasks: [...tasks].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
      cells,
    },
    isFlaky: (spec, criterion, task) => flaky.has(`${spec}\0${criterion}\0${task}`),
  };
}
