import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fromTrajectoryJson } from '../adapters/trajectory-json.js';
import { findWorkups, WORKUPS_JSONL } from '../discover/find.js';
import { type Diagnostic, describeFsError, UserError } from '../errors/index.js';
import { readTextFile } from '../io/read-text.js';
import type { LedgerEntry } from '../model/ledger.js';
import type { Note } from '../model/note.js';
import type { Trajectory } from '../model/trajectory.js';
import type { Workup } from '../model/workup.js';
import { parseNote } from '../note/index.js';
import { parseJson } from '../parse/json.js';
import { jsonLocator } from '../parse/json-places.js';
import { checkSchema } from '../parse/schema.js';
import { folderId } from './folder-name.js';
import { readLedger } from './ledger.js';
import { trialFieldProblems, trialFromLayout } from './trial-layout.js';

interface WorkupJson {
  id?: string;
  note?: string;
  ledger?: LedgerEntry[];
  trajectory?: unknown;
  gold?: unknown;
  meta?: Record<string, unknown>;
}

/**
 * Loads one workup: a folder holding any of `note.md`, `provenance.jsonl`, `trajectory.json` (and optionally
 * `gold.trajectory.json` and `meta.json`), or a single JSON file in the workup schema. A workup is one trial of a
 * task when its `meta.json` names a `task` (and `trial`), or when it lies in the `<task>/<n>/` layout (see
 * `trialFromLayout`: the folder `runs/book-flight/3/` is trial 3 of `book-flight`, id `book-flight/3`). Every problem in every file is
 * reported together in one `UserError`, each with its file, line and column.
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { loadWorkup } from 'needlework';
 *
 * // A folder (note.md, provenance.jsonl, trajectory.json, meta.json), a *.workup.json file, or a line of a
 * // *.workups.jsonl file (`runs.workups.jsonl:12`).
 * const workup = await loadWorkup('fixtures/workups/grounded');
 * assert.equal(workup.id, 'grounded');
 * assert.ok(workup.note && workup.ledger.length > 0);
 * assert.equal((await loadWorkup('fixtures/workups/single-file.workup.json')).id.length > 0, true);
 * ```
 */
export async function loadWorkup(path: string): Promise<Workup> {
  // One line of a `*.workups.jsonl` file, as `meta.path` names it: `runs.workups.jsonl:12`.
  const line = LINE_OF_FILE.exec(path);
  if (line) return loadWorkupLine(line[1]!, Number(line[2]));
  if (WORKUPS_JSONL.test(path)) {
    const loaded = await loadWorkupLines(path);
    if (loaded.failures.length === 0 && loaded.workups.length === 1) return loaded.workups[0]!;
    throw new UserError([
      ...loaded.failures.flatMap((f) => f.diagnostics),
      ...(loaded.failures.length === 0
        ? [{ file: path, message: `holds ${loaded.workups.length} workups: loadWorkups reads them all` }]
        : []),
    ]);
  }
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) throw new UserError({ file: path, message: 'no such file or folder' });
  if (info.isDirectory()) return loadFolder(path);
  if (path.endsWith('.json')) return loadJsonFile(path);
  throw new UserError({
    file: path,
    message:
      'expected a workup folder (note.md, provenance.jsonl, trajectory.json), a .json file or a .workups.jsonl file',
  });
}

/** A workup path that failed to load, with every problem found in it. */
export interface WorkupFailure {
  path: string;
  diagnostics: Diagnostic[];
}

export interface LoadedWorkups {
  workups: Workup[];
  /** One entry per workup that did not load, and one per pattern that matched nothing. */
  failures: WorkupFailure[];
}

/**
 * Loads every workup named by folders, files and globs. A bad workup is reported in `failures` and never stops the
 * others from loading.
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { formatDiagnostic, loadWorkups } from 'needlework';
 *
 * const { workups, failures } = await loadWorkups('fixtures/workups');
 * assert.ok(workups.length >= 7);
 * // A workup that does not load is reported, never stops the others.
 * for (const failure of failures) for (const d of failure.diagnostics) console.error(formatDiagnostic(d));
 * ```
 */
export async function loadWorkups(patterns: string | readonly string[]): Promise<LoadedWorkups> {
  const found = await findWorkups(patterns);
  const failures: WorkupFailure[] = found.diagnostics.map((d) => ({ path: d.file, diagnostics: [d] }));
  const workups: Workup[] = [];
  for (const path of found.paths) {
    try {
      // A `*.workups.jsonl` file is many workups, each line loaded on its own (a bad line never stops the others).
      if (WORKUPS_JSONL.test(path)) {
        const lines = await loadWorkupLines(path);
        for (const w of lines.workups) workups.push(w);
        for (const f of lines.failures) failures.push(f);
      } else {
        const names = found.folders.get(path);
        workups.push(await (names ? loadFolder(path, names) : loadWorkup(path)));
      }
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      failures.push({ path, diagnostics: [...error.diagnostics] });
    }
  }
  return { workups, failures };
}

