import { stat } from 'node:fs/promises';
import { UsageError, UserError } from '../../errors/index.js';
import {
  casesToName,
  checkRegressions,
  describeBaseline,
  formatCaseChanges,
  formatCaseDrop,
  formatComparison,
  formatRegression,
  hasRegression,
  type RegressionCheckOptions,
} from '../../report/trend/gate.js';
import { DEFAULT_TREND_FILE, LEGACY_TREND_FILE, readHistory } from '../../report/trend/history.js';
import { describeScope } from '../../report/trend/scope.js';
import type { ChangeStatus } from '../../report/trend/significance.js';
import { renderTrendTable } from '../../report/trend/table.js';
import { colors, type Io } from '../io.js';

export interface TrendOptions extends GateFlags {
  /** The history file. @default 'needlework-report/trend.json' (or `needlework-trend.json` when only that exists) */
  file?: string;
  /** How many recent runs to show (default 10). */
  last?: number;
  /** A history whose latest run is the baseline; without it, the run before the latest. */
  baseline?: string;
  /** Return 1 when a criterion regressed. */
  failOnRegression?: boolean;
}

/**
 * Prints the trend table of a history and, with `--baseline` or `--fail-on-regression`, the regressions of its
 * latest run. Returns 1 when asked to fail on a regression and there is one, else 0.
 */
export async function runTrend(options: TrendOptions, io: Io): Promise<number> {
  const c = colors(io);
  if (
    options.last !== undefined &&
    (typeof options.last !== 'number' || !Number.isFinite(options.last) || options.last < 0)
  )
    throw new UsageError(`--last expects a non-negative number, got ${String(options.last)}`);
  const gate = gateSettings(options);
  const exists = async (path: string) => (await stat(path).catch(() => undefined)) !== undefined;
  let file = options.file ?? DEFAULT_TREND_FILE;
  if (options.file === undefined && !(await exists(file)) && (await exists(LEGACY_TREND_FILE))) {
    io.out(c.dim(`Reading ${LEGACY_TREND_FILE} (the old default; new runs write ${DEFAULT_TREND_FILE}).`));
    file = LEGACY_TREND_FILE;
  }
  if (!(await exists(file)))
    throw new UserError({
      file,
      message: 'no such trend history (run the tests with the trend reporter first)',
    });
  const history = await readHistory(file);
  io.out(renderTrendTable(history, { last: options.last ?? 10, colors: c }));
  if (!options.baseline && !options.failOnRegression) return 0;

  io.out('');
  return runRegressionGate(
    {
      history: file,
      ...(options.baseline ? { baseline: options.baseline } : {}),
      failOnRegression: options.failOnRegression === true,
      ...gate,
    },
    io,
  );
}

/** The gate options of `needlework trend` and `needlework run`, as given on the command line. */
export interface GateFlags {
  /** `--level`: the significance level. */
  level?: number;
  /** `--tolerance`: gate on a fixed absolute tolerance instead. */
  tolerance?: number;
  /** `--relative-tolerance`: gate on a fixed relative tolerance instead. */
  relativeTolerance?: number;
}

/**
 * The gate's method and settings from its flags: a fixed tolerance when either tolerance is given, else significance
 * at `--level`. A malformed or contradictory flag is a `UsageError` naming it.
 */
export function gateSettings(
  flags: GateFlags,
): Pick<RegressionCheckOptions, 'method' | 'level' | 'tolerance' | 'relativeTolerance'> {
  for (const [name, value] of [
    ['--tolerance', flags.tolerance],
    ['--relative-tolerance', flags.relativeTolerance],
  ] as const) {
    if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value < 0))
      throw new UsageError(`${name} expects a non-negative number, got ${String(value)}`);
  }
  const tolerance = flags.tolerance !== undefined || flags.relativeTolerance !== undefined;
  if (flags.level !== undefined) {
    if (tolerance)
      throw new UsageError('--level (significance) and --tolerance (fixed tolerance) exclude each other');
    if (!(typeof flags.level === 'number' && flags.level > 0 && flags.level < 0.5))
      throw new UsageError(
        `--level expects a probability between 0 and 0.5, like 0.05; got ${String(flags.level)}`,
      );
  }
  return {
    method: tolerance ? 'tolerance' : 'significance',
    ...(flags.level !== undefined && { level: flags.level }),
    ...(flags.tolerance !== undefined && { tolerance: flags.tolerance }),
    ...(flags.relativeTolerance !== undefined && { relativeTolerance: flags.relativeTolerance }),
  };
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
    const scope = report.current ? describeScope(report.current.scope) : 'full';
    io.out(
      c.dim(
        report.otherScopes > 0
          ? `No baseline run of the same scope (${scope}) to compare with yet: ${report.otherScopes} earlier run${report.otherScopes === 1 ? ' is' : 's are'} of another scope.`
          : 'No baseline run to compare with yet.',
      ),
    );
    return 0;
  }
  const against = describeBaseline(report.baseline);
  const failing = hasRegression(report);
  const stream = failOnRegression && failing ? io.err : io.out;
  if (report.method === 'tolerance') {
    if (!failing) {
      io.out(c.green(`No regressions against ${against}.`));
      return 0;
    }
    const n = report.regressions.length;
    stream(c.red(`${n} regression${n === 1 ? '' : 's'} against ${against}:`));
    for (const regression of report.regressions) stream(`  ${c.red('✗')} ${formatRegression(regression)}`);
    return failOnRegression ? 1 : 0;
  }
  const counts: Record<ChangeStatus, number> = { regressed: 0, improved: 0, flaky: 0, 'no-change': 0 };
  for (const comparison of report.comparisons) counts[comparison.status]++;
  const level = options.level ?? 0.05;
  stream(
    (failing ? c.red : c.green)(
      `Against ${against} (significance level ${level}): ${counts.regressed} regressed, ${counts.improved} improved, ${counts.flaky} flaky, ${counts['no-change']} no change detectable.`,
    ),
  );
  const marks: Record<ChangeStatus, string> = {
    regressed: c.red('✗'),
    improved: c.green('↑'),
    flaky: c.red('~'),
    'no-change': c.dim('·'),
  };
  const apart = formatCaseChanges(report.cases.added, report.cases.removed);
  if (apart) stream(`  ${apart}`);
  for (const comparison of report.comparisons) {
    stream(`  ${marks[comparison.status]} ${formatComparison(comparison)}`);
    for (const drop of casesToName(comparison)) stream(`      ${c.red('↓')} ${formatCaseDrop(drop)}`);
  }
  return failOnRegression && failing ? 1 : 0;
}
