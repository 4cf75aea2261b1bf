import { mkdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { detectFormat, TRAJECTORY_FORMATS, type TrajectoryFormat } from '../../adapters/detect.js';
import type { ImportedWorkup } from '../../adapters/imported.js';
import { importJson } from '../../adapters/importers.js';
import { readInspectEval } from '../../adapters/inspect.js';
import { isZip } from '../../adapters/zip.js';
import { WORKUPS_JSONL } from '../../discover/find.js';
import {
  type Diagnostic,
  describeFsError,
  formatDiagnostic,
  UsageError,
  UserError,
} from '../../errors/index.js';
import { writeFileAtomic } from '../../io/atomic.js';
import { parseJson } from '../../parse/json.js';
import { type JsonLocator, jsonLocator } from '../../parse/json-places.js';
import { type JsonChunk, splitJsonSequence } from '../../parse/json-sequence.js';
import type { Place } from '../../parse/locate.js';
import { safeFolderName } from '../../workup/folder-name.js';
import { readMeta, readTrajectory } from '../../workup/load.js';
import { inTrajectoryOrder } from '../../workup/save.js';
import { colors, type Io } from '../io.js';
import { plural, printSummary } from './import-summary.js';

export interface ImportOptions {
  /**
   * The file to read: an OpenAI chat log, an OTLP/JSON trace (`.json`, or `.jsonl` with one export a line), SDK span
   * JSON, a SWE-agent `.traj`, tau-bench results, or a seed 002 trajectory.
   */
  file: string;
  /** One of `TRAJECTORY_FORMATS`; detected from the file's fields when left out. */
  from?: string;
  /** The workup folder to write (created when missing); a file of several runs gets one subfolder per run. */
  out?: string;
  /** Overwrite files of an existing workup. @default false */
  force?: boolean;
  /** Which trace to import when an OTLP file holds several (all, one folder each, when left out). */
  trace?: string;
}

/**
 * `needlework import`: converts runs recorded in another format into workup folders: `trajectory.json` (seed 002's
 * JSON, 2-space indented), `note.md` holding the final answer when there is one, `gold.trajectory.json` when the
 * source records a reference (tau-bench), and `meta.json` with the task outcome, task, trial and trace ids. Refuses to
 * overwrite without `force`. Prints, for each workup, what it took and what it could not.
 *
 * Returns 0 when everything was imported; 1 when the input is bad (printed as `file:line:column: message`), when some
 * element of a list could not be read (the others are still written), or when a workup took no tool call from a
 * source that shows some. A command line that cannot run (no `--out`, an unknown `--from`) throws `UsageError`.
 */
export async function runImport(options: ImportOptions, io: Io): Promise<number> {
  const c = colors(io);
  if (options.out === undefined || options.out === '') {
    throw new UsageError(
      'missing --out <dir>: the workup folder to write (or a *.workups.jsonl file, one workup a line)',
    );
  }
  // `seed` is the format's name before 0.2, still taken.
  if (options.from === 'seed') options.from = 'trajectory';
  if (options.from !== undefined && !(TRAJECTORY_FORMATS as readonly string[]).includes(options.from)) {
    throw new UsageError(`--from must be one of ${TRAJECTORY_FORMATS.join(', ')}; got "${options.from}"`);
  }
  try {
    // SDK span ids may be integers past 2^53 or hex text; only a bigint tells the two apart.
    let input = await readInput(options.file, options.from === 'otel-sdk');
    let format = options.from as TrajectoryFormat | undefined;
    if (format === undefined) {
      format = detectFormat(input.json);
      if (format === undefined) {
        throw new UserError({
          file: options.file,
          message:
            'cannot tell the format: expected OpenAI chat messages (objects with a "role"), an OTLP/JSON trace ' +
            '("resourceSpans"), SDK span JSON (spans with "name" and "context"), a SWE-agent trajectory ' +
            '("trajectory" and "history"), tau-bench results ("task_id" and "traj"), tau2-bench results ("simulations"), ' +
            'an Inspect AI log ("eval" and "samples", or a .eval archive), an AgentOps trace ("spans" with "span_id"), ' +
            'OpenHands output.jsonl ("history" and "instance_id"), a mini-swe-agent .traj.json ("trajectory_format") ' +
            'or a needlework trajectory.json ' +
            `("task_id" and "steps"); name it with --from ${TRAJECTORY_FORMATS.join('|')}`,
        });
      }
      io.out(`${c.dim('Detected format:')} ${format}`);
    }
    if (options.trace !== undefined && format !== 'otel') {
      throw new UsageError(`--trace picks a trace in an OTel file; this file is read as ${format}`);
    }
    if (format === 'otel-sdk' && options.from === undefined) input = await readInput(options.file, true);
    const result = importJson(format, input.json, {
      file: input.file,
      ...(input.locate ? { locate: input.locate } : {}),
      name: basename(input.file).replace(/(\.traj)?(\.[^.]+)?$/, ''),
      ...(options.trace !== undefined ? { traceId: options.trace } : {}),
    });
    const force = options.force === true;
    const jsonl = WORKUPS_JSONL.test(options.out);
    // Each workup as the files it will be, read back the way loadWorkup reads them: what it would refuse is reported
    // now, against the file it would have been, and not written.
    const failed = [...result.failed];
    const ready: Array<{ workup: ImportedWorkup; folder: string; files: WorkupFiles }> = [];
    for (const workup of result.workups) {
      const folder = jsonl
        ? options.out
        : result.many
          ? join(options.out!, safeFolderName(workup.name))
          : options.out!;
      const files = filesOf(workup);
      const problems = loadProblems(files, folder, options.file);
      if (problems.length > 0) for (const d of problems) failed.push(d);
      else ready.push({ workup, folder, files });
    }
    // `--out runs.workups.jsonl`: every run of the file one line each, in the workup schema `loadWorkups` reads.
    if (jsonl) {
      await refuseOverwriteFile(options.out, force);
      await writeFileAtomic(options.out, ready.map(({ workup }) => workupLine(workup)).join('')).catch(
        (error: unknown) => {
          throw new UserError({ file: options.out!, message: `cannot write: ${describeFsError(error)}` });
        },
      );
      let code = 0;
      for (const [i, { workup, files }] of ready.entries()) {
        const written = { folder: options.out, files: Object.keys(files), line: i + 1 };
        if (!printSummary(workup, written, options.file, io)) code = 1;
      }
      return reportFailed(failed, ready.length, options.file, io, code);
    }
    await refuseOverwrite(ready, force);
    let code = 0;
    for (const { workup, folder, files } of ready) {
      const written = await write(files, folder);
      if (!printSummary(workup, written, options.file, io)) code = 1;
    }
    return reportFailed(failed, ready.length, options.file, io, code);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    for (const d of error.diagnostics) io.err(`${c.red('✗')} ${formatDiagnostic(d)}`);
    return 1;
  }
}

/**
 * The options of `needlework import` from what cac parsed. cac (through mri) turns every option value that looks
 * like a number into one, which would round a decimal trace id past 2^53 and strip the zeros of `--out 007`, so string
 * values are taken from the raw arguments when they are there.
 */
export function importOptions(
  file: unknown,
  parsed: Record<string, unknown>,
  rawArgs: readonly string[],
): ImportOptions {
  const text = (name: string): string | undefined => {
    const raw = rawOption(rawArgs, name);
    if (raw !== undefined) return raw;
    const value = parsed[name];
    return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
  };
  const options: ImportOptions = { file: String(file), force: parsed['force'] === true };
  const from = text('from');
  const out = text('out');
  const trace = text('trace');
  if (from !== undefined) options.from = from;
  if (out !== undefined) options.out = out;
  if (trace !== undefined) options.trace = trace;
  return options;
}

/** The value of `--name value` or `--name=value` as typed (the last one wins, as in cac). */
export function rawOption(rawArgs: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  const flag = `--${name}`;
  for (let i = 0; i < rawArgs.length; i++) {
    const arg = rawArgs[i]!;
    if (arg === '--') break;
    if (arg.startsWith(`${flag}=`)) value = arg.slice(flag.length + 1);
    else if (arg === flag && i + 1 < rawArgs.length && !rawArgs[i + 1]!.startsWith('-'))
      value = rawArgs[i + 1];
  }
  return value;
}

interface Input {
  file: string;
  json: unknown;
  locate?: (path: readonly string[], key?: string) => Place | undefined;
}

/** Reads and parses the file: JSON, or JSONL (`.jsonl`, `.ndjson`) as an array of its lines' values. */
async function readInput(file: string, bigints = false): Promise<Input> {
  const info = await stat(file).catch(() => undefined);
  if (!info) throw new UserError({ file, message: 'no such file' });
  if (!info.isFile()) throw new UserError({ file, message: 'expected a file, found a folder' });
  const bytes = await readFile(file).catch((error: NodeJS.ErrnoException) => {
    throw new UserError({ file, message: `cannot read: ${error.code ?? error.message}` });
  });
  // A zip archive is an Inspect AI `.eval` log: read in memory, within limits, into the `EvalLog` its JSON holds.
  if (isZip(bytes)) return { file, json: readInspectEval(bytes, file) };
  const text = bytes.toString('utf8');
  if (/\.(jsonl|ndjson)$/i.test(file)) {
    const lines = text.split('\n').map((line, index) => ({ text: line, line: index + 1 }));
    return readChunks(
      file,
      lines.filter((l) => l.text.trim() !== ''),
      bigints,
    );
  }
  try {
    return {
      file,
      json: parseJson(text, file, 0, { bigints }),
      locate: jsonLocator(text),
    };
  } catch (error) {
    // Concatenated values (Python's ConsoleSpanExporter prints one indented span after another) are read as a list.
    const chunks = error instanceof UserError ? splitJsonSequence(text) : undefined;
    if (!chunks) throw error;
    return readChunks(file, chunks, bigints);
  }
}

/** Reads JSON values that each start on a line of the file (JSONL lines, concatenated values) as one list. */
function readChunks(file: string, chunks: readonly JsonChunk[], bigints: boolean): Input {
  const values: unknown[] = [];
  const problems: UserError[] = [];
  for (const chunk of chunks) {
    try {
      values.push(parseJson(chunk.text, file, chunk.line - 1, { bigints }));
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      problems.push(error);
    }
  }
  if (problems.length > 0) throw new UserError(problems.flatMap((p) => p.diagnostics));
  if (values.length === 0) throw new UserError({ file, message: 'expected JSON lines, found nothing' });
  // One locator per chunk, made when a problem is first placed in it.
  const locators = new Map<number, JsonLocator>();
  return {
    file,
    json: values,
    locate: (path, key) => {
      const index = Number(path[0]);
      const at = chunks[index];
      if (!at) return undefined;
      let locate = locators.get(index);
      if (!locate) {
        locate = jsonLocator(at.text);
        locators.set(index, locate);
      }
      const place = locate(path.slice(1), key);
      return place && { line: at.line + place.line - 1, column: place.column };
    },
  };
}

/** The files a workup writes, by name; the summary prints them. */
export interface Written {
  /** The workup folder, or the `*.workups.jsonl` file that holds it as line `line`. */
  folder: string;
  files: string[];
  line?: number;
}

/** The elements of a list that could not be read: each at its place, then how many, and exit 1. */
function reportFailed(
  failed: readonly Diagnostic[],
  imported: number,
  file: string,
  io: Io,
  code: number,
): number {
  const c = colors(io);
  for (const d of failed) io.err(`${c.red('✗')} ${formatDiagnostic(d)}`);
  if (failed.length === 0) return code;
  io.err(
    `${c.red('✗')} ${file}: ${plural(failed.length, 'problem')} in elements that were not imported; ` +
      `${plural(imported, 'workup')} imported from the rest`,
  );
  return 1;
}

/**
 * One workup as a line of a `*.workups.jsonl` file: `{ id, note, trajectory, gold, meta }`, the same parts a folder
 * gets (the answer as the note), compact, newline-terminated. A `bigint` is written as its decimal string.
 */
function workupLine(workup: ImportedWorkup): string {
  const answer = workup.trajectory.final_answer;
  const value = {
    id: workup.name,
    ...(answer !== null && { note: answer.endsWith('\n') ? answer : `${answer}\n` }),
    trajectory: inTrajectoryOrder(workup.trajectory),
    ...(workup.gold && { gold: inTrajectoryOrder(workup.gold) }),
    ...(Object.keys(workup.meta).length > 0 && { meta: workup.meta }),
  };
  return `${JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? v.toString() : v))}\n`;
}

async function refuseOverwriteFile(file: string, force: boolean): Promise<void> {
  if (!force && (await exists(file)))
    throw new UserError({ file, message: 'already exists; pass --force to overwrite it' });
}

async function refuseOverwrite(ready: ReadonlyArray<{ folder: string; files: WorkupFiles }>, force: boolean) {
  if (force) return;
  const targets = ready.flatMap(({ folder, files }) => Object.keys(files).map((name) => join(folder, name)));
  const existing = (await Promise.all(targets.map(async (p) => ((await exists(p)) ? p : undefined)))).filter(
    (p): p is string => p !== undefined,
  );
  if (existing.length > 0) {
    throw new UserError(
      existing.map((file) => ({ file, message: 'already exists; pass --force to overwrite it' })),
    );
  }
}

/** The files of a workup folder, by name, as their text. */
type WorkupFiles = Record<string, string>;

function filesOf(workup: ImportedWorkup): WorkupFiles {
  const files: WorkupFiles = { 'trajectory.json': `${json(inTrajectoryOrder(workup.trajectory))}\n` };
  const answer = workup.trajectory.final_answer;
  if (answer !== null) files['note.md'] = answer.endsWith('\n') ? answer : `${answer}\n`;
  if (workup.gold) files['gold.trajectory.json'] = `${json(inTrajectoryOrder(workup.gold))}\n`;
  if (Object.keys(workup.meta).length > 0) files['meta.json'] = `${json(workup.meta)}\n`;
  return files;
}

/**
 * What `loadWorkup` would refuse in these files once written in `folder` (the same readers), each at its line and
 * column in the file it would have been, and naming the file it came from.
 */
function loadProblems(files: WorkupFiles, folder: string, source: string): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const attempt = (read: (text: string | undefined, file: string) => unknown, name: string) => {
    try {
      read(files[name], join(folder, name));
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      for (const d of error.diagnostics)
        problems.push({
          ...d,
          message: `${d.message} (imported from ${source}; not written: it would not load)`,
        });
    }
  };
  attempt(readTrajectory, 'trajectory.json');
  attempt(readTrajectory, 'gold.trajectory.json');
  attempt(readMeta, 'meta.json');
  return problems;
}

async function write(files: WorkupFiles, out: string): Promise<Written> {
  await mkdir(out, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    throw new UserError({ file: out, message: `cannot create the folder: ${error.code ?? error.message}` });
  });
  // Each file whole or not at all: a kill or a full disk never leaves half a trajectory for a later run to refuse.
  for (const [name, text] of Object.entries(files)) await writeFileAtomic(join(out, name), text);
  return { folder: out, files: Object.keys(files) };
}

/** JSON, 2-space indented; a `bigint` (an exact integer from the source) is written as its decimal string. */
function json(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2);
  } catch (error) {
    // Only a bigint makes JSON.stringify throw here; the replacer is several times slower, so it is the fallback.
    if (!(error instanceof TypeError)) throw error;
    return JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? v.toString() : v), 2);
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