/** A workup folder; `names`, its entries when the caller has listed it already. */
async function loadFolder(dir: string, names: readonly string[] = listFolder(dir)): Promise<Workup> {
  const problems: Diagnostic[] = [];
  const failed = (error: unknown): undefined => {
    if (!(error instanceof UserError)) throw error;
    for (const d of error.diagnostics) problems.push(d);
    return undefined;
  };
  const attempt = <T>(work: () => T): T | undefined => {
    try {
      return work();
    } catch (error) {
      return failed(error);
    }
  };
  const path = inFolder(dir);
  const notePath = path('note.md');
  const ledgerPath = path('provenance.jsonl');
  const trajectoryPath = path('trajectory.json');
  const goldPath = path('gold.trajectory.json');
  const metaPath = path('meta.json');
  // One listing instead of a failed open per absent file.
  const present = new Set(names);
  const read = (name: string, file: string) =>
    present.has(name) ? readTextFile(file, 'optional') : undefined;
  const noteText = read('note.md', notePath);
  const trajectoryText = read('trajectory.json', trajectoryPath);
  const goldText = read('gold.trajectory.json', goldPath);
  const metaText = read('meta.json', metaPath);
  const hasLedger = present.has('provenance.jsonl');
  if (noteText === undefined && !hasLedger && trajectoryText === undefined) {
    throw new UserError({
      file: dir,
      message: 'not a workup: expected note.md, provenance.jsonl or trajectory.json in it',
    });
  }
  const note = noteText === undefined ? undefined : parseNote(noteText, { file: notePath });
  const ledger = hasLedger ? await readLedger(ledgerPath).catch(failed) : [];
  const trajectory = attempt(() => readTrajectory(trajectoryText, trajectoryPath));
  const gold = attempt(() => readTrajectory(goldText, goldPath));
  const meta = attempt(() => readMeta(metaText, metaPath));
  if (problems.length > 0) throw new UserError(problems);
  // `<task>/<n>/` makes trial n of the task; meta.json's own task and trial win over it, and its id over the folder's.
  const layout = trialFromLayout(dir);
  const { id, ...fields } = meta ?? {};
  return assemble(typeof id === 'string' ? id : folderId(dir), {
    note,
    ledger: ledger ?? [],
    trajectory,
    gold,
    meta: { ...(layout && { task: layout.task, trial: layout.trial }), ...fields, path: dir },
  });
}

/**
 * The path of a file in `dir` by its plain name, as `join(dir, name)` writes it: the folder is normalized once, not
 * once per file (10,000 workup folders: 70,000 joins -> 10,000).
 */
function inFolder(dir: string): (name: string) => string {
  const prefix = join(dir, '_').slice(0, -1);
  return (name) => prefix + name;
}

/** A folder's entry names; a folder that cannot be listed is a `UserError`. */
function listFolder(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (error) {
    throw new UserError({ file: dir, message: `cannot read the folder: ${describeFsError(error)}` });
  }
}

function loadJsonFile(file: string): Workup {
  const text = readTextFile(file);
  return workupOfJson(text, file, 1, basename(file).replace(/(\.workup)?\.json$/, ''), file);
}

/**
 * A workup from JSON text in the workup schema (the single-file form), found at line `firstLine` of `file`: a whole
 * `*.workup.json`, or one line of a `*.workups.jsonl`. Every problem is placed in the file.
 */
function workupOfJson(text: string, file: string, firstLine: number, id: string, path: string): Workup {
  const json = parseJson(text, file, firstLine - 1);
  const locator = jsonLocator(text);
  const locate = (at: readonly string[], key?: string) => {
    const place = locator(at, key);
    return place && { line: place.line + firstLine - 1, column: place.column };
  };
  const problems = checkSchema('workup', json, file, locate);
  if (problems.length > 0) throw new UserError(problems);
  const data = json as WorkupJson;
  const noteText = data.note;
  const at = (field: string) => ({
    file,
    locate: (inner: readonly string[], key?: string) => locate([field, ...inner], key),
  });
  return assemble(data.id ?? id, {
    note: noteText === undefined ? undefined : parseNote(noteText, { file }),
    ledger: data.ledger ?? [],
    trajectory:
      data.trajectory === undefined ? undefined : fromTrajectoryJson(data.trajectory, at('trajectory')),
    gold: data.gold === undefined ? undefined : fromTrajectoryJson(data.gold, at('gold')),
    meta: { ...data.meta, path },
  });
}

/** One line of such a file, as its workups' `meta.path` names it. */
const LINE_OF_FILE = /^(.*\.workups\.jsonl):(\d+)$/;

/** Whether a workup path names one line of a `*.workups.jsonl` file (`runs.workups.jsonl:12`), as `loadWorkup` reads it. */
export function isWorkupLine(path: string): boolean {
  return LINE_OF_FILE.test(path);
}

