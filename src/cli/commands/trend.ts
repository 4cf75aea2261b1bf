import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
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
} from '../../history/gate.js';
import { DEFAULT_TREND_FILE, LEGACY_TREND_FILE } from '../../history/history.js';
import { describeScope } from '../../history/scope.js';
import type { ChangeStatus } from '../../history/significance.js';
import { isEmbeddedStore } from '../../history/store/embedded.js';
import { isServerUrl, openSource, openStore, resolveStore, storeName } from '../../history/store/open.js';
import type { RunSource } from '../../history/store/source.js';
import { statusCounts } from '../../report/run-history.js';
import { renderTrendOverview } from '../../report/trend-table.js';
import { colors, type Io } from '../io.js';

export interface TrendOptions extends GateFlags {
  /** What to read: a store (folder or postgres:// URL) or a trend.json export. @default the store (`--store`) */
  file?: string;
  /** The store (`--store`); else `NEEDLEWORK_STORE`, else `.needlework/store`. */
  store?: string;
  /** How many recent runs to show (default 10). */
  last?: number;
  /** A store or trend.json whose latest run of the same scope is the baseline. */
  baseline?: string;
  /** Return 1 when a criterion regressed. */
  failOnRegression?: boolean;
  /** The project folder. @default process.cwd() */
  root?: string;
}

/**
 * Prints the trend table of the results store (or of a trend.json export) and, with `--baseline` or
 * `--fail-on-regression`, the regressions of its latest run. The first use of a new store imports
 * needlework-report/trend.json (the history before the store), and says so. Returns 1 when asked to fail on a
 * regression and there is one, else 0.
 */
export async function runTrend(options: TrendOptions, io: Io): Promise<number> {
  const c = colors(io);
  if (
    options.last !== undefined &&
    (typeof options.last !== 'number' || !Number.isFinite(options.last) || options.last < 0)
  )
    throw new UsageError(`--last expects a non-negative number, got ${String(options.last)}`);
  const gate = gateSettings(options);
  const root = options.root ?? process.cwd();
  const location = options.file ?? resolveStore(options.store, root);
  const source = options.file
    ? await openSource(options.file, root)
    : await openTrendStore(location, root, io);
  try {
    io.out(renderTrendOverview(await source.overview(options.last ?? 10), { colors: c }));
  } finally {
    await source.close();
  }
  if (!options.baseline && !options.failOnRegression) return 0;

  io.out('');
  return runRegressionGate(
    {
      history: location,
      root,
      ...(options.baseline ? { baseline: options.baseline } : {}),
      failOnRegression: options.failOnRegression === true,
      ...gate,
    },
    io,
  );
}

/**
 * The store `needlework trend` reads when given no source, opened once. A store not created yet is created only to
 * import the trend.json a needlework before the store wrote (and says so); with neither, there is nothing to show.
 */
async function openTrendStore(location: string, root: string, io: Io): Promise<RunSource> {
  const legacy = legacyHistories(root);
  if (!isServerUrl(location) && !(await isEmbeddedStore(location))) {
    const present = await Promise.all(
      legacy.map((file) =>
        stat(file).then(
          () => true,
          () => false,
        ),
      ),
    );
    if (!present.includes(true))
      throw new UserError({
        file: storeName(location),
        message: 'no such results store (run the tests with the trend reporter first)',
      });
  }
  return openStore(location, { importOnCreate: legacy, note: io.out });
}

/** The trend.json files a needlework before the results store wrote, imported when the store is created. */
export function legacyHistories(root: string, outDir?: string): string[] {
  return [
    ...(outDir ? [resolve(root, outDir, 'trend.json')] : []),
    resolve(root, DEFAULT_TREND_FILE),
    resolve(root, LEGACY_TREND_FILE),
  ];
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
          : report.branch !== undefined
            ? `No baseline run on ${report.branch} to compare with yet.`
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
  const level = options.level ?? 0.05;
  stream(
    (failing ? c.red : c.green)(
      `Against ${against} (significance level ${level}): ${statusCounts(report.comparisons)}`,
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
