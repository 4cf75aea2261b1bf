import type { Diagnostic } from '../errors/index.js';
import { UserError } from '../errors/index.js';
import { makeTrajectory } from '../model/trajectory.js';
import type { WorkupMeta } from '../model/workup.js';
import { parseJson } from '../parse/json.js';
import { type AdapterSource, asText, describe, isRecord, Problems } from './common.js';
import type { ImportedWorkup, ImportResult } from './imported.js';
import { contentText, measuredCost, num, StepBuilder } from './steps.js';
import { type ZipLimits, ZipReader } from './zip.js';

/**
 * Reads an Inspect AI eval log (`EvalLog`: `{ version, status, eval, plan, results, stats, samples }`), as the `.json`
 * log format writes it, or as `readInspectEval` assembles it from the zipped `.eval` format, into one workup per
 * sample (`EvalSample`), named `<id>-epoch-<epoch>`:
 * - `messages` (`ChatMessage`s): an assistant message gives a `thought` (its text; `reasoning` parts are not the
 *   answer and are left out) and one `tool_call` per `tool_calls` entry (`{ id, function: "<name>", arguments: {...}
 *   }`); a `tool` message is the result of the call named by `tool_call_id`. It is a failed call when it carries an
 *   `error` (`ToolCallError { type, message }`: Inspect sets it when the tool raised, timed out, was refused by an
 *   approver, or its output passed the limit), written `type: message`;
 * - message content that is an `attachment://<hash>` reference is read from the sample's `attachments`;
 * - the answer is `output.completion` (the model's last output), else the last assistant text;
 * - the outcome is the first score's value as Inspect's `value_to_float` reads it (`C` 1, `P` 0.5, `I` and `N` 0,
 *   booleans, numbers, `yes`/`no`): `succeeded` when it is 1; every score is kept in `meta.scores`; a sample `error`
 *   did not succeed (`status: "error"`), a sample that hit a `limit` says which;
 * - `model_usage` gives the tokens (input plus output, over every model) and `total_cost` when Inspect recorded one;
 * - the sample `id` is the task and its `epoch` (counted from 1, as `meta.trial` is) the trial.
 * A sample that cannot be read is listed in `failed`; the others are still imported.
 */
export function fromInspectLog(json: unknown, options: AdapterSource = {}): ImportResult {
  const file = options.file ?? '<inspect log>';
  const problems = new Problems(file, options.locate);
  if (!isRecord(json) || !isRecord(json['eval'])) {
    problems.add(
      isRecord(json) ? ['eval'] : [],
      `expected an Inspect AI eval log with an "eval" object, found ${describe(isRecord(json) ? json['eval'] : json)}`,
    );
    problems.throwIfAny();
  }
  const root = json as Record<string, unknown>;
  const samples = root['samples'];
  if (!Array.isArray(samples) || samples.length === 0) {
    problems.add(
      ['samples'],
      `expected the log's samples (a list), found ${describe(samples)}` +
        (root['status'] === 'started' ? ' (the eval is still running)' : ''),
    );
    problems.throwIfAny();
  }
  const evalInfo = root['eval'] as Record<string, unknown>;
  const workups: ImportedWorkup[] = [];
  const failed: Diagnostic[] = [];
  (samples as unknown[]).forEach((sample, index) => {
    try {
      workups.push(readSample(sample, index, evalInfo, new Problems(file, options.locate)));
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      failed.push(...error.diagnostics);
    }
  });
  return { workups, failed, many: true };
}

/**
 * An Inspect `.eval` log (a zip archive: `header.json`, `samples/<id>_epoch_<n>.json`, journal and summaries) as the
 * `EvalLog` its `.json` format would hold: the header's fields with `samples`, read in memory within `limits` (see
 * `ZipReader`). Members other than the header and samples are not read.
 */
export function readInspectEval(
  bytes: Buffer,
  file: string,
  limits: ZipLimits = {},
): Record<string, unknown> {
  const zip = new ZipReader(bytes, file, limits);
  const member = (name: string): unknown => {
    const entry = zip.find(name);
    if (!entry) return undefined;
    return parseJson(zip.read(entry).toString('utf8'), `${file}!${name}`);
  };
  // An eval that was interrupted has no header.json yet: its journal holds the start record.
  const header = member('header.json') ?? member('_journal/start.json');
  if (!isRecord(header))
    throw new UserError({
      file,
      message: 'not an Inspect AI .eval log: no header.json (nor _journal/start.json) in the archive',
    });
  const samples = zip.entries.filter((e) => /^samples\/[^/]+\.json$/.test(e.name)).map((e) => member(e.name));
  return { ...header, samples };
}

