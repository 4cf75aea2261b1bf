import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { UserError } from '../errors/index.js';
import { writeFileAtomic } from '../io/atomic.js';
import { parseHistory } from './check-history.js';
import { type LockOptions, withLock } from './lock.js';
import type { TrendHistory, TrendRun } from './types.js';

/**
 * Where the trend history lives unless told otherwise, for every writer and reader: the trend reporter, the HTML
 * reporter's chart, `needlework run` (its reports folder) and `needlework trend`.
 */
export const DEFAULT_TREND_FILE = 'needlework-report/trend.json';
/** Where needlework 0.1's trend reporter wrote by default; `needlework trend` still reads it when the default is absent. */
export const LEGACY_TREND_FILE = 'needlework-trend.json';

/** How many runs a history keeps when not told otherwise. */
export const DEFAULT_MAX_RUNS = 50;

/**
 * Reads a trend history. A missing file is an empty history; a file that is not one, or breaks its schema anywhere, is
 * the user's mistake (a wrong path, a hand edit) and is reported with each problem's line and column (see
 * `parseHistory`), never overwritten. A version 1 history is migrated in memory (see `migrateHistory`); `appendRun`
 * then writes it back as version 2.
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
 * mid-write leaves the previous history intact. Returns how many runs the history now keeps.
 */
export async function appendRun(path: string, run: TrendRun, options: AppendOptions = {}): Promise<number> {
  const maxRuns = options.maxRuns ?? DEFAULT_MAX_RUNS;
  if (!Number.isInteger(maxRuns) || maxRuns < 1)
    throw new UserError({ file: path, message: `maxRuns must be a positive integer, got ${maxRuns}` });
  await mkdir(dirname(path), { recursive: true });
  return withLock(
    `${path}.lock`,
    async () => {
      const lines = await readRunLines(path);
      if (lines) {
        // The fast path: old runs stay the bytes they were; only the new run is serialised.
        const time = run.time;
        let at = lines.length;
        while (at > 0 && runTime(lines[at - 1]!) > time) at--;
        lines.splice(at, 0, runBytes(run));
        if (lines.length > maxRuns) lines.splice(0, lines.length - maxRuns);
        await writeFileAtomic(path, joinRunBytes(lines));
        return lines.length;
      }
      const history = await readHistory(path);
      history.runs.push(run);
      history.runs.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
      if (history.runs.length > maxRuns) history.runs.splice(0, history.runs.length - maxRuns);
      await writeFileAtomic(path, serializeHistory(history));
      return history.runs.length;
    },
    options,
  );
}

const HEAD = '{"schema":2,"runs":[';
const TAIL = ']}';
const NEWLINE = 0x0a;
const RUN_START = Buffer.from('{"id":"');

/**
 * The runs of a history written in `serializeHistory`'s layout, as their JSON lines' bytes (views into the file's
 * bytes, never decoded), or undefined when the file is missing or laid out otherwise (hand-edited, pretty-printed, or
 * an older version to migrate), which the caller then parses in full. Appending this way costs a read and a write,
 * not a parse and a serialisation of 50 runs of 10,000 checks, nor decoding 150 MB of text into a string and back.
 */
async function readRunLines(path: string): Promise<Buffer[] | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch {
    return undefined;
  }
  const lines: Buffer[] = [];
  for (let from = 0; from < bytes.length; ) {
    const end = bytes.indexOf(NEWLINE, from);
    const stop = end === -1 ? bytes.length : end;
    lines.push(bytes.subarray(from, stop));
    from = stop + 1;
  }
  if (lines.length < 2 || !isText(lines[0]!, HEAD) || !isText(lines.at(-1)!, TAIL)) return undefined;
  const body = lines.slice(1, -1);
  if (body.length === 1 && body[0]!.length === 0) return [];
  const runs: Buffer[] = [];
  for (const [i, line] of body.entries()) {
    const last = i === body.length - 1;
    const comma = line.at(-1) === 0x2c; /* , */
    if (!line.subarray(0, RUN_START.length).equals(RUN_START) || comma === last) return undefined;
    runs.push(last ? line : line.subarray(0, -1));
  }
  return runs;
}

function isText(line: Buffer, text: string): boolean {
  return line.length === text.length && line.toString('latin1') === text;
}

const TIME_KEY = Buffer.from('","time":"');

/**
 * The `time` of a run line: `serializeHistory` writes `id` then `time` first. JSON escapes every quote inside a
 * string, so the first `","time":"` is the one that ends the id; only the time's bytes are decoded.
 */
function runTime(line: Buffer): string {
  const at = line.indexOf(TIME_KEY);
  if (at === -1) return '';
  const from = at + TIME_KEY.length;
  const end = line.indexOf(0x22 /* " */, from);
  return end === -1 ? '' : line.toString('utf8', from, end);
}

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
