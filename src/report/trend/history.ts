import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { UserError } from '../../errors/index.js';
import { type LockOptions, withLock } from './lock.js';
import type { TrendHistory, TrendRun } from './types.js';

/** How many runs a history keeps when not told otherwise. */
export const DEFAULT_MAX_RUNS = 50;

/**
 * Reads a trend history. A missing file is an empty history; a file that is not one is the user's mistake (a wrong
 * path, a hand edit) and is reported, never overwritten.
 */
export async function readHistory(path: string): Promise<TrendHistory> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { schema: 1, runs: [] };
    throw error;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UserError({
      file: path,
      message: `not a needlework trend history: ${(error as Error).message}`,
    });
  }
  if (
    typeof data !== 'object' ||
    data === null ||
    (data as { schema?: unknown }).schema !== 1 ||
    !Array.isArray((data as { runs?: unknown }).runs)
  ) {
    throw new UserError({
      file: path,
      message: 'not a needlework trend history: expected an object with "schema": 1 and a "runs" array',
    });
  }
  return data as TrendHistory;
}

export interface AppendOptions extends LockOptions {
  /**
   * Keep only this many runs, dropping the oldest.
   * @default 50
   */
  maxRuns?: number;
}

/**
 * Appends a run to the history under a lock, and replaces the file atomically (a temporary file in the same folder,
 * flushed to disk, then renamed over it): concurrent runs and shards each add their run, and a run that crashes
 * mid-write leaves the previous history intact. Returns the history as written.
 */
export async function appendRun(
  path: string,
  run: TrendRun,
  options: AppendOptions = {},
): Promise<TrendHistory> {
  const maxRuns = options.maxRuns ?? DEFAULT_MAX_RUNS;
  if (!Number.isInteger(maxRuns) || maxRuns < 1)
    throw new UserError({ file: path, message: `maxRuns must be a positive integer, got ${maxRuns}` });
  await mkdir(dirname(path), { recursive: true });
  return withLock(
    `${path}.lock`,
    async () => {
      const history = await readHistory(path);
      history.runs.push(run);
      history.runs.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
      if (history.runs.length > maxRuns) history.runs.splice(0, history.runs.length - maxRuns);
      await writeAtomically(path, `${JSON.stringify(history, null, 2)}\n`);
      return history;
    },
    options,
  );
}

/** Writes a file so that readers see either the old content or the new, never a part. */
export async function writeAtomically(path: string, text: string): Promise<void> {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}
