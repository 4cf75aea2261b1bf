import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { historyOrder, summarize, trendTrials } from '../../src/history/entry.js';
import { readHistory, serializeHistory } from '../../src/history/history.js';
import type { TrendCheck, TrendRun } from '../../src/history/types.js';

/** A trend check with defaults: a [0, 1] recall of 0.9 that passes. */
export function trendCheck(overrides: Partial<TrendCheck> = {}): TrendCheck {
  return {
    spec: 'compound-alpha',
    workup: 'grounded',
    criterion: 'surfaced',
    metric: 'recall',
    value: 0.9,
    threshold: 0.8,
    comparator: '>=',
    verdict: 'pass',
    state: 'passed',
    ...overrides,
  };
}

/** A run holding the checks (in the history's order, as `buildTrendRun` puts them), at minute `minute` of a fixed day. */
export function trendRun(minute: number, given: TrendCheck[], extra: Partial<TrendRun> = {}): TrendRun {
  const checks = [...given].sort(historyOrder);
  const time = new Date(Date.UTC(2026, 10, 22, 3, minute)).toISOString();
  const stamp = time.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return {
    id: `${stamp}-${minute.toString(16).padStart(8, '0')}`,
    time,
    scope: { kind: 'full' },
    summary: summarize(checks),
    checks,
    trials: trendTrials(checks),
    ...extra,
  };
}

/**
 * Adds a run to a trend.json export (created when missing), in time order, as `needlework trend export` lays it out:
 * how the tests make a history file to read.
 */
export async function addToHistoryFile(file: string, run: TrendRun): Promise<void> {
  const history = await readHistory(file);
  history.runs.push(run);
  history.runs.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, serializeHistory(history));
}
