import { join } from 'node:path';
import { wrapInput } from '../adapters/trajectory-json.js';
import { redactSecrets } from '../cassette/secrets.js';
import { type Diagnostic, UserError } from '../errors/index.js';
import type { Fact } from '../model/fact.js';
import type { LedgerEntry } from '../model/ledger.js';
import { makeStep, makeTrajectory, type StepType, type TrajectoryStep } from '../model/trajectory.js';
import type { Workup, WorkupMeta } from '../model/workup.js';
import { parseNote } from '../note/index.js';
import { MAX_DEPTH } from '../parse/depth.js';
import { safeFolderName } from '../workup/folder-name.js';
import { plain } from '../workup/plain.js';
import { saveWorkup } from '../workup/save.js';
import { trialFieldProblems } from '../workup/trial-layout.js';
import type { Recorder, RecorderOptions, Usage } from './types.js';

/** What a ledger id (and so a citation) may hold; see the ledger-entry schema. */
const NOT_CITABLE = /[^A-Za-z0-9_.-]/g;

interface CallRecord {
  id: string;
  name: string;
  /** The input as JSON data (unwrapped, as the tool got it). */
  input: unknown;
  /** When the call was recorded, in epoch milliseconds. */
  time: number;
  /** Clock reading when the call was recorded, for the result's latency. */
  at: number;
  /** The result as JSON data, once there is one (and it is no error). */
  output?: unknown;
  error?: string;
  /** The ledger facts of the result, mapped once, when a workup first needs them. */
  results?: Fact[];
}

/** One recorded step, kept raw: its text and timestamp are made only when a workup is assembled. */
interface Event {
  type: StepType;
  /** The text of a thought or answer; for a tool call or observation, made from `value` later. */
  text: string | undefined;
  call: CallRecord | undefined;
  /** A call's input or a result's output, as JSON data. */
  value: unknown;
  callId: string | undefined;
  latency: number;
  tokens: number;
  error: string | undefined;
  /** Epoch milliseconds. */
  time: number;
}

/**
 * Starts recording one agent run. Feed it from an SDK's callbacks (or by hand), then take `workup()` or `save(dir)`.
 * Per tool call it reads the clock, checks the input and output are JSON data and keeps them as they are; the step
 * texts, the timestamps, the ledger facts and the trajectory are made only in `workup()`, off the agent's path.
 */
