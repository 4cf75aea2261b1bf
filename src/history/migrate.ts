import { trendTrials } from './entry.js';
import type { TrendCheck, TrendHistory, TrendRun } from './types.js';

/** A run as version 1 of the format wrote it: no scope, no trials, no task on its checks. */
type RunV1 = Omit<TrendRun, 'scope' | 'trials'>;

/**
 * A version 1 history as version 2. Version 1 recorded no scope, and every run it recorded was appended as if full, so
 * its runs are taken as full runs; its checks name no task, so each workup is its own task of one trial, and the
 * trials are counted from the checks. The file itself is rewritten as version 2 on the next append.
 */
export function migrateHistory(history: { schema: 1; runs: RunV1[] }): TrendHistory {
  return {
    schema: 2,
    runs: history.runs.map((run) => ({
      ...run,
      scope: { kind: 'full' },
      trials: trendTrials(run.checks as TrendCheck[]),
    })),
  };
}
