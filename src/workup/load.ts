import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fromSeedTrajectory } from '../adapters/seed.js';
import { findWorkups } from '../discover/find.js';
import { type Diagnostic, UserError } from '../errors/index.js';
import type { LedgerEntry } from '../model/ledger.js';
import type { Note } from '../model/note.js';
import type { Trajectory } from '../model/trajectory.js';
import type { Workup } from '../model/workup.js';
import { parseNote } from '../note/parse.js';
import { parseJson } from '../parse/json.js';
import { jsonLocator } from '../parse/json-places.js';
import { checkSchema } from '../parse/schema.js';
import { trialFieldProblems, trialFromLayout } from '../trials/layout.js';
import { folderId } from './folder-name.js';
import { readLedger } from './ledger.js';

/** Workups loaded at once by `loadWorkups`. */
const LOAD_CONCURRENCY = 8;

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
 */
export async function loadWorkup(path: string): Promise<Workup> {
  const info = await stat(path).catch(() => undefined);
  if (!info) throw new UserError({ file: path, message: 'no such file or folder' });
  if (info.isDirectory()) return loadFolder(path);
  if (path.endsWith('.json')) return loadJsonFile(path);
  throw new UserError({
    file: path,
    message: 'expected a workup folder (note.md, provenance.jsonl, trajectory.json) or a .json file',
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
 */
export async function loadWorkups(patterns: string | readonly string[]): Promise<LoadedWorkups> {
  const found = await findWorkups(patterns);
  const failures: WorkupFailure[] = found.diagnostics.map((d) => ({ path: d.file, diagnostics: [d] }));
  // A few loads at a time: file reads overlap, and the results keep the order the paths were found in.
  const results = new Array<Workup | WorkupFailure>(found.paths.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < found.paths.length) {
      const i = next++;
      const path = found.paths[i]!;
      try {
        results[i] = await loadWorkup(path);
      } catch (error) {
        if (!(error instanceof UserError)) throw error;
        results[i] = { path, diagnostics: [...error.diagnostics] };
      }
    }
  };
  await Promise.all(Array.from({ length: LOAD_CONCURRENCY }, worker));
  const workups: Workup[] = [];
  for (const result of results) {
    if ('diagnostics' in result) failures.push(result);
    else workups.push(result);
  }
  return { workups, failures };
}

async function loadFolder(dir: string): Promise<Workup> {
  const problems: Diagnostic[] = [];
  const attempt = async <T>(work: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      for (const d of error.diagnostics) problems.push(d);
      return undefined;
    }
  };
  const notePath = join(dir, 'note.md');
  const ledgerPath = join(dir, 'provenance.jsonl');
  // One listing instead of a failed open per absent file.
  const present = new Set(await readdir(dir));
  const read = (name: string) =>
    present.has(name) ? readOptional(join(dir, name)) : Promise.resolve(undefined);
  const [noteText, trajectoryText, goldText, metaText] = await Promise.all([
    read('note.md'),
    read('trajectory.json'),
    read('gold.trajectory.json'),
    read('meta.json'),
  ]);
  const hasLedger = present.has('provenance.jsonl');
  if (noteText === undefined && !hasLedger && trajectoryText === undefined) {
    throw new UserError({
      file: dir,
      message: 'not a workup: expected note.md, provenance.jsonl or trajectory.json in it',
    });
  }
  const note = noteText === undefined ? undefined : parseNote(noteText, { file: notePath });
  const ledger = hasLedger ? await attempt(() => readLedger(ledgerPath)) : [];
  const trajectory = await attempt(async () => readTrajectory(trajectoryText, join(dir, 'trajectory.json')));
  const gold = await attempt(async () => readTrajectory(goldText, join(dir, 'gold.trajectory.json')));
  const meta = await attempt(async () => readMeta(metaText, join(dir, 'meta.json')));
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

async function loadJsonFile(file: string): Promise<Workup> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new UserError({ file, message: `cannot read: ${error.code ?? error.message}` });
  });
  const json = parseJson(text, file);
  const locate = jsonLocator(text);
  const problems = checkSchema('workup', json, file, locate);
  if (problems.length > 0) throw new UserError(problems);
  const data = json as WorkupJson;
  const noteText = data.note;
  const at = (field: string) => ({
    file,
    locate: (path: readonly string[], key?: string) => locate([field, ...path], key),
  });
  return assemble(data.id ?? basename(file).replace(/(\.workup)?\.json$/, ''), {
    note: noteText === undefined ? undefined : parseNote(noteText, { file }),
    ledger: data.ledger ?? [],
    trajectory:
      data.trajectory === undefined ? undefined : fromSeedTrajectory(data.trajectory, at('trajectory')),
    gold: data.gold === undefined ? undefined : fromSeedTrajectory(data.gold, at('gold')),
    meta: { ...data.meta, path: file },
  });
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
  return fromSeedTrajectory(parseJson(text, file), {
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

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new UserError({ file, message: `cannot read: ${code ?? String(error)}` });
  }
}
