import { readFile } from 'node:fs/promises';
import { UserError } from '../errors/index.js';
import { parseHistory } from './check-history.js';
import type { TrendHistory, TrendRun } from './types.js';

/**
 * Where the trend history lives unless told otherwise, for every writer and reader: the trend reporter, the HTML
 * reporter's chart, `needlework run` (its reports folder) and `needlework trend`.
 */
export const DEFAULT_TREND_FILE = 'needlework-report/trend.json';
/** Where needlework 0.1's trend reporter wrote by default; `needlework trend` still reads it when the default is absent. */
export const LEGACY_TREND_FILE = 'needlework-trend.json';

/**
 * Reads a trend history. A missing file is an empty history; a file that is not one, or breaks its schema anywhere, is
 * the user's mistake (a wrong path, a hand edit) and is reported with each problem's line and column (see
 * `parseHistory`), never overwritten. A version 1 history is migrated in memory (see `migrateHistory`).
 */
export async function readHistory(path: string): Promise<TrendHistory> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { schema: 2, runs: [] };
    throw new UserError({
      file: path,
      message: code === 'EISDIR' ? 'expected a trend history file, found a folder' : `cannot read: ${code}`,
    });
  }
  return parseHistory(text, path);
}

const HEAD = '{"schema":2,"runs":[';
const TAIL = ']}';

/** The history file's bytes: its head, one run per line, its tail. */
function joinRunBytes(lines: readonly Buffer[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`${HEAD}\n`)];
  const separator = Buffer.from(',\n');
  lines.forEach((line, i) => {
    if (i > 0) parts.push(separator);
    parts.push(line);
  });
  parts.push(Buffer.from(`\n${TAIL}\n`));
  return Buffer.concat(parts);
}

/**
 * The history as JSON with one run per line: compact enough for 50 runs of 10,000 checks, and a new run shows in a
 * diff as one added line.
 */
export function serializeHistory(history: TrendHistory): Buffer {
  return joinRunBytes(history.runs.map(runBytes));
}

/**
 * Writes runs as a history file in `serializeHistory`'s layout, one run at a time (a store of 1,000 runs of 10,000
 * checks is never held whole), to `write`; returns how many runs were written.
 */
export async function streamHistory(
  runs: AsyncIterable<TrendRun>,
  write: (bytes: Uint8Array) => Promise<void> | void,
): Promise<number> {
  let n = 0;
  await write(Buffer.from(`${HEAD}\n`));
  for await (const run of runs) {
    if (n++ > 0) await write(Buffer.from(',\n'));
    await write(runBytes(run));
  }
  await write(Buffer.from(`\n${TAIL}\n`));
  return n;
}

/** One run's line. */
function runBytes(run: TrendRun): Buffer {
  return Buffer.from(JSON.stringify(orderRun(run)));
}

/** A run with `id` and `time` first, as the line reader expects, whatever order its object had. */
function orderRun(run: TrendRun): TrendRun {
  const { id, time, ...rest } = run;
  return { id, time, ...rest };
}
