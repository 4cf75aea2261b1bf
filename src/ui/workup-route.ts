import { readdirSync, realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isUserError } from '../errors/index.js';
import { historyOrder } from '../history/entry.js';
import { CHECK_COLUMNS, type CheckRow, trendCheck } from '../history/store/rows.js';
import type { SqlClient } from '../history/store/sql.js';
import { relativeInside } from '../io/display-path.js';
import type { Workup } from '../model/workup.js';
import { isWorkupLine, loadWorkup } from '../workup/load.js';
import type { WorkupAnswer } from './client/types.js';
import { type WorkupCheckInput, workupAnswer } from './workup-data.js';

/** An answer of the API: its status and its JSON body. */
export interface RouteAnswer {
  status: number;
  body: unknown;
}

/**
 * `GET /api/runs/<run>/workups/<workup>[?file=<n>]`: one workup of a run, read from the file its stored checks name.
 * What is read comes from the store only: the run's recorded project root and the `workup_path` of its checks of that
 * workup; the request only picks among them (the run, the workup id, and which of its files by number). A path outside
 * the root (`../../etc/passwd`, an absolute path elsewhere, a link leading out) is never read; a workup no check of
 * the run names is a 404. A file that is gone, changed since the run or unreadable is said in the answer, not an error.
 */
export async function workupRoute(
  db: SqlClient,
  runId: string,
  workupId: string,
  file: string | null,
): Promise<RouteAnswer> {
  const [run] = await db.query<{ seq: number; root: string | null; time_text: string }>(
    'SELECT seq::integer AS seq, root, time_text FROM needlework_runs WHERE id = $1',
    [runId],
  );
  if (!run) return { status: 404, body: { error: `no run ${runId}` } };
  const rows = await db.query<CheckRow>(
    `SELECT ${CHECK_COLUMNS}, workup_path, evidence FROM needlework_checks WHERE run = $1 AND workup = $2 ORDER BY ord`,
    [run.seq, workupId],
  );
  if (rows.length === 0)
    return { status: 404, body: { error: `no check of run ${runId} names the workup ${workupId}` } };
  const files = [...new Set(rows.flatMap((r) => (r.workup_path == null ? [] : [r.workup_path])))].sort();
  const pick = file === null ? 1 : Number(file);
  if (files.length > 0 && !(Number.isInteger(pick) && pick >= 1 && pick <= files.length))
    return {
      status: 404,
      body: { error: `the workup ${workupId} of run ${runId} has ${files.length} file(s)` },
    };
  const path = files[pick - 1];
  // In the history's order, as the run's view lists them (a run appended while its tests ran is stored as they ended).
  const checks: WorkupCheckInput[] = rows
    .filter((r) => r.workup_path === (path ?? null))
    .map(trendCheck)
    .sort(historyOrder);
  const source = { run: runId, workup: workupId, ...(files.length > 0 && { files }) };
  if (path === undefined)
    return answer(undefined, checks, {
      ...source,
      problem: {
        kind: 'no-file',
        message: `the workup ${workupId} has no file: its test built it in memory (or the run was stored before runs kept their workups' paths)`,
      },
    });
  const read = await readWorkupFile(run.root, path, run.time_text, workupId);
  return answer(read.workup, checks, {
    ...source,
    path,
    ...(read.problem && { problem: read.problem }),
  });
}

function answer(
  workup: Workup | undefined,
  checks: WorkupCheckInput[],
  source: Parameters<typeof workupAnswer>[2],
): RouteAnswer {
  return { status: 200, body: workupAnswer(workup, checks, source) };
}

/**
 * The workup at `path` (as a check names it) under the run's `root`, with the loader every other reader uses, or why
 * not. Only a path inside the root, once links are followed, is read.
 */
async function readWorkupFile(
  root: string | null,
  path: string,
  runTime: string,
  workupId: string,
): Promise<{ workup?: Workup; problem?: WorkupAnswer['problem'] }> {
  if (root === null)
    return {
      problem: {
        kind: 'no-file',
        message: `the run did not record its project root, so the workup file ${path} cannot be found`,
      },
    };
  // A line of a *.workups.jsonl file is named `file:line`: the file is what must lie inside the root.
  const onDisk = isWorkupLine(path) ? path.slice(0, path.lastIndexOf(':')) : path;
  const full = resolve(root, onDisk);
  const outside = {
    problem: {
      kind: 'outside' as const,
      message: `the workup path ${path} lies outside the run's project root ${root}: it is not read`,
    },
  };
  if (relativeInside(root, full) === undefined) return outside;
  let real: string;
  let realRoot: string;
  try {
    real = realpathSync(full);
    realRoot = realpathSync(root);
  } catch {
    return { problem: { kind: 'gone', message: `the workup file ${path} is no longer there` } };
  }
  if (relativeInside(realRoot, real) === undefined) return outside;
  let workup: Workup;
  try {
    workup = await loadWorkup(isWorkupLine(path) ? `${real}${path.slice(path.lastIndexOf(':'))}` : real);
  } catch (error) {
    const message = isUserError(error) ? error.message : String((error as Error)?.message ?? error);
    return {
      problem: { kind: 'unreadable', message: `the workup file ${path} cannot be read: ${message}` },
    };
  }
  if (workup.id !== workupId)
    return {
      workup,
      problem: {
        kind: 'changed',
        message: `the workup file ${path} now holds the workup ${workup.id}, not ${workupId}: it changed since the run`,
      },
    };
  const changed = changedSince(real, Date.parse(runTime));
  if (changed !== undefined)
    return {
      workup,
      problem: {
        kind: 'changed',
        message: `the workup file ${path} changed after the run (${changed}): what is shown may differ from what the run checked`,
      },
    };
  return { workup };
}

/** When the file (or a file of the folder) was last written, if after `since` (ms since the epoch). */
function changedSince(path: string, since: number): string | undefined {
  if (Number.isNaN(since)) return undefined;
  try {
    const info = statSync(path);
    const times = info.isDirectory()
      ? readdirSync(path, { withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => statSync(join(path, entry.name)).mtimeMs)
      : [info.mtimeMs];
    const latest = Math.max(...times, 0);
    return latest > since ? `written ${new Date(latest).toISOString()}` : undefined;
  } catch {
    return undefined;
  }
}