/** A `*.workups.jsonl` file's text and where each of its lines starts. */
interface Lines {
  text: string;
  starts: number[];
}

function linesOf(text: string): Lines {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return { text, starts };
}

/** Line `n` (from 1) without its line break. */
function lineAt({ text, starts }: Lines, n: number): string {
  const start = starts[n - 1]!;
  const next = starts[n];
  let end = next === undefined ? text.length : next - 1;
  if (end > start && text.charCodeAt(end - 1) === 13) end--;
  return text.slice(start, end);
}

/**
 * Loads every workup of a `*.workups.jsonl` file: each non-blank line is one workup in the workup schema, read as a
 * `*.workup.json` file would be, its problems placed at their line (and column) in the file. A bad line is one failure
 * (`path` is `file:line`) and never stops the other lines. A line without an `id` is `<file name>-<line>`; an id that
 * an earlier line already took is a failure at the later line. Each workup's `meta.path` is `file:line`, which
 * `loadWorkup` reads back.
 */
export async function loadWorkupLines(file: string): Promise<LoadedWorkups> {
  const lines = linesOf(readTextFile(file));
  const base = basename(file).replace(WORKUPS_JSONL, '');
  const workups: Workup[] = [];
  const failures: WorkupFailure[] = [];
  const firstLine = new Map<string, number>();
  for (let n = 1; n <= lines.starts.length; n++) {
    const text = lineAt(lines, n);
    if (text.trim() === '') continue;
    try {
      const workup = workupOfJson(text, file, n, `${base}-${n}`, `${file}:${n}`);
      const seen = firstLine.get(workup.id);
      if (seen !== undefined) {
        throw new UserError({
          file,
          line: n,
          column: 1,
          message: `duplicate workup id "${workup.id}" (first on line ${seen})`,
        });
      }
      firstLine.set(workup.id, n);
      workups.push(workup);
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      failures.push({ path: `${file}:${n}`, diagnostics: [...error.diagnostics] });
    }
  }
  if (workups.length === 0 && failures.length === 0)
    failures.push({ path: file, diagnostics: [{ file, message: 'no workups: the file has no lines' }] });
  return { workups, failures };
}

/**
 * The last `*.workups.jsonl` file read line by line, while it is unchanged: a reader that loads its workups one at a
 * time by `meta.path` (the HTML report) reads and splits the file once, not once per line.
 */
let lastLines: { file: string; mtimeMs: number; size: number; lines: Lines } | undefined;

async function loadWorkupLine(file: string, n: number): Promise<Workup> {
  const info = statSync(file, { throwIfNoEntry: false });
  if (!info) throw new UserError({ file, message: 'no such file or folder' });
  if (lastLines?.file !== file || lastLines.mtimeMs !== info.mtimeMs || lastLines.size !== info.size) {
    lastLines = { file, mtimeMs: info.mtimeMs, size: info.size, lines: linesOf(readTextFile(file)) };
  }
  const { lines } = lastLines;
  const text = n >= 1 && n <= lines.starts.length ? lineAt(lines, n) : '';
  if (text.trim() === '') throw new UserError({ file, line: n, message: 'no workup on this line' });
  const base = basename(file).replace(WORKUPS_JSONL, '');
  return workupOfJson(text, file, n, `${base}-${n}`, `${file}:${n}`);
}

function assemble(
  id: string,
  parts: {
    note: Note | undefined;
    ledger: LedgerEntry[];
    trajectory: Trajectory | undefined;
    gold: Trajectory | undefined;
    meta: Workup['meta'];
  },
): Workup {
  const workup: Workup = { id, ledger: parts.ledger, meta: parts.meta };
  if (parts.note) workup.note = parts.note;
  if (parts.trajectory) workup.trajectory = parts.trajectory;
  if (parts.gold) workup.gold = parts.gold;
  return workup;
}

/** A `trajectory.json` text as `loadWorkup` reads it (undefined: no such file); every problem is a `UserError`. */
export function readTrajectory(text: string | undefined, file: string): Trajectory | undefined {
  if (text === undefined) return undefined;
  return fromTrajectoryJson(parseJson(text, file), {
    file,
    locate: jsonLocator(text),
  });
}

/** A `meta.json` text as `loadWorkup` reads it (its id, task and trial checked); every problem is a `UserError`. */
export function readMeta(text: string | undefined, file: string): Record<string, unknown> {
  if (text === undefined) return {};
  const value = parseJson(text, file);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new UserError({ file, line: 1, column: 1, message: 'meta.json must be a JSON object' });
  }
  const locate = jsonLocator(text);
  const problems = trialFieldProblems(value as Record<string, unknown>, file, locate);
  const { id } = value as { id?: unknown };
  if (id !== undefined && !(typeof id === 'string' && id !== ''))
    problems.push({
      file,
      ...locate(['id']),
      message: `id must be a non-empty string, got ${JSON.stringify(id)}`,
    });
  if (problems.length > 0) throw new UserError(problems);
  return value as Record<string, unknown>;
}
