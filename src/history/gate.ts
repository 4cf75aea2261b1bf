import { UserError } from '../errors/index.js';
import { type CompareOptions, compare, type RunComparison } from './compare.js';
import { scopeKey } from './scope.js';
import { openSource } from './store/open.js';
import type { RunFilter, RunSource } from './store/source.js';
import type { TrendRun } from './types.js';

/** What picks a run's baseline: its scope, branch and base branch, and its id once it is stored. */
export type BaselineQuery = Pick<TrendRun, 'scope' | 'branch' | 'baseBranch'> & { id?: string };

/**
 * The baseline of a run in `source`: the latest run of the same scope (full with full, a partial run only with a
 * partial run of the same filters) on the pull request's base branch when the run names one (the latest full run of
 * main for a pull request into main), else the latest earlier one on the run's own branch (main's previous run for a
 * run on main), else the latest earlier one. "Earlier" is before the stored run (`run.id`), or, for a run not stored
 * yet, ended before `startedAt` (an ISO time: a run that ended while this one ran is not its baseline). Also counts
 * the runs passed over for their scope. Every output of a run and `needlework trend` pick the baseline here, alike.
 */
export async function findBaseline(
  source: RunSource,
  run: BaselineQuery,
  startedAt?: string,
): Promise<{ run?: TrendRun; skipped: number; branch?: string }> {
  const { where, scopeKey: key, branch } = baselineFilter(run, startedAt);
  const found = await source.latest({ ...where, scopeKey: key });
  const skipped = await source.count({ ...where, notScopeKey: key, ...(found && { after: found }) });
  return { ...(found && { run: found }), skipped, ...(branch !== undefined && { branch }) };
}

/**
 * Where `findBaseline` looks for a run's baseline: the runs of `where` (the base branch, or earlier runs of the run's
 * own branch) of scope `scopeKey`, the latest of which is the baseline; and the branch it looks on.
 */
export function baselineFilter(
  run: BaselineQuery,
  startedAt?: string,
): { where: RunFilter; scopeKey: string; branch?: string } {
  const branch = run.baseBranch ?? run.branch;
  const earlier: RunFilter =
    startedAt !== undefined || run.id === undefined
      ? {
          ...(startedAt !== undefined && { endedBefore: startedAt }),
          ...(run.id !== undefined && { excludeId: run.id }),
        }
      : { before: run as TrendRun };
  const where: RunFilter = run.baseBranch
    ? { branch: run.baseBranch, ...(run.id !== undefined && { excludeId: run.id }) }
    : { ...earlier, ...(branch !== undefined && { branch }) };
  return { where, scopeKey: scopeKey(run.scope), ...(branch !== undefined && { branch }) };
}

/** The latest run of `location` (another store or trend.json, named by `--baseline`) of the same scope as `run`. */
export async function baselineFrom(
  location: string,
  root: string,
  run: BaselineQuery,
  open: SourceOpener = openSource,
): Promise<{ run?: TrendRun; skipped: number }> {
  const other = await open(location, root);
  try {
    if ((await other.count()) === 0)
      throw new UserError({ file: location, message: 'the baseline history holds no runs' });
    const key = scopeKey(run.scope);
    const found = await other.latest({ scopeKey: key, ...(run.id !== undefined && { excludeId: run.id }) });
    const skipped = await other.count({ notScopeKey: key, ...(found && { after: found }) });
    return { ...(found && { run: found }), skipped };
  } finally {
    await other.close();
  }
}

export interface ComparisonOptions extends CompareOptions {
  /** Where the compared run is: a store (folder or server URL) or a trend.json export. */
  history: string;
  /** The run compared, by id; without it, the latest run of `history`. */
  current?: string;
  /** A store or trend.json whose latest run of the same scope is the baseline (see `baselineFrom`). */
  baseline?: string;
  /** The folder relative paths are resolved against. @default process.cwd() */
  root?: string;
  /** Opens `history` and `baseline`. @default openSource */
  open?: SourceOpener;
}

/** What opens a store or trend.json to read runs from (`openSource`, or a command's opener that shares the store). */
export type SourceOpener = (location: string, root: string) => Promise<RunSource>;

export interface ComparedRuns {
  /** The run compared: the latest of the history, or the one named; absent when the history is empty. */
  current?: TrendRun;
  /** The run compared with; absent when there is none of the same scope (a first run never regresses). */
  baseline?: TrendRun;
  /** The comparison, when there is a baseline. */
  comparison?: RunComparison;
  /** How many earlier runs were passed over as a baseline because their scope differs from the current run's. */
  otherScopes: number;
  /** The branch the baseline was looked for on, when it was looked for on one. */
  branch?: string;
}

/**
 * Compares a stored run (the latest of a store or trend.json, or the one named by id) with its baseline: what
 * `needlework trend` shows and gates on, the same comparison a run's own outputs render.
 */
export async function compareStored(options: ComparisonOptions): Promise<ComparedRuns> {
  const root = options.root ?? process.cwd();
  const open = options.open ?? openSource;
  const source = await open(options.history, root);
  let current: TrendRun | undefined;
  let found: { run?: TrendRun; skipped: number; branch?: string };
  try {
    current = options.current ? await source.run(options.current) : await source.latest();
    if (!current) return { otherScopes: 0 };
    found = options.baseline
      ? await baselineFrom(options.baseline, root, current, open)
      : await findBaseline(source, current);
  } finally {
    await source.close();
  }
  const result: ComparedRuns = { current, otherScopes: found.skipped };
  if (found.branch !== undefined) result.branch = found.branch;
  if (found.run) {
    result.baseline = found.run;
    result.comparison = compare(current, found.run, options);
  }
  return result;
}
