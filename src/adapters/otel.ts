import { UserError } from '../errors/index.js';
import type { Trajectory, TrajectoryStep } from '../model/trajectory.js';
import { makeStep, makeTrajectory } from '../model/trajectory.js';
import { stringifyJson } from '../parse/json.js';
import { type AdapterSource, asText, Problems, toolInput, toolOutput } from './common.js';
import {
  classify,
  cost,
  first,
  firstUserText,
  inputMessages,
  outputMessages,
  runInput,
  runOutput,
  str,
  tokens,
  toolArguments,
  toolCallId,
  toolName,
  toolResult,
} from './genai.js';
import { groupByTrace, readSpans, type Span } from './otlp.js';

export type { OtelConvention } from './genai.js';

export interface OtelOptions extends AdapterSource {
  /** Which trace to read when the export holds several (compared as the exact id string). */
  traceId?: string;
}

/**
 * Reads an OTLP/JSON trace export (`resourceSpans[].scopeSpans[].spans[]`, as the OTLP file and HTTP exporters write
 * it; an array of such exports, one per JSONL line, is read as one) into a seed-002 `Trajectory`. The file must hold
 * one trace, or `options.traceId` picks one; `fromOtelTraces` reads them all.
 *
 * Spans are read by the OpenTelemetry GenAI semantic conventions and by the agent-SDK exports of them (see
 * `OtelConvention`). A tool span (`execute_tool`, OpenInference `TOOL`, Traceloop `tool`, Vercel `ai.toolCall`) gives a
 * `tool_call` step at its start and an `observation` at its end (or where the model call that reads it starts, if
 * earlier), linked by the tool call id (the span id when the span has none), the observation carrying the span's
 * duration and its error (status `ERROR` or an `exception` event), written `ERROR: message` as seed 002's
 * `TrajectoryLogger.on_tool_error` writes it. A model span (`chat`, OpenInference `LLM`, Traceloop `llm.request.type`,
 * Vercel `doGenerate`/`doStream`) gives a `thought` with its output text, tokens and duration; tool calls it requested
 * that no tool span executed become `tool_call` steps. The run's final answer is the outermost agent span's output
 * (`invoke_agent`, OpenInference `AGENT`, Traceloop `agent`/`workflow`, Vercel `ai.generateText`), or else the last
 * model output that asked for no tool. Steps are ordered by time, compared as exact nanosecond integers, never as
 * floating-point numbers.
 */
export function fromOtelSpans(otlpJson: unknown, options: OtelOptions = {}): Trajectory {
  const file = options.file ?? '<otlp trace>';
  const traces = groupByTrace(readSpans(otlpJson, new Problems(file, options.locate)));
  const ids = [...traces.keys()];
  if (options.traceId !== undefined) {
    const spans = traces.get(options.traceId);
    if (!spans) {
      throw new UserError({
        file,
        message: `no trace with id ${options.traceId}; the file holds ${ids.join(', ')}`,
      });
    }
    return trajectoryOfTrace(options.traceId, spans);
  }
  if (ids.length > 1) {
    throw new UserError({
      file,
      message: `the file holds ${ids.length} traces (${ids.join(', ')}); choose one (needlework import --trace <id>, or the traceId option)`,
    });
  }
  return trajectoryOfTrace(ids[0]!, traces.get(ids[0]!)!);
}

/** Every trace in an OTLP/JSON export, one `Trajectory` each, in the order their first spans appear. */
export function fromOtelTraces(otlpJson: unknown, options: AdapterSource = {}): Trajectory[] {
  const traces = groupByTrace(
    readSpans(otlpJson, new Problems(options.file ?? '<otlp trace>', options.locate)),
  );
  return [...traces].map(([id, spans]) => trajectoryOfTrace(id, spans));
}

/** A step waiting for its place: ordered by `at` (exact nanoseconds), then by the order it was made in. */
interface Pending {
  at: bigint;
  seq: number;
  step: Omit<TrajectoryStep, 'step_id'>;
  /** A model output that asked for no tool: the final answer when nothing follows it. */
  answerCandidate?: boolean;
}

function iso(at: bigint | undefined): string | null {
  if (at === undefined) return null;
  const ms = at / 1_000_000n;
  return ms > 8_640_000_000_000_000n ? null : new Date(Number(ms)).toISOString();
}

