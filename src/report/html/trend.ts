import { metricMeans } from '../trend/table.js';
import type { TrendRun } from '../trend/types.js';
import { fittedAxis, UNIT_AXIS } from './axis.js';
import type { HtmlTrend } from './types.js';

/** How many of the latest runs the charts show. */
export const TREND_RUNS = 30;

/**
 * The trend charts' data from the runs of a history, oldest first (the last 30 are shown): each run's label for the
 * x axis, the pass rate, and each spec x criterion metric's mean per run with a value axis fitted to it. It reads
 * runs only, so it charts them wherever they were kept.
 */
export function htmlTrend(all: readonly TrendRun[]): HtmlTrend {
  const runs = all.slice(-TREND_RUNS);
  return {
    runs: runs.map((run) => ({
      id: run.id,
      time: run.time,
      ...(run.commit ? { commit: run.commit } : {}),
      label: runLabel(run),
      passRate: run.summary.passRate,
    })),
    passRateAxis: UNIT_AXIS,
    series: metricMeans(runs).map((s) => {
      const means = s.means.map((m) => m ?? null);
      return {
        spec: s.spec,
        criterion: s.criterion,
        metric: s.metric,
        ...(s.unit ? { unit: s.unit } : {}),
        means,
        axis: fittedAxis(means, s.unit),
      };
    }),
  };
}

/** A run as its x-axis label: the commit's first 7 characters, else its time (`MM-DD HH:MM`, UTC). */
export function runLabel(run: Pick<TrendRun, 'time' | 'commit'>): string {
  if (run.commit) return run.commit.slice(0, 7);
  const time = /^\d{4}-(\d\d-\d\d)T(\d\d:\d\d)/.exec(run.time);
  return time ? `${time[1]} ${time[2]}` : run.time;
}