export function createRecorder(options: RecorderOptions): Recorder {
  if (options === null || typeof options !== 'object')
    refuseArgument('recorder', 'createRecorder', 'the options', 'an object with an id', options);
  /** Where the recorder's refusals say they come from. */
  const where = `recorder "${String(options.id)}"`;
  if (options.input !== undefined && typeof options.input !== 'string')
    refuseArgument(where, 'createRecorder', 'the input', 'a string', options.input);
  refuseMeta(where, 'createRecorder', options.meta);
  refuseUnloadable(options.id, {
    task: options.task !== undefined ? options.task : options.meta?.['task'],
    trial: options.trial !== undefined ? options.trial : options.meta?.['trial'],
  });
  const clock = options.clock ?? (() => performance.now());
  const started = clock();
  let last = started;
  const events: Event[] = [];
  const calls: CallRecord[] = [];
  /** Call records by the id used and by the id the SDK gave, so a result finds its call either way. */
  const byId = new Map<string, CallRecord>();
  let noteSource: string | undefined;
  let finalAnswer: string | null = null;
  let failure: string | undefined;
  let extraMeta: Record<string, unknown> = {};
  const usage = { inputTokens: 0, outputTokens: 0, costUsd: 0, reported: false, costReported: false };

  /** Milliseconds since the previous step, and the clock moved on to now. */
  const elapsed = (): number => {
    const now = clock();
    const spent = now - last;
    last = now;
    return spent;
  };
  const freeId = (wanted: string): string => {
    let id = wanted;
    for (let n = 2; byId.has(id); n++) id = `${wanted}-${n}`;
    return id;
  };
  const said = (type: 'thought' | 'answer', text: string, opts?: { tokens?: number; latencyMs?: number }) => {
    if (typeof text !== 'string') refuseArgument(where, type, 'the text', 'a string', text);
    refuseTiming(where, type, opts);
    if (type === 'answer') finalAnswer = text;
    const latency = opts?.latencyMs ?? elapsed();
    events.push({
      type,
      text,
      call: undefined,
      value: undefined,
      callId: undefined,
      latency,
      tokens: opts?.tokens ?? 0,
      error: undefined,
      time: Date.now(),
    });
  };
  /** The ledger facts of a call's result, mapped by the `ledger` option once and copied to the fact shape. */
  const resultsOf = (call: CallRecord): Fact[] => {
    if (call.results) return call.results;
    const mapped =
      call.error === undefined && 'output' in call
        ? options.ledger?.({ name: call.name, input: call.input, output: call.output })
        : undefined;
    call.results = (mapped ?? []).map((fact) => {
      const made: Fact = { subject: fact.subject, relation: fact.relation, object: fact.object };
      if (fact.store !== undefined) made.store = fact.store;
      return made;
    });
    return call.results;
  };

  const recorder: Recorder = {
    toolCall(name, input, givenId, timing) {
      if (typeof name !== 'string' || name === '')
        refuseArgument(where, 'toolCall', 'the tool name', 'a non-empty string', name);
      const callId = callIdOf(where, 'toolCall', givenId);
      refuseTiming(where, 'toolCall', timing);
      const data = plain(input);
      // `plain` keeps a value as it is only when it nests at most 64 levels: only a copy can be too deep.
      if (data !== input) refuseDeep(where, 'toolCall', 'the input', data, TOOL_VALUE_DEPTH);
      const at = clock();
      const latency = timing?.latencyMs ?? at - last;
      last = at;
      const id = freeId(
        callId === undefined || callId === '' ? `g${calls.length + 1}` : callId.replace(NOT_CITABLE, '_'),
      );
      const time = Date.now();
      const call: CallRecord = { id, name, input: data, time, at };
      calls.push(call);
      byId.set(id, call);
      if (callId !== undefined && callId !== id && !byId.has(callId)) byId.set(callId, call);
      events.push({
        type: 'tool_call',
        text: undefined,
        call,
        value: data,
        callId: id,
        latency,
        tokens: timing?.tokens ?? 0,
        error: undefined,
        time,
      });
      return id;
    },

    toolResult(givenId, output, timing) {
      const callId = callIdOf(where, 'toolResult', givenId);
      refuseTiming(where, 'toolResult', timing);
      const error = errorOf(output);
      const data = error === undefined ? plain(output) : undefined;
      if (data !== output) refuseDeep(where, 'toolResult', 'the output', data, TOOL_VALUE_DEPTH);
      const call = callId === undefined ? undefined : byId.get(callId);
      const now = clock();
      const latency = timing?.latencyMs ?? now - (call?.at ?? last);
      last = now;
      if (call) {
        call.results = undefined;
        if (error !== undefined) call.error = error;
        else call.output = data;
      }
      events.push({
        type: 'observation',
        text: undefined,
        call,
        value: data,
        callId: call?.id ?? callId,
        latency,
        tokens: timing?.tokens ?? 0,
        error,
        time: Date.now(),
      });
    },

    thought(text, opts) {
      said('thought', text, opts);
    },

    answer(text, opts) {
      said('answer', text, opts);
    },

    note(markdown) {
      if (typeof markdown !== 'string') refuseArgument(where, 'note', 'the note', 'a string', markdown);
      noteSource = markdown;
    },

    usage(u: Usage) {
      if (u === null || typeof u !== 'object')
        refuseArgument(where, 'usage', 'the usage', 'an object { inputTokens, outputTokens, costUsd }', u);
      for (const key of ['inputTokens', 'outputTokens', 'costUsd'] as const)
        refuseCount(where, 'usage', key, u[key]);
      usage.reported = true;
      usage.inputTokens += u.inputTokens ?? 0;
      usage.outputTokens += u.outputTokens ?? 0;
      if (u.costUsd !== undefined) {
        usage.costReported = true;
        usage.costUsd += u.costUsd;
      }
    },

    setMeta(fields) {
      if (fields === null || typeof fields !== 'object' || Array.isArray(fields))
        refuseArgument(where, 'setMeta', 'the fields', 'an object', fields);
      refuseMeta(where, 'setMeta', fields);
      refuseUnloadable(options.id, {
        task: options.task !== undefined ? options.task : fields['task'],
        trial: options.trial !== undefined ? options.trial : fields['trial'],
      });
      extraMeta = { ...extraMeta, ...fields };
    },

    fail(error) {
      failure = error instanceof Error ? error.message : String(error);
    },

    workup() {
      let stepTokens = 0;
      let stepLatency = 0;
      const steps = events.map((event, i) => {
        stepTokens += event.tokens;
        stepLatency += event.latency;
        return step(event, i + 1);
      });
      const trajectory = makeTrajectory({
        task_id: options.task ?? options.id,
        task_input: redactText(options.input ?? ''),
        steps,
        final_answer: finalAnswer === null ? null : redactText(finalAnswer),
        succeeded: finalAnswer !== null && failure === undefined,
        total_tokens: usage.reported ? usage.inputTokens + usage.outputTokens : stepTokens,
        // SDK-reported latencies can exceed the recorder's own span (a result converted after the run).
        total_latency_ms: Math.max(last - started, stepLatency),
        metadata: {},
      });
      const meta = redactSecrets(plain({ ...options.meta, ...extraMeta })) as WorkupMeta;
      if (options.task !== undefined) meta.task = options.task;
      // As it is written: a bigint, or an integer past 2^53, is kept as the loader reads it back.
      if (options.trial !== undefined) meta.trial = plain(options.trial) as number | string;
      if (usage.reported) {
        meta.usage = {
          inputTokens: usage.inputTokens,
          outputTokens: usage.outputTokens,
          ...(usage.costReported ? { costUsd: usage.costUsd } : {}),
        };
      }
      if (failure !== undefined) meta.error = redactText(failure);
      const ledger = calls.map((call) => ledgerEntry(call, resultsOf(call)));
      const workup: Workup = { id: options.id, ledger, trajectory, meta };
      if (noteSource !== undefined) workup.note = parseNote(redactText(noteSource));
      return workup;
    },

    save(dir) {
      return saveWorkup(recorder.workup(), join(dir, safeFolderName(options.id)));
    },
  };
  return recorder;
}

