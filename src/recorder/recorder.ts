import { join } from 'node:path';
import { wrapInput } from '../adapters/seed.js';
import type { Fact } from '../model/fact.js';
import type { LedgerEntry } from '../model/ledger.js';
import { makeStep, makeTrajectory, type StepType, type TrajectoryStep } from '../model/trajectory.js';
import type { Workup, WorkupMeta } from '../model/workup.js';
import { parseNote } from '../note/parse.js';
import { saveWorkup } from '../workup/save.js';
import { plain } from './plain.js';
import type { Recorder, RecorderOptions, Usage } from './types.js';

/** What a ledger id (and so a citation) may hold; see the ledger-entry schema. */
const NOT_CITABLE = /[^A-Za-z0-9_.-]/g;
/** What a folder name may not hold on any common file system. */
const NOT_A_FILE_NAME = /[/\\:*?"<>|\u0000-\u001f]/g;

interface CallRecord {
  id: string;
  name: string;
  /** The input as JSON data (unwrapped, as the tool got it). */
  input: unknown;
  query: string;
  /** When the call was recorded, in epoch milliseconds. */
  time: number;
  /** Clock reading when the call was recorded, for the result's latency. */
  at: number;
  results: Fact[];
  text?: string;
  error?: string;
}

/**
 * Starts recording one agent run. Feed it from an SDK's callbacks (or by hand), then take `workup()` or `save(dir)`.
 * Per tool call it reads the clock, checks the input and output are JSON data, and makes two steps and one
 * `JSON.stringify` of the input; the ledger, the timestamps and the trajectory are assembled only in `workup()`.
 */
export function createRecorder(options: RecorderOptions): Recorder {
  const clock = options.clock ?? (() => performance.now());
  const started = clock();
  let last = started;
  const steps: TrajectoryStep[] = [];
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
  /** Each step's time in epoch milliseconds, made an ISO timestamp only in `workup()` (formatting is not free). */
  const times: number[] = [];
  const push = (type: StepType, fields: Partial<TrajectoryStep>): void => {
    steps.push(makeStep({ step_id: steps.length + 1, step_type: type, ...fields }));
    times.push(Date.now());
  };
  const freeId = (wanted: string): string => {
    let id = wanted;
    for (let n = 2; byId.has(id); n++) id = `${wanted}-${n}`;
    return id;
  };

  const recorder: Recorder = {
    toolCall(name, input, callId, timing) {
      const at = clock();
      const latency = timing?.latencyMs ?? at - last;
      last = at;
      const data = plain(input);
      const id = freeId(
        callId === undefined || callId === '' ? `g${calls.length + 1}` : callId.replace(NOT_CITABLE, '_'),
      );
      const content = data === undefined ? '' : typeof data === 'string' ? data : JSON.stringify(data);
      const call: CallRecord = {
        id,
        name,
        input: data,
        query: `${name}(${content})`,
        time: Date.now(),
        at,
        results: [],
      };
      calls.push(call);
      byId.set(id, call);
      if (callId !== undefined && callId !== id && !byId.has(callId)) byId.set(callId, call);
      push('tool_call', {
        content,
        tool_name: name,
        tool_input: wrapInput(data),
        latency_ms: latency,
        tokens_used: timing?.tokens ?? 0,
        call_id: id,
      });
      return id;
    },

    toolResult(callId, output, timing) {
      const call = byId.get(callId);
      const now = clock();
      const latency = timing?.latencyMs ?? now - (call?.at ?? last);
      last = now;
      const error = errorOf(output);
      const data = error === undefined ? plain(output) : undefined;
      if (call) {
        if (error !== undefined) call.error = error;
        else {
          if (typeof data === 'string') call.text = data;
          call.results = facts(options, call, data);
        }
      }
      push('observation', {
        content:
          error !== undefined
            ? `ERROR: ${error}`
            : typeof data === 'string'
              ? data
              : (JSON.stringify(data) ?? ''),
        tool_name: call?.name ?? null,
        tool_output: data ?? null,
        latency_ms: latency,
        tokens_used: timing?.tokens ?? 0,
        error: error ?? null,
        call_id: call?.id ?? callId,
      });
    },

    thought(text, opts) {
      push('thought', {
        content: text,
        latency_ms: opts?.latencyMs ?? elapsed(),
        tokens_used: opts?.tokens ?? 0,
      });
    },

    answer(text, opts) {
      finalAnswer = text;
      push('answer', {
        content: text,
        latency_ms: opts?.latencyMs ?? elapsed(),
        tokens_used: opts?.tokens ?? 0,
      });
    },

    note(markdown) {
      noteSource = markdown;
    },

    usage(u: Usage) {
      usage.reported = true;
      usage.inputTokens += u.inputTokens ?? 0;
      usage.outputTokens += u.outputTokens ?? 0;
      if (u.costUsd !== undefined) {
        usage.costReported = true;
        usage.costUsd += u.costUsd;
      }
    },

    setMeta(fields) {
      extraMeta = { ...extraMeta, ...fields };
    },

    fail(error) {
      failure = error instanceof Error ? error.message : String(error);
    },

    workup() {
      const stepTokens = steps.reduce((sum, step) => sum + step.tokens_used, 0);
      const stepLatency = steps.reduce((sum, step) => sum + step.latency_ms, 0);
      const trajectory = makeTrajectory({
        task_id: options.task ?? options.id,
        task_input: options.input ?? '',
        steps: steps.map((step, i) => makeStep({ ...step, timestamp: new Date(times[i]!).toISOString() })),
        final_answer: finalAnswer,
        succeeded: finalAnswer !== null && failure === undefined,
        total_tokens: usage.reported ? usage.inputTokens + usage.outputTokens : stepTokens,
        // SDK-reported latencies can exceed the recorder's own span (a result converted after the run).
        total_latency_ms: Math.max(last - started, stepLatency),
        metadata: {},
      });
      const meta = plain({ ...options.meta, ...extraMeta }) as WorkupMeta;
      if (options.task !== undefined) meta.task = options.task;
      if (options.trial !== undefined) meta.trial = options.trial;
      if (usage.reported) {
        meta.usage = {
          inputTokens: usage.inputTokens,
          outputTokens: usage.outputTokens,
          ...(usage.costReported ? { costUsd: usage.costUsd } : {}),
        };
      }
      if (failure !== undefined) meta.error = failure;
      const workup: Workup = { id: options.id, ledger: calls.map(ledgerEntry), trajectory, meta };
      if (noteSource !== undefined) workup.note = parseNote(noteSource);
      return workup;
    },

    save(dir) {
      return saveWorkup(recorder.workup(), join(dir, options.id.replace(NOT_A_FILE_NAME, '_')));
    },
  };
  return recorder;
}

/** The message of an `{ error }` result: an object with that one key holding a string (or an `Error`). */
function errorOf(output: unknown): string | undefined {
  if (output instanceof Error) return output.message;
  if (output === null || typeof output !== 'object') return undefined;
  const keys = Object.keys(output);
  if (keys.length !== 1 || keys[0] !== 'error') return undefined;
  const error = (output as { error: unknown }).error;
  if (typeof error === 'string') return error;
  return error instanceof Error ? error.message : undefined;
}

function facts(options: RecorderOptions, call: CallRecord, output: unknown): Fact[] {
  const mapped = options.ledger?.({ name: call.name, input: call.input, output });
  if (!mapped) return [];
  return mapped.map((fact) => {
    const made: Fact = { subject: fact.subject, relation: fact.relation, object: fact.object };
    if (fact.store !== undefined) made.store = fact.store;
    return made;
  });
}

function ledgerEntry(call: CallRecord): LedgerEntry {
  const entry: LedgerEntry = {
    id: call.id,
    store: call.results[0]?.store ?? (call.name || 'tool'),
    query: call.query,
    results: call.results,
    ts: new Date(call.time).toISOString(),
  };
  if (call.text !== undefined) entry.text = call.text;
  if (call.error !== undefined) entry.error = call.error;
  return entry;
}
