import { stat } from 'node:fs/promises';
import { UsageError, UserError } from '../../errors/index.js';
import { checkRegressions, formatRegression, type RegressionCheckOptions } from '../../report/trend/gate.js';
import { readHistory } from '../../report/trend/history.js';
import { renderTrendTable } from '../../report/trend/table.js';
import { colors, type Io } from '../io.js';

export interface TrendOptions {
  /** The history file. */
  file: string;
  /** How many recent runs to show (default 10). */
  last?: number;
  /** A history whose latest run is the baseline; without it, the run before the latest. */
  baseline?: string;
  /** Return 1 when a metric regressed past its tolerance. */
  failOnRegression?: boolean;
  /** Absolute tolerance for [0, 1] scores (default 0.02). */
  tolerance?: number;
  /** Relative tolerance for metrics with a unit (default 0.1). */
  relativeTolerance?: number;
}

/**
 * Prints the trend table of a history and, with `--baseline` or `--fail-on-regression`, the regressions of its
 * latest run. Returns 1 when asked to fail on a regression and there is one, else 0.
 */
export async function runTrend(options: TrendOptions, io: Io): Promise<number> {
  const c = colors(io);
  for (const [name, value] of [
    ['--last', options.last],
    ['--tolerance', options.tolerance],
    ['--relative-tolerance', options.relativeTolerance],
  ] as const) {
    if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value < 0))
      throw new UsageError(`${name} expects a non-negative number, got ${String(value)}`);
  }
  if (!(await stat(options.file).catch(() => undefined)))
    throw new UserError({
      file: options.file,
      message: 'no such trend history (run the tests with the trend reporter first)',
    });
  const history = await readHistory(options.file);
  io.out(renderTrendTable(history, { last: options.last ?? 10, colors: c }));
  if (!options.baseline && !options.failOnRegression) return 0;

  io.out('');
  return runRegressionGate(
    {
      history: options.file,
      ...(options.baseline ? { baseline: options.baseline } : {}),
      failOnRegression: options.failOnRegression === true,
      ...(options.tolerance !== undefined ? { tolerance: options.tolerance } : {}),
      ...(options.relativeTolerance !== undefined ? { relativeTolerance: options.relativeTolerance } : {}),
    },
    io,
  );
}

export interface RegressionGateOptions extends RegressionCheckOptions {
  /** Return 1 when there is a regression (otherwise the regressions are only printed). */
  failOnRegression: boolean;
}

/**
 * Prints the regressions of a history's latest run against its baseline and returns the exit code: 1 when asked to
 * fail on a regression and there is one, else 0. `needlework trend` calls it after its table; `needlework run
 * --baseline/--fail-on-regression` calls it after the run has appended its entry.
 */
export async function runRegressionGate(options: RegressionGateOptions, io: Io): Promise<number> {
  const c = colors(io);
  const { failOnRegression, ...check } = options;
  const report = await checkRegressions(check);
  if (!report.baseline || !report.current) {
    io.out(c.dim('No baseline run to compare with yet.'));
    return 0;
  }
  const against = `run ${report.baseline.id}${report.baseline.commit ? ` (${report.baseline.commit.slice(0, 7)})` : ''}`;
  if (report.regressions.length === 0) {
    io.out(c.green(`No regressions against ${against}.`));
    return 0;
  }
  const stream = failOnRegression ? io.err : io.out;
  stream(
    c.red(
      `${report.regressions.length} regression${report.regressions.length === 1 ? '' : 's'} against ${against}:`,
    ),
  );
  for (const regression of report.regressions) stream(`  ${c.red('✗')} ${formatRegression(regression)}`);
  return failOnRegression ? 1 : 0;
}
