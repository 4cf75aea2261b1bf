import { numericValue } from '../checks/format.js';
import { byteCompare } from '../model/order.js';
import type { TrendRun } from './types.js';

/** What the table shows: the last runs (oldest first), how many runs there are in all, and each metric's means. */
export interface TrendTableData {
  total: number;
  runs: ReadonlyArray<Pick<TrendRun, 'id' | 'time' | 'commit' | 'branch' | 'summary'>>;
  series: readonly MetricSeries[];
}

export interface MetricSeries {
  spec: string;
  criterion: string;
  metric: string;
  unit?: string;
  lowerIsBetter: boolean;
  /** The mean of the metric over the workups of each run (undefined where it was not measured). */
  means: Array<number | undefined>;
}

/** The mean of each spec x criterion metric in each run, in byte order of spec and criterion. */
export function metricMeans(runs: readonly TrendRun[]): MetricSeries[] {
  const series = new Map<string, MetricSeries & { sums: number[]; counts: number[] }>();
  runs.forEach((run, index) => {
    for (const check of run.checks) {
      const value = numericValue(check.value);
      const key = `${check.spec}\0${check.criterion}`;
      let s = series.get(key);
      if (!s) {
        s = {
          spec: check.spec,
          criterion: check.criterion,
          metric: check.metric,
          ...(check.unit ? { unit: check.unit } : {}),
          lowerIsBetter: check.comparator === '<=',
          means: [],
          sums: new Array(runs.length).fill(0),
          counts: new Array(runs.length).fill(0),
        };
        series.set(key, s);
      }
      if (value === undefined) continue;
      s.sums[index] = (s.sums[index] ?? 0) + value;
      s.counts[index] = (s.counts[index] ?? 0) + 1;
    }
  });
  return [...series.entries()]
    .sort(([a], [b]) => byteCompare(a, b))
    .map(([, { sums, counts, ...s }]) => ({
      ...s,
      means: sums.map((sum, i) => (counts[i] ? sum / (counts[i] ?? 1) : undefined)),
    }));
}