/**
 * How deep a tool's input or output may nest: `trajectory.json` holds it in a step of its `steps` list (three levels,
 * and one more when a value that is not an object is wrapped as `{ input }`), and `loadWorkup` reads no deeper than
 * `MAX_DEPTH`.
 */
const TOOL_VALUE_DEPTH = MAX_DEPTH - 4;

/** How deep a `meta.json` field may nest: the file's object is one level. */
const META_VALUE_DEPTH = MAX_DEPTH - 1;

/** The nesting depth of JSON data (a scalar 0, `[]` and `{}` 1), without recursion: `plain` data has no cycle. */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** A value nested too deep to be read back, refused when it is recorded rather than written and then refused. */
function refuseDeep(where: string, method: string, what: string, value: unknown, max: number): void {
  const depth = depthOf(value);
  if (depth <= max) return;
  throw new UserError({
    file: where,
    message: `${method}: ${what} is nested ${depth} levels deep; a saved workup is read to ${MAX_DEPTH} levels, so at most ${max} here`,
  });
}

/** Extra `meta.json` fields: an object whose values are not nested too deep (`undefined`: none). */
function refuseMeta(where: string, method: string, fields: unknown): void {
  if (fields === undefined) return;
  if (fields === null || typeof fields !== 'object' || Array.isArray(fields))
    refuseArgument(where, method, 'the meta fields', 'an object', fields);
  for (const [key, value] of Object.entries(fields))
    refuseDeep(where, method, `meta field ${JSON.stringify(key)}`, plain(value), META_VALUE_DEPTH);
}

/** A count, duration or cost a step or the run records: absent, or a finite number, never negative. */
function refuseCount(where: string, method: string, name: string, value: unknown): void {
  if (value === undefined || (typeof value === 'number' && Number.isFinite(value) && value >= 0)) return;
  refuseArgument(where, method, name, 'a finite number, 0 or more', value);
}

/** A step's timing (`{ latencyMs, tokens }`), absent or with counts `refuseCount` takes. */
function refuseTiming(where: string, method: string, timing: unknown): void {
  if (timing === undefined) return;
  if (timing === null || typeof timing !== 'object')
    refuseArgument(where, method, 'the timing', 'an object { latencyMs, tokens }', timing);
  const { latencyMs, tokens } = timing as { latencyMs?: unknown; tokens?: unknown };
  refuseCount(where, method, 'latencyMs', latencyMs);
  refuseCount(where, method, 'tokens', tokens);
}

