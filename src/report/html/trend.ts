import { metricMeans, type TrendTableData } from '../../history/means.js';
import type { TrendRun } from '../../history/types.js';
import { fittedAxis, runLabel, UNIT_AXIS } from '../../ui/axis.js';
import { CHARTED_RUNS } from '../run-history.js';
import type { HtmlTrend } from './types.js';

/** The overview the charts draw from the runs of a history, oldest first: the last 30 and each metric's means. */
export function trendOverview(all: readonly TrendRun[]): TrendTableData {
  const runs = all.slice(-CHARTED_RUNS);
  return { total: all.length, runs, series: metricMeans(runs) };
}

/**
 * The trend charts' data from an overview of runs (`trendOverview` of a history's runs, or the store's own, gathered
 * in SQL): each run's label for the x axis, the pass rate, and each spec x criterion metric's mean per run with a
 * value axis fitted to it.
 */
export function htmlTrend(overview: Pick<TrendTableData, 'runs' | 'series'>): HtmlTrend {
  const runs = overview.runs;
  return {
    runs: runs.map((run) => ({
      id: run.id,
      time: run.time,
      ...(run.commit ? { commit: run.commit } : {}),
      label: runLabel(run),
      passRate: run.summary.passRate,
    })),
    passRateAxis: UNIT_AXIS,
    series: overview.series.map((s) => {
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

export { runLabel };
