import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError, UserError } from '../../errors/index.js';
import { type CompareOptions, hasRegressed } from '../../history/compare.js';
import { type ComparisonOptions, compareStored } from '../../history/gate.js';
import { DEFAULT_TREND_FILE, LEGACY_TREND_FILE } from '../../history/history.js';
import { describeScope } from '../../history/scope.js';
import { isEmbeddedStore } from '../../history/store/embedded.js';
import { isServerUrl, openStore, resolveStore, storeName } from '../../history/store/open.js';
import type { RunSource } from '../../history/store/source.js';
import { gateStory, gateText } from '../../report/gate-text.js';
import { renderTrendOverview } from '../../report/trend-table.js';
import { openSharedSource } from '../../ui/door/client.js';
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
 * Prints the trend table of the results store (or of a trend.json export) and the gate of its latest run against its
 * baseline (`--baseline` names another store or trend.json to compare with). The first use of a new store imports
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
    ? await openSharedSource(options.file, root)
    : await openTrendStore(location, root, io);
  try {
    io.out(renderTrendOverview(await source.overview(options.last ?? 10), { colors: c }));
  } finally {
    await source.close();
  }
  io.out('');
  return runRegressionGate(
    {
      history: location,
      root,
      ...(options.baseline ? { baseline: options.baseline } : {}),
      failOnRegression: options.failOnRegression === true,
      open: openSharedSource,
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
  // An embedded store a UI holds is read through its door; a new one is created here, importing what it finds.
  if (!isServerUrl(location) && (await isEmbeddedStore(location))) return openSharedSource(location, root);
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
 * The gate's settings from its flags: the significance `--level` of the exact test, and the tolerances (given, a
 * value that moved the wrong way past one is a regression too). A malformed flag is a `UsageError` naming it.
 */
export function gateSettings(flags: GateFlags): CompareOptions {
  for (const [name, value] of [
    ['--tolerance', flags.tolerance],
    ['--relative-tolerance', flags.relativeTolerance],
  ] as const) {
    if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value < 0))
      throw new UsageError(`${name} expects a non-negative number, got ${String(value)}`);
  }
  if (flags.level !== undefined && !(typeof flags.level === 'number' && flags.level > 0 && flags.level < 0.5))
    throw new UsageError(
      `--level expects a probability between 0 and 0.5, like 0.05; got ${String(flags.level)}`,
    );
  return {
    ...(flags.level !== undefined && { level: flags.level }),
    ...(flags.tolerance !== undefined && { tolerance: flags.tolerance }),
    ...(flags.relativeTolerance !== undefined && { relativeTolerance: flags.relativeTolerance }),
  };
}

export interface RegressionGateOptions extends ComparisonOptions {
  /** Return 1 when something regressed (otherwise the comparison is only printed). */
  failOnRegression: boolean;
}

/**
 * Prints the comparison of a history's latest run (or the run named) with its baseline, in the words every output
 * uses (`gateStory`: one line when nothing changed), and returns the exit code: 1 when asked to fail on a regression
 * and something regressed, else 0.
 */
export async function runRegressionGate(options: RegressionGateOptions, io: Io): Promise<number> {
  const c = colors(io);
  const { failOnRegression, ...compared } = options;
  const result = await compareStored(compared);
  if (!result.comparison || !result.current) {
    const scope = result.current ? describeScope(result.current.scope) : 'full';
    io.out(
      c.dim(
        result.otherScopes > 0
          ? `No baseline run of the same scope (${scope}) to compare with yet: ${result.otherScopes} earlier run${result.otherScopes === 1 ? ' is' : 's are'} of another scope.`
          : result.branch !== undefined
            ? `No baseline run on ${result.branch} to compare with yet.`
            : 'No baseline run to compare with yet.',
      ),
    );
    return 0;
  }
  const failing = hasRegressed(result.comparison);
  const stream = failOnRegression && failing ? io.err : io.out;
  const [headline = '', ...rest] = gateStory(gateText(result.comparison));
  stream((failing ? c.red : c.green)(headline));
  for (const line of rest) stream(line);
  return failOnRegression && failing ? 1 : 0;
}