/**
 * A call id as the trajectory keeps it: a string; a finite number (some SDKs number their calls) is written as its
 * decimal text. Anything else is refused when it is recorded, not when the workup is read back.
 */
function callIdOf(where: string, method: string, value: unknown): string | undefined {
  if (value === undefined || typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return refuseArgument(where, method, 'the call id', 'a string or a number', value);
}

/** A recorder method's argument of the wrong kind, as a `UserError` naming the method, the argument and its value. */
function refuseArgument(
  where: string,
  method: string,
  what: string,
  expected: string,
  value: unknown,
): never {
  const text = shown(value);
  throw new UserError({
    file: where,
    message: `${method}: ${what} must be ${expected}, got ${text.length > 80 ? `${text.slice(0, 80)}...` : text}`,
  });
}

/** A value as a refusal quotes it: its JSON (bigints as numbers), or its text where JSON has none. */
function shown(value: unknown): string {
  return JSON.stringify(plain(value)) ?? String(value);
}

/**
 * Refuses, when the run is recorded, what `loadWorkup` would refuse when it is read back: an empty id, a task that is
 * not a non-empty string, a trial that is neither a positive integer nor a non-empty label.
 */
function refuseUnloadable(id: unknown, fields: { task?: unknown; trial?: unknown }): void {
  const where = `recorder "${String(id)}"`;
  const problems: Diagnostic[] =
    typeof id === 'string' && id !== ''
      ? []
      : [
          {
            file: where,
            message: `id must be a non-empty string, got ${shown(id)}`,
          },
        ];
  // As they will be written: a bigint trial is a number or decimal text by then.
  const given = plain(
    Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)),
  ) as Record<string, unknown>;
  for (const d of trialFieldProblems(given, where, () => undefined)) problems.push(d);
  if (problems.length > 0) throw new UserError(problems);
}

/**
 * A recorded event as a trajectory step, in the trajectory format's shape. Credentials are redacted here, as a cassette redacts
 * them (`redactSecrets`: credential-named fields at any depth, key-shaped strings), so no saved workup holds a key.
 */
function step(event: Event, stepId: number): TrajectoryStep {
  const value = redactSecrets(event.value);
  const error = event.error === undefined ? undefined : redactText(event.error);
  const fields: Partial<TrajectoryStep> = {
    latency_ms: event.latency,
    tokens_used: event.tokens,
    timestamp: new Date(event.time).toISOString(),
  };
  switch (event.type) {
    case 'tool_call':
      fields.content = text(value);
      fields.tool_name = event.call!.name;
      fields.tool_input = wrapInput(value);
      fields.call_id = event.callId!;
      break;
    case 'observation':
      fields.content = error !== undefined ? `ERROR: ${error}` : text(value);
      fields.tool_name = event.call?.name ?? null;
      fields.tool_output = value ?? null;
      fields.error = error ?? null;
      fields.call_id = event.callId!;
      break;
    default:
      fields.content = redactText(event.text ?? '');
  }
  return makeStep({ step_id: stepId, step_type: event.type, ...fields });
}

/** A tool input or output as step text: a string as it is, anything else as JSON. */
function text(value: unknown): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

/** The message of an `{ error }` result: an object with that one key holding a string (or an `Error`). */
function errorOf(output: unknown): string | undefined {
  if (output instanceof Error) return output.message;
  if (output === null || typeof output !== 'object' || Array.isArray(output)) return undefined;
  const keys = Object.keys(output);
  if (keys.length !== 1 || keys[0] !== 'error') return undefined;
  const error = (output as { error: unknown }).error;
  if (typeof error === 'string') return error;
  return error instanceof Error ? error.message : undefined;
}

function ledgerEntry(call: CallRecord, results: Fact[]): LedgerEntry {
  const entry: LedgerEntry = {
    id: call.id,
    store: results[0]?.store ?? (call.name || 'tool'),
    query: `${call.name}(${text(redactSecrets(call.input))})`,
    results: redactSecrets(results) as Fact[],
    ts: new Date(call.time).toISOString(),
  };
  if (typeof call.output === 'string') entry.text = redactText(call.output);
  if (call.error !== undefined) entry.error = redactText(call.error);
  return entry;
}

function redactText(text: string): string {
  return redactSecrets(text) as string;
}