/** When a span ended; a span with no end, or an end before its start, ends where it started. */
function finish(span: Span): bigint {
  return span.end !== undefined && span.end > span.start ? span.end : span.start;
}

function durationMs(span: Span): number {
  if (span.end === undefined || span.end < span.start) return 0;
  return Number(span.end - span.start) / 1e6;
}

/**
 * One trace's spans (from any reader: OTLP/JSON here, SDK span JSON in `otel-sdk.ts`) as a `Trajectory`, read as
 * `fromOtelSpans` describes. `spans` must be non-empty and share `traceId`. `finalOutput`, when the file records the
 * run's answer beside its spans (any-agent's `AgentTrace.final_output`), is the answer, before any span's output.
 * The cost is the sum of the spans' recorded costs (see `cost`), else the run span's, in `metadata.cost_usd`.
 */
export function trajectoryOfTrace(traceId: string, spans: readonly Span[], finalOutput?: string): Trajectory {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const depth = (span: Span): number => {
    let d = 0;
    const seen = new Set<string>();
    for (
      let p = span.parentSpanId;
      p !== undefined && byId.has(p) && !seen.has(p);
      p = byId.get(p)!.parentSpanId
    ) {
      seen.add(p);
      d++;
    }
    return d;
  };
  const sorted = [...spans].sort((x, y) => compare(x.start, y.start) || x.order - y.order);
  const classified = sorted.map((span) => ({ span, ...classify(span) }));
  const conventions = [...new Set(classified.flatMap((c) => (c.convention ? [c.convention] : [])))].sort();

  const pending: Pending[] = [];
  let seq = 0;
  const push = (at: bigint, step: Omit<TrajectoryStep, 'step_id'>, answerCandidate = false): Pending => {
    const entry: Pending = { at, seq: seq++, step, ...(answerCandidate ? { answerCandidate } : {}) };
    pending.push(entry);
    return entry;
  };
  const blank = (): Omit<TrajectoryStep, 'step_id' | 'step_type'> => {
    const { step_id: _, step_type: __, ...rest } = makeStep({ step_id: 0, step_type: 'thought' });
    return rest;
  };

  // Tool spans first, so a model span knows which of the calls it requested were executed (and traced).
  const executed = new Map<string, Pending>();
  // Each traced call's result, and the model span that asked for the call (once a model's request is matched to it).
  const resultOf = new Map<Pending, Pending>();
  const askedBy = new Map<Pending, Span>();
  const executedNames = new Set<string>();
  // Tool spans that record no call id (OpenLLMetry, any-agent), by tool name in time order: a model's request with an
  // id is matched to the first of these after the model call, so the call is not counted twice.
  const unlinked = new Map<string, Pending[]>();
  let totalTokens = 0;
  let totalCost: number | undefined;
  const addCost = (span: Span): void => {
    const spent = cost(span);
    if (spent !== undefined) totalCost = (totalCost ?? 0) + spent;
  };
  for (const { span, kind } of classified) {
    if (kind !== 'tool') continue;
    addCost(span);
    const name = toolName(span);
    const id = toolCallId(span);
    const args = toolArguments(span);
    const input = toolInput(args);
    const result = toolResult(span);
    const spent = tokens(span);
    totalTokens += spent;
    const call = push(span.start, {
      ...blank(),
      step_type: 'tool_call',
      content: typeof args === 'string' ? args : (stringifyJson(input) ?? ''),
      tool_name: name,
      tool_input: input,
      timestamp: iso(span.start),
      tokens_used: spent,
      call_id: id ?? span.spanId,
    });
    const observation = push(finish(span), {
      ...blank(),
      step_type: 'observation',
      content: span.error !== undefined ? `ERROR: ${span.error}` : asText(result),
      tool_name: name,
      tool_output: toolOutput(result),
      timestamp: iso(finish(span)),
      latency_ms: durationMs(span),
      error: span.error ?? null,
      call_id: id ?? span.spanId,
    });
    resultOf.set(call, observation);
    if (id !== undefined) executed.set(id, call);
    else {
      const list = unlinked.get(name);
      if (list) list.push(call);
      else unlinked.set(name, [call]);
    }
    executedNames.add(name);
  }

  for (const { span, kind } of classified) {
    if (kind !== 'llm') continue;
    const outputs = outputMessages(span).filter((m) => m.role === 'assistant' || m.role === 'model');
    const text = outputs
      .map((m) => m.text)
      .filter((t) => t.trim() !== '')
      .join('\n');
    const calls = outputs.flatMap((m) => m.calls);
    const spent = tokens(span);
    totalTokens += spent;
    addCost(span);
    let carrier: Pending | undefined;
    if (text !== '' || span.error !== undefined) {
      carrier = push(
        span.start,
        {
          ...blank(),
          step_type: 'thought',
          content: text,
          timestamp: iso(span.start),
          latency_ms: durationMs(span),
          error: span.error ?? null,
        },
        calls.length === 0 && text !== '' && span.error === undefined,
      );
    }
    for (const call of calls) {
      const traced =
        call.id !== undefined ? (executed.get(call.id) ?? claim(unlinked, call.name, span.start)) : undefined;
      if (traced && !askedBy.has(traced)) askedBy.set(traced, span);
      if (traced || (call.id === undefined && executedNames.has(call.name))) {
        // A tool span that recorded no arguments takes those the model asked it with (same call id).
        if (traced && isEmpty(traced.step.tool_input) && call.arguments !== undefined) {
          const input = toolInput(call.arguments);
          traced.step.tool_input = input;
          traced.step.content =
            typeof call.arguments === 'string' ? call.arguments : (stringifyJson(input) ?? '');
        }
        carrier ??= traced;
        continue;
      }
      const input = toolInput(call.arguments);
      const step = push(finish(span), {
        ...blank(),
        step_type: 'tool_call',
        content: typeof call.arguments === 'string' ? call.arguments : (stringifyJson(input) ?? ''),
        tool_name: call.name,
        tool_input: input,
        timestamp: iso(finish(span)),
        ...(call.id !== undefined ? { call_id: call.id } : {}),
      });
      carrier ??= step;
    }
    if (carrier) carrier.step.tokens_used += spent;
  }

  // The run: the outermost agent span, else the trace's root span when it says what went in and came out.
  const agents = classified.filter((c) => c.kind === 'agent').map((c) => c.span);
  const root = classified.find((c) => c.kind === 'other' && depth(c.span) === 0)?.span;
  const run = agents.sort((x, y) => depth(x) - depth(y))[0] ?? root;
  const finalFromRun = finalOutput ?? (run ? runOutput(run) : undefined);
  // Spans that gave no step (HTTP calls, retrievers, framework internals), counted by name so the import says so.
  const skipped: Record<string, number> = {};
  for (const c of classified) {
    if (c.kind === 'other' && c.span !== run) skipped[c.span.name] = (skipped[c.span.name] ?? 0) + 1;
  }

  placeResults(classified, askedBy, resultOf);
  inTimeOrder(pending);
  const lastModel = pending.findLastIndex((p) => p.step.step_type === 'thought');
  const lastCall = pending.findLastIndex((p) => p.step.step_type === 'tool_call');
  const candidate =
    lastModel > lastCall && pending[lastModel]!.answerCandidate ? pending[lastModel] : undefined;
  let finalAnswer: string | null = null;
  if (finalFromRun !== undefined && finalFromRun.trim() !== '') {
    finalAnswer = finalFromRun;
    if (candidate && candidate.step.content.trim() === finalFromRun.trim())
      candidate.step.step_type = 'answer';
    else {
      // An answer recorded beside the spans, in a trace with no run span, comes after the last span ended.
      const at = run ? finish(run) : spans.reduce((max, s) => (finish(s) > max ? finish(s) : max), 0n);
      push(at, { ...blank(), step_type: 'answer', content: finalFromRun, timestamp: iso(at) });
    }
  } else if (candidate) {
    candidate.step.step_type = 'answer';
    finalAnswer = candidate.step.content;
  }
  inTimeOrder(pending);

  let taskInput = run ? runInput(run) : undefined;
  // The first model call that was given a user message, read only as far as needed (a trace may hold thousands).
  for (let i = 0; taskInput === undefined && i < classified.length; i++) {
    if (classified[i]!.kind === 'llm') taskInput = firstUserText(inputMessages(classified[i]!.span));
  }
  if (totalTokens === 0 && run) totalTokens = tokens(run);
  if (totalCost === undefined && run) totalCost = cost(run);
  const start = sorted[0]!.start;
  const end = spans.reduce<bigint>((max, s) => (s.end !== undefined && s.end > max ? s.end : max), start);
  const model = classified
    .map((c) => str(first(c.span.attrs, ['gen_ai.request.model', 'llm.model_name', 'ai.model.id'])))
    .find((m) => m !== undefined);
  const service = str(sorted[0]!.resource['service.name']);

  return makeTrajectory({
    task_id: traceId,
    task_input: taskInput ?? '',
    steps: pending.map((p, i) => ({ step_id: i + 1, ...p.step })),
    final_answer: finalAnswer,
    succeeded: finalAnswer !== null && run?.error === undefined,
    total_tokens: totalTokens,
    total_latency_ms: run?.end !== undefined ? durationMs(run) : Number(end - start) / 1e6,
    metadata: {
      source_format: 'otel',
      trace_id: traceId,
      conventions,
      span_count: spans.length,
      ...(run ? { run_span_id: run.spanId } : {}),
      ...(Object.keys(skipped).length > 0 ? { spans_skipped: skipped } : {}),
      ...(service !== undefined ? { service_name: service } : {}),
      ...(model !== undefined ? { model } : {}),
      ...(run?.error !== undefined ? { run_error: run.error } : {}),
      ...(totalCost !== undefined ? { cost_usd: totalCost } : {}),
    },
  });
}

