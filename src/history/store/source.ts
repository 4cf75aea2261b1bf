import type { MetricSeries } from '../means.js';
import type { TrendRun } from '../types.js';
import type { RunHead } from './rows.js';

/** Which runs a query means. Runs are ordered by their end time, then by the order they were added. */
export interface RunFilter {
  /** Only runs of this scope (`scopeKey`). */
  scopeKey?: string;
  /** Only runs not of this scope. */
  notScopeKey?: string;
  /** Only runs of this branch. */
  branch?: string;
  /** Only runs before this one. */
  before?: TrendRun;
  /** Only runs after this one. */
  after?: TrendRun;
  /** Only runs that ended before this time (ISO 8601). */
  endedBefore?: string;
  /** Never this run (by id). */
  excludeId?: string;
}

/** What the trend table and the HTML charts show: the last runs (oldest first) and each metric's means across them. */
export interface TrendOverview {
  /** How many runs the source holds in all. */
  total: number;
  runs: RunHead[];
  series: MetricSeries[];
}

/** Where runs are read from: the results store, or a trend.json export. */
export interface RunSource {
  /** The store's folder or redacted URL, or the file's path, for messages. */
  readonly name: string;
  overview(last: number): Promise<TrendOverview>;
  /** The run with this id, with its checks. */
  run(id: string): Promise<TrendRun | undefined>;
  /** The latest run that passes the filter, with its checks. */
  latest(filter?: RunFilter): Promise<TrendRun | undefined>;
  /** How many runs pass the filter. */
  count(filter?: RunFilter): Promise<number>;
  close(): Promise<void>;
}
