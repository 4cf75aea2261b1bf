import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { detectFormat, TRAJECTORY_FORMATS, type TrajectoryFormat } from '../../adapters/detect.js';
import { fromOpenAIMessages } from '../../adapters/openai.js';
import { fromOtelSpans } from '../../adapters/otel.js';
import { fromSeedTrajectory } from '../../adapters/seed.js';
import { formatDiagnostic, UsageError, UserError } from '../../errors/index.js';
import { type Trajectory, toolCalls } from '../../model/trajectory.js';
import { parseJson } from '../../parse/json.js';
import { locateInJson, type Place } from '../../parse/locate.js';
import { trajectoryText } from '../../workup/save.js';
import { colors, type Io } from '../io.js';

export interface ImportOptions {
  /** The file to read: an OpenAI chat log, an OTLP/JSON trace (`.json`, or `.jsonl` with one export a line), or a
   * seed 002 trajectory. */
  file: string;
  /** `openai`, `otel` or `seed`; detected from the file's fields when left out. */
  from?: string;
  /** The workup folder to write (created when missing). Required. */
  out?: string;
  /** Overwrite `trajectory.json` and `note.md` when they exist. @default false */
  force?: boolean;
  /** Which trace to import when an OTel file holds several. */
  trace?: string;
}

/**
 * `needlework import`: converts a run recorded in another format into a workup folder, `trajectory.json` (seed 002's
 * JSON, 2-space indented) and, when the run has a final answer, `note.md` holding it. Refuses to overwrite either
 * file without `force`. Prints what it wrote and returns 0; bad input is printed as `file:line:column: message` and
 * returns 1. A command line that cannot run (no `--out`, an unknown `--from`) throws `UsageError` (exit 2).
 */
export async function runImport(options: ImportOptions, io: Io): Promise<number> {
  const c = colors(io);
  if (options.out === undefined || options.out === '') {
    throw new UsageError('missing --out <dir>: the workup folder to write');
  }
  if (options.from !== undefined && !(TRAJECTORY_FORMATS as readonly string[]).includes(options.from)) {
    throw new UsageError(`--from must be one of ${TRAJECTORY_FORMATS.join(', ')}; got "${options.from}"`);
  }
  try {
    const input = await readInput(options.file);
    let format = options.from as TrajectoryFormat | undefined;
    if (format === undefined) {
      format = detectFormat(input.json);
      if (format === undefined) {
        throw new UserError({
          file: options.file,
          message:
            'cannot tell the format: expected OpenAI chat messages (objects with a "role"), an OTLP/JSON trace ' +
            '("resourceSpans") or a seed trajectory ("task_id" and "steps"); name it with --from openai|otel|seed',
        });
      }
      io.out(`${c.dim('Detected format:')} ${format}`);
    }
    if (options.trace !== undefined && format !== 'otel') {
      throw new UsageError(`--trace picks a trace in an OTel file; this file is read as ${format}`);
    }
    const trajectory = convert(format, input, options);
    await write(trajectory, options.out, options.force === true, io);
    return 0;
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
async function readInput(file: string): Promise<Input> {
  const info = await stat(file).catch(() => undefined);
  if (!info) throw new UserError({ file, message: 'no such file' });
  if (!info.isFile()) throw new UserError({ file, message: 'expected a file, found a folder' });
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new UserError({ file, message: `cannot read: ${error.code ?? error.message}` });
  });
  if (!/\.(jsonl|ndjson)$/i.test(file)) {
    return { file, json: parseJson(text, file), locate: (path, key) => locateInJson(text, path, key) };
  }
  const values: unknown[] = [];
  const lines: Array<{ text: string; line: number }> = [];
  const problems: UserError[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    try {
      values.push(parseJson(line, file, index));
      lines.push({ text: line, line: index + 1 });
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      problems.push(error);
    }
  });
  if (problems.length > 0) throw new UserError(problems.flatMap((p) => p.diagnostics));
  if (values.length === 0) throw new UserError({ file, message: 'expected JSON lines, found nothing' });
  return {
    file,
    json: values,
    locate: (path, key) => {
      const at = lines[Number(path[0])];
      const place = at ? locateInJson(at.text, path.slice(1), key) : undefined;
      return place && { line: at!.line + place.line - 1, column: place.column };
    },
  };
}

function convert(format: TrajectoryFormat, input: Input, options: ImportOptions): Trajectory {
  const source = { file: input.file, ...(input.locate ? { locate: input.locate } : {}) };
  switch (format) {
    case 'openai':
      return fromOpenAIMessages(input.json, {
        ...source,
        taskId: basename(input.file).replace(/\.[^.]+$/, ''),
      });
    case 'otel':
      return fromOtelSpans(input.json, {
        ...source,
        ...(options.trace !== undefined ? { traceId: options.trace } : {}),
      });
    case 'seed':
      return fromSeedTrajectory(input.json, source);
  }
}

async function write(trajectory: Trajectory, out: string, force: boolean, io: Io): Promise<void> {
  const c = colors(io);
  const trajectoryPath = join(out, 'trajectory.json');
  const notePath = join(out, 'note.md');
  const answer = trajectory.final_answer;
  const targets = answer === null ? [trajectoryPath] : [trajectoryPath, notePath];
  if (!force) {
    const existing = (
      await Promise.all(targets.map(async (p) => ((await exists(p)) ? p : undefined)))
    ).filter((p): p is string => p !== undefined);
    if (existing.length > 0) {
      throw new UserError(
        existing.map((file) => ({ file, message: 'already exists; pass --force to overwrite it' })),
      );
    }
  }
  await mkdir(out, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    throw new UserError({ file: out, message: `cannot create the folder: ${error.code ?? error.message}` });
  });
  await writeFile(trajectoryPath, trajectoryText(trajectory));
  const calls = toolCalls(trajectory);
  const counts = new Map<string, number>();
  for (const call of calls) counts.set(call.tool_name ?? '?', (counts.get(call.tool_name ?? '?') ?? 0) + 1);
  const tools = [...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(', ');
  io.out(
    `${c.green('✓')} wrote ${trajectoryPath}: ${plural(trajectory.steps.length, 'step')}, ` +
      `${plural(calls.length, 'tool call')}${tools === '' ? '' : ` (${tools})`}`,
  );
  if (answer === null) {
    io.out(`${c.yellow('!')} no final answer in this run, so no note.md was written`);
    if (await exists(notePath)) io.out(`${c.yellow('!')} ${notePath} is from before and was left as it was`);
    return;
  }
  await writeFile(notePath, answer.endsWith('\n') ? answer : `${answer}\n`);
  io.out(`${c.green('✓')} wrote ${notePath}: the final answer (${plural(answer.length, 'character')})`);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