function readSample(
  sample: unknown,
  index: number,
  evalInfo: Record<string, unknown>,
  problems: Problems,
): ImportedWorkup {
  const path = ['samples', index];
  if (!isRecord(sample) || !Array.isArray(sample['messages'])) {
    problems.add(
      isRecord(sample) ? [...path, 'messages'] : path,
      `expected a sample with a "messages" list, found ${describe(isRecord(sample) ? sample['messages'] : sample)}`,
    );
    problems.throwIfAny();
  }
  const s = sample as Record<string, unknown>;
  const attachments = isRecord(s['attachments']) ? s['attachments'] : {};
  const text = (content: unknown): string => {
    const raw = contentText(content);
    const ref = /^attachment:\/\/(\w+)$/.exec(raw);
    return ref && typeof attachments[ref[1]!] === 'string' ? (attachments[ref[1]!] as string) : raw;
  };
  (s['messages'] as unknown[]).forEach((m, i) => {
    if (!isRecord(m) || typeof m['role'] !== 'string')
      problems.add([...path, 'messages', i], `expected a message with a "role", found ${describe(m)}`);
  });
  problems.throwIfAny();

  const b = new StepBuilder();
  let taskInput: string | undefined;
  let lastText: string | undefined;
  let sourceCalls = 0;
  for (const m of s['messages'] as Array<Record<string, unknown>>) {
    const role = m['role'];
    if (role === 'user') taskInput ??= text(m['content']);
    else if (role === 'assistant') {
      const said = text(m['content']);
      b.thought(said);
      if (said.trim() !== '') lastText = said;
      const calls = Array.isArray(m['tool_calls']) ? m['tool_calls'].filter(isRecord) : [];
      for (const call of calls) {
        const name = typeof call['function'] === 'string' ? call['function'] : '?';
        const id = typeof call['id'] === 'string' ? call['id'] : undefined;
        b.call(name, call['arguments'], id);
        sourceCalls++;
      }
    } else if (role === 'tool') {
      const error = isRecord(m['error']) ? m['error'] : undefined;
      const id = typeof m['tool_call_id'] === 'string' ? m['tool_call_id'] : undefined;
      b.result(id, text(m['content']), {
        ...(typeof m['function'] === 'string' ? { tool: m['function'] } : {}),
        ...(error ? { error: errorText(error) } : {}),
      });
    }
  }
  const output = isRecord(s['output']) ? s['output'] : {};
  const completion = typeof output['completion'] === 'string' ? output['completion'] : '';
  const answer = completion.trim() !== '' ? completion : (lastText ?? null);
  if (answer !== null) {
    const last = b.steps.findLast((st) => st.step_type === 'thought');
    if (last && last === b.steps.at(-1) && last.content.trim() === answer.trim()) last.step_type = 'answer';
    else b.answer(answer);
  }

  const id = s['id'];
  const epoch = num(s['epoch']);
  const name = `${String(id ?? index + 1)}${epoch !== undefined ? `-epoch-${epoch}` : ''}`;
  const usage = isRecord(s['model_usage']) ? Object.values(s['model_usage']).filter(isRecord) : [];
  const tokens = usage.reduce(
    (n, u) =>
      n + ((num(u['input_tokens']) ?? 0) + (num(u['output_tokens']) ?? 0) || (num(u['total_tokens']) ?? 0)),
    0,
  );
  const cost = measuredCost(usage.reduce((n, u) => n + (num(u['total_cost']) ?? 0), 0));
  const seconds = num(s['total_time']);
  const meta: WorkupMeta = { task: String(id ?? index + 1) };
  if (epoch !== undefined) meta.trial = epoch;
  const scores = isRecord(s['scores']) ? s['scores'] : undefined;
  const firstScore = scores ? Object.values(scores).find(isRecord) : undefined;
  const reward = firstScore ? valueToFloat(firstScore['value']) : undefined;
  if (reward !== undefined) meta.outcome = { succeeded: reward >= 1, reward };
  if (scores) meta['scores'] = scores;
  const dropped: string[] = [];
  const error = s['error'];
  if (error !== undefined && error !== null) {
    meta.outcome = { ...(meta.outcome ?? {}), succeeded: false, status: 'error' };
    const message = isRecord(error) ? asText(error['message']) : asText(error);
    dropped.push(`the sample ended in an error: ${message.split('\n')[0]}`);
  } else if (isRecord(s['limit'])) {
    meta.outcome = {
      ...(meta.outcome ?? { succeeded: null }),
      status: `limit: ${asText(s['limit']['type'])}`,
    };
  }
  if (scores && firstScore && reward === undefined)
    dropped.push(
      'the first score is not a single value (a dict or list): no reward read; kept in meta.scores',
    );
  if (cost !== undefined) meta['cost_usd'] = cost;
  if (typeof evalInfo['model'] === 'string') meta['model'] = evalInfo['model'];
  const trajectory = makeTrajectory({
    task_id: name,
    task_input: taskInput ?? (typeof s['input'] === 'string' ? s['input'] : ''),
    steps: b.steps,
    final_answer: answer,
    succeeded: answer !== null,
    total_tokens: tokens,
    total_latency_ms: seconds !== undefined ? seconds * 1000 : 0,
    metadata: {
      source_format: 'inspect',
      ...(typeof evalInfo['task'] === 'string' ? { inspect_task: evalInfo['task'] } : {}),
      ...(cost !== undefined ? { cost_usd: cost } : {}),
    },
  });
  return { name, trajectory, meta, dropped, sourceToolCalls: sourceCalls };
}

/** `ToolCallError { type, message }` as one line: `timeout: Command timed out before completing.` */
function errorText(error: Record<string, unknown>): string {
  const type = typeof error['type'] === 'string' ? error['type'] : 'error';
  const message = typeof error['message'] === 'string' ? error['message'] : '';
  return message === '' ? type : `${type}: ${message}`;
}

/**
 * A score value as a number, as Inspect's `value_to_float` reads it (`inspect_ai/scorer/_metric.py`): numbers as they
 * are, booleans 1/0, `C` (correct) 1, `P` (partial) 0.5, `I` (incorrect) and `N` (no answer) 0, and the words
 * yes/true 1, no/false 0; `undefined` for anything else (a dict or list of values).
 */
export function valueToFloat(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value !== 'string') return undefined;
  const v = value;
  if (v === 'C') return 1;
  if (v === 'P') return 0.5;
  if (v === 'I' || v === 'N') return 0;
  const lower = v.toLowerCase();
  if (lower === 'yes' || lower === 'true') return 1;
  if (lower === 'no' || lower === 'false') return 0;
  const n = Number(v);
  return v.trim() !== '' && Number.isFinite(n) ? n : undefined;
}
