import { readHistory } from '../history.js';
import { metricMeans } from '../means.js';
import { scopeKey } from '../scope.js';
import type { TrendRun } from '../types.js';
import type { RunFilter, RunSource } from './source.js';

/** A trend.json export read as a source of runs (read-only), for `trend <file.json>` and `--baseline <file.json>`. */
export async function historySource(path: string): Promise<RunSource> {
  const { runs } = await readHistory(path);
  const index = new Map(runs.map((run, i) => [run.id, i]));
  const passes = (run: TrendRun, i: number, f: RunFilter): boolean =>
    (f.scopeKey === undefined || scopeKey(run.scope) === f.scopeKey) &&
    (f.notScopeKey === undefined || scopeKey(run.scope) !== f.notScopeKey) &&
    (f.branch === undefined || run.branch === f.branch) &&
    (f.before === undefined || i < (index.get(f.before.id) ?? -1)) &&
    (f.after === undefined || i > (index.get(f.after.id) ?? runs.length)) &&
    (f.endedBefore === undefined || Date.parse(run.time) < Date.parse(f.endedBefore)) &&
    run.id !== f.excludeId;
  return {
    name: path,
    overview: async (last) => {
      const shown = last > 0 ? runs.slice(-last) : [];
      return {
        total: runs.length,
        runs: shown.map(({ checks: _, trials: __, ...head }) => head),
        series: metricMeans(shown),
      };
    },
    run: async (id) => runs.find((run) => run.id === id),
    latest: async (filter = {}) => {
      for (let i = runs.length - 1; i >= 0; i--) if (passes(runs[i]!, i, filter)) return runs[i];
      return undefined;
    },
    count: async (filter = {}) => runs.filter((run, i) => passes(run, i, filter)).length,
    close: async () => undefined,
  };
}