/**
 * Takes the first tool call of `name` that started at or after `from` out of `pool`, if any. Each list is in order of
 * start (the tool spans are read in that order), so the call is found by bisection, not by a sort and a scan per
 * request (20,000 model calls each asking for a call that only an unlinked tool span recorded took 6.5 s).
 */
function claim(pool: Map<string, Pending[]>, name: string, from: bigint): Pending | undefined {
  const list = pool.get(name);
  if (!list) return undefined;
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (list[mid]!.at < from) low = mid + 1;
    else high = mid;
  }
  return low === list.length ? undefined : list.splice(low, 1)[0];
}

/**
 * Places each result no later than the model call that reads it: the next model span of the parent of the one that
 * asked for the call (an agent's loop: ask, run the tools, call the model with their results). A tool span normally
 * ends before that call starts; replayed, a model answers at once, and the AI SDK has ended a tool's span after the
 * next call (and the tools it asked for) had started, which put the result after them. Never before its own call;
 * only the place moves (the result keeps the span's end as its timestamp, and its duration).
 */
function placeResults(
  classified: ReadonlyArray<{ span: Span; kind: string }>,
  askedBy: ReadonlyMap<Pending, Span>,
  resultOf: ReadonlyMap<Pending, Pending>,
): void {
  if (askedBy.size === 0) return;
  // The model span that follows each model span under the same parent (`classified` is in order of start).
  const next = new Map<Span, Span>();
  const last = new Map<string | undefined, Span>();
  for (const { span, kind } of classified) {
    if (kind !== 'llm') continue;
    const before = last.get(span.parentSpanId);
    if (before) next.set(before, span);
    last.set(span.parentSpanId, span);
  }
  for (const [call, model] of askedBy) {
    const reader = next.get(model);
    const result = resultOf.get(call);
    if (!reader || !result || reader.start >= result.at) continue;
    result.at = reader.start > call.at ? reader.start : call.at;
  }
}

/**
 * Sorts steps by time, then by the order they were made in. Times are compared exactly: as numbers of nanoseconds
 * after the earliest one when every offset is a safe integer (any trace shorter than 104 days), which sorts 20,000
 * steps several times faster than comparing bigints; as bigints otherwise.
 */
function inTimeOrder(pending: Pending[]): void {
  if (pending.length === 0) return;
  const origin = pending.reduce((min, p) => (p.at < min ? p.at : min), pending[0]!.at);
  const span = pending.reduce((max, p) => (p.at > max ? p.at : max), origin) - origin;
  if (span > BigInt(Number.MAX_SAFE_INTEGER)) {
    pending.sort((x, y) => compare(x.at, y.at) || x.seq - y.seq);
    return;
  }
  const keyed = pending.map((p) => ({ p, key: Number(p.at - origin) }));
  keyed.sort((x, y) => x.key - y.key || x.p.seq - y.p.seq);
  keyed.forEach((k, i) => {
    pending[i] = k.p;
  });
}

function isEmpty(input: Record<string, unknown> | null): boolean {
  return input === null || Object.keys(input).length === 0;
}

function compare(x: bigint, y: bigint): number {
  return x < y ? -1 : x > y ? 1 : 0;
}
