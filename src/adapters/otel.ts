import { UserError } from '../errors/index.js';
import type { Trajectory, TrajectoryStep } from '../model/trajectory.js';
import { makeStep, makeTrajectory } from '../model/trajectory.js';
import {
  type AdapterSource,
  asText,
  describe,
  isRecord,
  Problems,
  toolInput,
  toolOutput,
  tryParseJson,
} from './common.js';

export interface OtelOptions extends AdapterSource {
  /** Which trace to read when the export holds several (compared as the exact id string). */
  traceId?: string;
}

/**
 * The span conventions an OTel adapter reads, as listed in a trajectory's `metadata.conventions`:
 * - `gen_ai`: the OpenTelemetry GenAI semantic conventions (`gen_ai.operation.name`, `gen_ai.tool.*`,
 *   `gen_ai.input.messages`/`gen_ai.output.messages`, the older `gen_ai.prompt`/`gen_ai.completion` and their events);
 * - `openinference`: Arize OpenInference (`openinference.span.kind`, `input.value`, `output.value`, `llm.*`);
 * - `traceloop`: OpenLLMetry / Traceloop (`traceloop.span.kind`, `traceloop.entity.*`, flattened `gen_ai.prompt.N.*`);
 * - `vercel_ai`: the Vercel AI SDK's telemetry (`ai.operationId`, `ai.toolCall.*`, `ai.response.*`, `ai.usage.*`).
 */
export type OtelConvention = 'gen_ai' | 'openinference' | 'traceloop' | 'vercel_ai';

type Kind = 'tool' | 'llm' | 'agent' | 'other';

interface SpanEvent {
  name: string;
  attrs: Record<string, unknown>;
}

/** One span of the export, its attributes decoded from OTLP `AnyValue`s into plain values. */
interface Span {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  start: bigint;
  end: bigint | undefined;
  attrs: Record<string, unknown>;
  events: SpanEvent[];
  error: string | undefined;
  resource: Record<string, unknown>;
  /** Position in the file, so spans that start at the same nanosecond keep the order they were written in. */
  order: number;
}

/** A tool call or result as any of the conventions' message formats describe it. */
interface Message {
  role: string;
  text: string;
  calls: Array<{ id?: string; name: string; arguments: unknown }>;
}

/**
 * Reads an OTLP/JSON trace export (`resourceSpans[].scopeSpans[].spans[]`, as the OTLP file and HTTP exporters write
 * it; an array of such exports, one per JSONL line, is read as one) into a seed-002 `Trajectory`. The file must hold
 * one trace, or `options.traceId` picks one; `fromOtelTraces` reads them all.
 *
 * Spans are read by the OpenTelemetry GenAI semantic conventions and by the agent-SDK exports of them (see
 * `OtelConvention`). A tool span (`execute_tool`, OpenInference `TOOL`, Traceloop `tool`, Vercel `ai.toolCall`) gives
 * a `tool_call` step at its start and an `observation` at its end, linked by the tool call id (the span id when the
 * span has none), the observation carrying the span's duration and its error (status `ERROR` or an `exception`
 * event), written `ERROR: message` as seed 002's `TrajectoryLogger.on_tool_error` writes it. A model span (`chat`,
 * OpenInference `LLM`, Traceloop `llm.request.type`, Vercel `doGenerate`/`doStream`) gives a `thought` with its
 * output text, tokens and duration; tool calls it requested that no tool span executed become `tool_call` steps. The
 * run's final answer is the outermost agent span's output (`invoke_agent`, OpenInference `AGENT`, Traceloop
 * `agent`/`workflow`, Vercel `ai.generateText`), or else the last model output that asked for no tool. Steps are
 * ordered by time, compared as exact nanosecond integers, never as floating-point numbers.
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
    return toTrajectory(options.traceId, spans);
  }
  if (ids.length > 1) {
    throw new UserError({
      file,
      message: `the file holds ${ids.length} traces (${ids.join(', ')}); choose one (needlework import --trace <id>, or the traceId option)`,
    });
  }
  return toTrajectory(ids[0]!, traces.get(ids[0]!)!);
}

/** Every trace in an OTLP/JSON export, one `Trajectory` each, in the order their first spans appear. */
export function fromOtelTraces(otlpJson: unknown, options: AdapterSource = {}): Trajectory[] {
  const traces = groupByTrace(
    readSpans(otlpJson, new Problems(options.file ?? '<otlp trace>', options.locate)),
  );
  return [...traces].map(([id, spans]) => toTrajectory(id, spans));
}

// ---------------------------------------------------------------------------------------------------------------
// Reading OTLP/JSON

function readSpans(input: unknown, problems: Problems): Span[] {
  const spans: Span[] = [];
  const batches: Array<{ value: unknown; path: Array<string | number> }> = Array.isArray(input)
    ? input.map((value, index) => ({ value, path: [index] }))
    : [{ value: input, path: [] }];
  for (const { value, path } of batches) {
    if (!isRecord(value) || !Array.isArray(value['resourceSpans'])) {
      problems.add(
        path,
        `expected an OTLP/JSON trace export with a "resourceSpans" array, found ${describe(value)}`,
      );
      continue;
    }
    value['resourceSpans'].forEach((rs, r) => {
      const rsPath = [...path, 'resourceSpans', r];
      if (!isRecord(rs)) {
        problems.add(rsPath, `expected an object, found ${describe(rs)}`);
        return;
      }
      const resource = isRecord(rs['resource'])
        ? decodeAttributes(rs['resource']['attributes'], [...rsPath, 'resource', 'attributes'], problems)
        : {};
      // `instrumentationLibrarySpans` is the name OTLP used before 0.15 (2022); old exporters still write it.
      const scopeKey = Array.isArray(rs['scopeSpans']) ? 'scopeSpans' : 'instrumentationLibrarySpans';
      const scopes = rs[scopeKey];
      if (!Array.isArray(scopes)) {
        problems.add(
          [...rsPath, 'scopeSpans'],
          `expected an array of scope spans, found ${describe(scopes)}`,
        );
        return;
      }
      scopes.forEach((ss, s) => {
        const ssPath = [...rsPath, scopeKey, s];
        if (!isRecord(ss) || !Array.isArray(ss['spans'])) {
          problems.add(
            [...ssPath, 'spans'],
            `expected an array of spans, found ${describe(isRecord(ss) ? ss['spans'] : ss)}`,
          );
          return;
        }
        ss['spans'].forEach((raw, i) => {
          const span = readSpan(raw, [...ssPath, 'spans', i], resource, spans.length, problems);
          if (span) spans.push(span);
        });
      });
    });
  }
  problems.throwIfAny();
  if (spans.length === 0) {
    problems.add([], 'no spans: expected resourceSpans[].scopeSpans[].spans[] to hold at least one span');
    problems.throwIfAny();
  }
  return spans;
}

function readSpan(
  raw: unknown,
  path: Array<string | number>,
  resource: Record<string, unknown>,
  order: number,
  problems: Problems,
): Span | undefined {
  if (!isRecord(raw)) {
    problems.add(path, `expected a span object, found ${describe(raw)}`);
    return undefined;
  }
  const traceId = idOf(raw['traceId']);
  const spanId = idOf(raw['spanId']);
  const start = nanos(raw['startTimeUnixNano']);
  const end = raw['endTimeUnixNano'] === undefined ? undefined : nanos(raw['endTimeUnixNano']);
  let ok = true;
  if (traceId === undefined) {
    problems.add(
      [...path, 'traceId'],
      `expected the trace id (a hex string), found ${describeId(raw['traceId'])}`,
    );
    ok = false;
  }
  if (spanId === undefined) {
    problems.add(
      [...path, 'spanId'],
      `expected the span id (a hex string), found ${describeId(raw['spanId'])}`,
    );
    ok = false;
  }
  if (start === undefined) {
    problems.add(
      [...path, 'startTimeUnixNano'],
      `expected unix time in nanoseconds (a string of digits), found ${describe(raw['startTimeUnixNano'])}`,
    );
    ok = false;
  }
  if (end === undefined && raw['endTimeUnixNano'] !== undefined) {
    problems.add(
      [...path, 'endTimeUnixNano'],
      `expected unix time in nanoseconds (a string of digits), found ${describe(raw['endTimeUnixNano'])}`,
    );
    ok = false;
  }
  const attrs = decodeAttributes(raw['attributes'], [...path, 'attributes'], problems);
  const events: SpanEvent[] = [];
  if (Array.isArray(raw['events'])) {
    raw['events'].forEach((event, e) => {
      if (!isRecord(event)) return;
      events.push({
        name: typeof event['name'] === 'string' ? event['name'] : '',
        attrs: decodeAttributes(event['attributes'], [...path, 'events', e, 'attributes'], problems),
      });
    });
  }
  if (!ok) return undefined;
  const parent = idOf(raw['parentSpanId']);
  return {
    traceId: traceId!,
    spanId: spanId!,
    parentSpanId: parent === '' ? undefined : parent,
    name: typeof raw['name'] === 'string' ? raw['name'] : '',
    start: start!,
    end,
    attrs,
    events,
    error: spanError(raw['status'], attrs, events),
    resource,
    order,
  };
}

/**
 * An id as its exact text. OTLP/JSON writes ids as hex strings; some exporters write decimal numbers, and
 * `parseJson` has already kept those past 2^53 as strings, so a number here is a safe integer and prints exactly.
 */
function idOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/** What an unusable id was; a number past 2^53 was rounded before it got here, which the user can fix. */
function describeId(value: unknown): string {
  if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) {
    return `${describe(value)}, already rounded by JSON.parse (read the file with parseJson to keep large ids exact)`;
  }
  return describe(value);
}

/** Unix nanoseconds as an exact integer: OTLP/JSON writes them as decimal strings (fixed64). */
function nanos(value: unknown): bigint | undefined {
  if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value);
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  return undefined;
}

/**
 * Attributes as a plain record. OTLP/JSON writes `[{ key, value: AnyValue }]`; a plain `{ key: value }` object (what
 * several span viewers export) is taken as it is.
 */
function decodeAttributes(
  raw: unknown,
  path: Array<string | number>,
  problems: Problems,
): Record<string, unknown> {
  if (raw === undefined || raw === null) return {};
  if (isRecord(raw)) return raw;
  if (!Array.isArray(raw)) {
    problems.add(path, `expected an array of { key, value } attributes, found ${describe(raw)}`);
    return {};
  }
  const attrs: Record<string, unknown> = {};
  raw.forEach((kv, i) => {
    if (!isRecord(kv) || typeof kv['key'] !== 'string') {
      problems.add([...path, i], `expected an attribute { key, value }, found ${describe(kv)}`);
      return;
    }
    attrs[kv['key']] = anyValue(kv['value']);
  });
  return attrs;
}

/** An OTLP `AnyValue` as a plain value; int64 (written as a decimal string) stays a string past 2^53. */
function anyValue(value: unknown): unknown {
  if (!isRecord(value)) return value ?? null;
  if ('stringValue' in value) return value['stringValue'];
  if ('boolValue' in value) return value['boolValue'];
  if ('intValue' in value) {
    const int = value['intValue'];
    if (typeof int === 'string' && /^-?\d+$/.test(int)) {
      const n = Number(int);
      return Number.isSafeInteger(n) ? n : int;
    }
    return int;
  }
  if ('doubleValue' in value) return Number(value['doubleValue']);
  if ('bytesValue' in value) return value['bytesValue'];
  if ('arrayValue' in value) {
    const values = isRecord(value['arrayValue']) ? value['arrayValue']['values'] : undefined;
    return Array.isArray(values) ? values.map(anyValue) : [];
  }
  if ('kvlistValue' in value) {
    const values = isRecord(value['kvlistValue']) ? value['kvlistValue']['values'] : undefined;
    const out: Record<string, unknown> = {};
    if (Array.isArray(values)) {
      for (const kv of values)
        if (isRecord(kv) && typeof kv['key'] === 'string') out[kv['key']] = anyValue(kv['value']);
    }
    return out;
  }
  return null;
}

/**
 * The error a span records: status `ERROR` (`2` or `STATUS_CODE_ERROR` in OTLP/JSON) or an `exception` event, with
 * the status message, else the exception's message and type, else `error.type`.
 */
function spanError(
  status: unknown,
  attrs: Record<string, unknown>,
  events: readonly SpanEvent[],
): string | undefined {
  const code = isRecord(status) ? status['code'] : undefined;
  const failed = code === 2 || code === '2' || code === 'STATUS_CODE_ERROR' || code === 'ERROR';
  const exception = events.find((e) => e.name === 'exception' || e.name === 'gen_ai.execute_tool.exception');
  if (!failed && !exception) return undefined;
  const message = isRecord(status) && typeof status['message'] === 'string' ? status['message'] : '';
  if (message !== '') return message;
  if (exception) {
    const type = exception.attrs['exception.type'];
    const text = exception.attrs['exception.message'];
    if (typeof text === 'string' && text !== '') return typeof type === 'string' ? `${type}: ${text}` : text;
    if (typeof type === 'string') return type;
  }
  return typeof attrs['error.type'] === 'string' ? attrs['error.type'] : 'error';
}

function groupByTrace(spans: readonly Span[]): Map<string, Span[]> {
  const traces = new Map<string, Span[]>();
  for (const span of spans) {
    const list = traces.get(span.traceId);
    if (list) list.push(span);
    else traces.set(span.traceId, [span]);
  }
  return traces;
}

// ---------------------------------------------------------------------------------------------------------------
// What a span means

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function first(attrs: Record<string, unknown>, keys: readonly string[]): unknown {
  for (const key of keys) if (attrs[key] !== undefined && attrs[key] !== null) return attrs[key];
  return undefined;
}

function num(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value)) return Number(value);
  return undefined;
}

/** What a span is, and which convention said so. The GenAI semantic conventions win when several are present. */
function classify(span: Span): { kind: Kind; convention?: OtelConvention } {
  const a = span.attrs;
  const op = str(a['gen_ai.operation.name']);
  if (op === 'execute_tool') return { kind: 'tool', convention: 'gen_ai' };
  if (op === 'chat' || op === 'text_completion' || op === 'generate_content')
    return { kind: 'llm', convention: 'gen_ai' };
  if (op === 'invoke_agent' || op === 'invoke_workflow') return { kind: 'agent', convention: 'gen_ai' };
  const oi = str(a['openinference.span.kind'])?.toUpperCase();
  if (oi === 'TOOL') return { kind: 'tool', convention: 'openinference' };
  if (oi === 'LLM') return { kind: 'llm', convention: 'openinference' };
  if (oi === 'AGENT') return { kind: 'agent', convention: 'openinference' };
  if (oi !== undefined) return { kind: 'other', convention: 'openinference' };
  const tl = str(a['traceloop.span.kind'])?.toLowerCase();
  if (tl === 'tool') return { kind: 'tool', convention: 'traceloop' };
  if (tl === 'agent' || tl === 'workflow') return { kind: 'agent', convention: 'traceloop' };
  if (tl !== undefined) return { kind: 'other', convention: 'traceloop' };
  if (a['llm.request.type'] !== undefined) return { kind: 'llm', convention: 'traceloop' };
  const vercel = str(a['ai.operationId']) ?? (span.name.startsWith('ai.') ? span.name : undefined);
  if (vercel !== undefined) {
    if (vercel === 'ai.toolCall') return { kind: 'tool', convention: 'vercel_ai' };
    if (/\.do(Generate|Stream)$/.test(vercel)) return { kind: 'llm', convention: 'vercel_ai' };
    if (/^ai\.(generate|stream)(Text|Object)$/.test(vercel))
      return { kind: 'agent', convention: 'vercel_ai' };
    return { kind: 'other', convention: 'vercel_ai' };
  }
  if (op !== undefined) return { kind: 'other', convention: 'gen_ai' };
  return { kind: 'other' };
}

function toolName(span: Span): string {
  return (
    str(first(span.attrs, ['gen_ai.tool.name', 'tool.name', 'ai.toolCall.name', 'traceloop.entity.name'])) ??
    span.name.replace(/^execute_tool\s+/, '')
  );
}

/** Tool arguments; a Traceloop `{ args, kwargs }` input is reduced to the arguments the tool was really given. */
function toolArguments(span: Span): unknown {
  const a = span.attrs;
  const direct = first(a, [
    'gen_ai.tool.call.arguments',
    'ai.toolCall.args',
    'ai.toolCall.input',
    'input.value',
  ]);
  if (direct !== undefined) return direct;
  const entity = a['traceloop.entity.input'];
  if (typeof entity !== 'string') return entity;
  const parsed = tryParseJson(entity);
  if (isRecord(parsed) && Object.keys(parsed).every((k) => k === 'args' || k === 'kwargs')) {
    const args = Array.isArray(parsed['args']) ? parsed['args'] : [];
    const kwargs = isRecord(parsed['kwargs']) ? parsed['kwargs'] : {};
    if (args.length === 0) return kwargs;
    if (args.length === 1 && isRecord(args[0]) && Object.keys(kwargs).length === 0) return args[0];
  }
  return entity;
}

function toolResult(span: Span): unknown {
  return first(span.attrs, [
    'gen_ai.tool.call.result',
    'ai.toolCall.result',
    'ai.toolCall.output',
    'output.value',
    'traceloop.entity.output',
  ]);
}

function toolCallId(span: Span): string | undefined {
  return idOf(first(span.attrs, ['gen_ai.tool.call.id', 'ai.toolCall.id', 'tool_call.id']));
}

const INPUT_TOKENS = [
  'gen_ai.usage.input_tokens',
  'gen_ai.usage.prompt_tokens',
  'llm.token_count.prompt',
  'ai.usage.inputTokens',
  'ai.usage.promptTokens',
];
const OUTPUT_TOKENS = [
  'gen_ai.usage.output_tokens',
  'gen_ai.usage.completion_tokens',
  'llm.token_count.completion',
  'ai.usage.outputTokens',
  'ai.usage.completionTokens',
];
const TOTAL_TOKENS = [
  'gen_ai.usage.total_tokens',
  'llm.usage.total_tokens',
  'llm.token_count.total',
  'ai.usage.totalTokens',
];

function tokens(span: Span): number {
  const input = num(first(span.attrs, INPUT_TOKENS));
  const output = num(first(span.attrs, OUTPUT_TOKENS));
  if (input !== undefined || output !== undefined) return (input ?? 0) + (output ?? 0);
  return num(first(span.attrs, TOTAL_TOKENS)) ?? 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Messages, in every format the conventions use

/**
 * One message in any of the shapes found in spans: GenAI `{ role, parts: [{ type: 'text' | 'tool_call' |
 * 'tool_call_response' }] }`, OpenAI `{ role, content, tool_calls }`, a `gen_ai.choice` `{ message }`, the Vercel AI
 * SDK's `{ role, content: [{ type: 'text' | 'tool-call' }] }`.
 */
function toMessage(raw: unknown): Message | undefined {
  if (typeof raw === 'string') return { role: 'assistant', text: raw, calls: [] };
  if (!isRecord(raw)) return undefined;
  if (isRecord(raw['message'])) return toMessage({ role: raw['role'], ...raw['message'] });
  const message: Message = { role: str(raw['role']) ?? 'assistant', text: '', calls: [] };
  const texts: string[] = [];
  const parts = Array.isArray(raw['parts'])
    ? raw['parts']
    : Array.isArray(raw['content'])
      ? raw['content']
      : [];
  if (typeof raw['content'] === 'string') texts.push(raw['content']);
  for (const part of parts) {
    if (typeof part === 'string') {
      texts.push(part);
      continue;
    }
    if (!isRecord(part)) continue;
    const type = part['type'];
    if (type === 'text' || type === undefined) {
      const text = str(part['content']) ?? str(part['text']);
      if (text !== undefined) texts.push(text);
    } else if (type === 'tool_call' || type === 'tool-call' || type === 'tool_use') {
      const name = str(part['name']) ?? str(part['toolName']);
      if (name === undefined) continue;
      const id = idOf(part['id'] ?? part['toolCallId']);
      message.calls.push({
        ...(id !== undefined ? { id } : {}),
        name,
        arguments: part['arguments'] ?? part['args'] ?? part['input'],
      });
    }
  }
  if (Array.isArray(raw['tool_calls'])) {
    for (const call of raw['tool_calls']) {
      if (!isRecord(call)) continue;
      const fn = isRecord(call['function']) ? call['function'] : call;
      const name = str(fn['name']);
      if (name === undefined) continue;
      const id = idOf(call['id']);
      message.calls.push({ ...(id !== undefined ? { id } : {}), name, arguments: fn['arguments'] });
    }
  }
  message.text = texts.join('\n');
  return message;
}

function toMessages(raw: unknown): Message[] | undefined {
  const value = typeof raw === 'string' ? tryParseJson(raw) : raw;
  if (Array.isArray(value)) return value.map(toMessage).filter((m): m is Message => m !== undefined);
  if (isRecord(value)) {
    if (Array.isArray(value['messages'])) return toMessages(value['messages']);
    const one = toMessage(value);
    return one ? [one] : undefined;
  }
  return undefined;
}

/**
 * Groups flattened list attributes (`gen_ai.prompt.0.role`, `llm.output_messages.1.message.content`) by index:
 * `flatList(attrs, 'gen_ai.prompt')` → `[{ role, content }, ...]`.
 */
function flatList(attrs: Record<string, unknown>, prefix: string): Array<Record<string, unknown>> {
  const items: Array<Record<string, unknown>> = [];
  const head = `${prefix}.`;
  for (const [key, value] of Object.entries(attrs)) {
    if (!key.startsWith(head)) continue;
    const match = /^(\d+)\.(.+)$/.exec(key.slice(head.length));
    if (!match) continue;
    const index = Number(match[1]);
    items[index] ??= {};
    items[index]![match[2]!] = value;
  }
  return items.filter((item) => item !== undefined);
}

/** OpenInference `llm.input_messages` / `llm.output_messages`, flattened. */
function openInferenceMessages(attrs: Record<string, unknown>, prefix: string): Message[] {
  return flatList(attrs, prefix).map((item) => ({
    role: str(item['message.role']) ?? 'assistant',
    text: asText(item['message.content'] ?? ''),
    calls: flatList(item, 'message.tool_calls').flatMap((call) => {
      const name = str(call['tool_call.function.name']);
      const id = idOf(call['tool_call.id']);
      return name === undefined
        ? []
        : [{ ...(id !== undefined ? { id } : {}), name, arguments: call['tool_call.function.arguments'] }];
    }),
  }));
}

/** Traceloop's `gen_ai.prompt.N.*` / `gen_ai.completion.N.*`, flattened. */
function traceloopMessages(attrs: Record<string, unknown>, prefix: string): Message[] {
  return flatList(attrs, prefix).map((item) => ({
    role: str(item['role']) ?? 'assistant',
    text: asText(item['content'] ?? ''),
    calls: flatList(item, 'tool_calls').flatMap((call) => {
      const name = str(call['name']);
      const id = idOf(call['id']);
      return name === undefined
        ? []
        : [{ ...(id !== undefined ? { id } : {}), name, arguments: call['arguments'] }];
    }),
  }));
}

const INPUT_EVENTS = [
  'gen_ai.system.message',
  'gen_ai.user.message',
  'gen_ai.assistant.message',
  'gen_ai.tool.message',
];

/** The messages a model span was given, from whichever attribute or event its convention uses. */
function inputMessages(span: Span): Message[] {
  const a = span.attrs;
  const direct = first(a, ['gen_ai.input.messages', 'gen_ai.prompt', 'ai.prompt.messages']);
  if (direct !== undefined) return toMessages(direct) ?? [];
  const oi = openInferenceMessages(a, 'llm.input_messages');
  if (oi.length > 0) return oi;
  const tl = traceloopMessages(a, 'gen_ai.prompt');
  if (tl.length > 0) return tl;
  const messages: Message[] = [];
  for (const event of span.events) {
    if (
      event.name === 'gen_ai.content.prompt' ||
      event.name === 'gen_ai.client.inference.operation.details'
    ) {
      messages.push(...(toMessages(first(event.attrs, ['gen_ai.prompt', 'gen_ai.input.messages'])) ?? []));
    } else if (INPUT_EVENTS.includes(event.name)) {
      const role = event.name.slice('gen_ai.'.length, -'.message'.length);
      const body = eventBody(event);
      const message = toMessage(isRecord(body) ? { role, ...body } : { role, content: body });
      if (message) messages.push(message);
    }
  }
  return messages;
}

/** What a model span answered: its output messages, in whichever attribute or event its convention uses. */
function outputMessages(span: Span): Message[] {
  const a = span.attrs;
  const direct = first(a, ['gen_ai.output.messages', 'gen_ai.completion']);
  if (direct !== undefined) return toMessages(direct) ?? [];
  const oi = openInferenceMessages(a, 'llm.output_messages');
  if (oi.length > 0) return oi;
  const tl = traceloopMessages(a, 'gen_ai.completion');
  if (tl.length > 0) return tl;
  const vercelText = first(a, ['ai.response.text', 'ai.result.text']);
  const vercelCalls = first(a, ['ai.response.toolCalls', 'ai.result.toolCalls']);
  if (vercelText !== undefined || vercelCalls !== undefined) {
    const calls = typeof vercelCalls === 'string' ? tryParseJson(vercelCalls) : vercelCalls;
    return [
      {
        role: 'assistant',
        text: asText(vercelText ?? ''),
        calls: (Array.isArray(calls) ? calls : []).flatMap((call) => {
          if (!isRecord(call)) return [];
          const name = str(call['toolName']) ?? str(call['name']);
          const id = idOf(call['toolCallId'] ?? call['id']);
          return name === undefined
            ? []
            : [{ ...(id !== undefined ? { id } : {}), name, arguments: call['args'] ?? call['input'] }];
        }),
      },
    ];
  }
  const messages: Message[] = [];
  for (const event of span.events) {
    if (
      event.name === 'gen_ai.content.completion' ||
      event.name === 'gen_ai.client.inference.operation.details'
    ) {
      messages.push(
        ...(toMessages(first(event.attrs, ['gen_ai.completion', 'gen_ai.output.messages'])) ?? []),
      );
    } else if (event.name === 'gen_ai.choice') {
      const message = toMessage(eventBody(event));
      if (message) messages.push(message);
    }
  }
  if (messages.length > 0) return messages;
  const output = a['output.value'];
  if (typeof output === 'string' && tryParseJson(output) === undefined) {
    return [{ role: 'assistant', text: output, calls: [] }];
  }
  return [];
}

/** The body of a GenAI message event: `gen_ai.event.content` (JSON), a `message`/`content` attribute, or all of them. */
function eventBody(event: SpanEvent): unknown {
  const content = event.attrs['gen_ai.event.content'];
  if (typeof content === 'string') return tryParseJson(content) ?? content;
  if (event.attrs['message'] !== undefined) return { message: event.attrs['message'] };
  return event.attrs;
}

// ---------------------------------------------------------------------------------------------------------------
// Run-level input and output

const TEXT_KEYS = [
  'input',
  'query',
  'question',
  'prompt',
  'task',
  'output',
  'answer',
  'result',
  'text',
  'content',
];

/** Readable text of a loosely shaped input or output value (`input.value`, `traceloop.entity.*`, `ai.prompt`). */
function looseText(raw: unknown, pick: 'first-user' | 'last-assistant'): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'string') {
    const parsed = tryParseJson(raw);
    if (parsed === undefined) return raw;
    return typeof parsed === 'string' ? parsed : looseText(parsed, pick);
  }
  if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
  if (Array.isArray(raw)) {
    const messages = toMessages(raw) ?? [];
    return pick === 'first-user' ? firstUserText(messages) : lastAssistantText(messages);
  }
  if (!isRecord(raw)) return undefined;
  if (Array.isArray(raw['messages'])) return looseText(raw['messages'], pick);
  for (const key of TEXT_KEYS) if (typeof raw[key] === 'string') return raw[key] as string;
  if (isRecord(raw['kwargs']) || Array.isArray(raw['args'])) {
    const args = Array.isArray(raw['args']) ? raw['args'] : [];
    for (const value of [...args, ...Object.values(isRecord(raw['kwargs']) ? raw['kwargs'] : {})]) {
      const text = looseText(value, pick);
      if (text !== undefined) return text;
    }
  }
  return JSON.stringify(raw);
}

function firstUserText(messages: readonly Message[]): string | undefined {
  return messages.find((m) => m.role === 'user' && m.text !== '')?.text;
}

function lastAssistantText(messages: readonly Message[]): string | undefined {
  return messages.findLast((m) => m.role === 'assistant' && m.text !== '')?.text;
}

function runInput(span: Span): string | undefined {
  const a = span.attrs;
  if (a['gen_ai.input.messages'] !== undefined)
    return firstUserText(toMessages(a['gen_ai.input.messages']) ?? []);
  return looseText(first(a, ['input.value', 'traceloop.entity.input', 'ai.prompt']), 'first-user');
}

function runOutput(span: Span): string | undefined {
  const a = span.attrs;
  if (a['gen_ai.output.messages'] !== undefined) {
    return lastAssistantText(toMessages(a['gen_ai.output.messages']) ?? []);
  }
  return looseText(
    first(a, ['output.value', 'traceloop.entity.output', 'ai.response.text', 'ai.result.text']),
    'last-assistant',
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Assembling the trajectory

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

function toTrajectory(traceId: string, spans: readonly Span[]): Trajectory {
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
  const executedNames = new Set<string>();
  let totalTokens = 0;
  for (const { span, kind } of classified) {
    if (kind !== 'tool') continue;
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
      content: typeof args === 'string' ? args : JSON.stringify(input),
      tool_name: name,
      tool_input: input,
      timestamp: iso(span.start),
      tokens_used: spent,
      call_id: id ?? span.spanId,
    });
    push(finish(span), {
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
    if (id !== undefined) executed.set(id, call);
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
      const traced = call.id !== undefined ? executed.get(call.id) : undefined;
      if (traced || (call.id === undefined && executedNames.has(call.name))) {
        carrier ??= traced;
        continue;
      }
      const input = toolInput(call.arguments);
      const step = push(finish(span), {
        ...blank(),
        step_type: 'tool_call',
        content: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(input),
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
  const finalFromRun = run ? runOutput(run) : undefined;

  pending.sort((x, y) => compare(x.at, y.at) || x.seq - y.seq);
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
      push(finish(run!), {
        ...blank(),
        step_type: 'answer',
        content: finalFromRun,
        timestamp: iso(finish(run!)),
      });
    }
  } else if (candidate) {
    candidate.step.step_type = 'answer';
    finalAnswer = candidate.step.content;
  }
  pending.sort((x, y) => compare(x.at, y.at) || x.seq - y.seq);

  const llmInputs = classified
    .filter((c) => c.kind === 'llm')
    .map((c) => firstUserText(inputMessages(c.span)));
  const taskInput = (run ? runInput(run) : undefined) ?? llmInputs.find((t) => t !== undefined) ?? '';
  if (totalTokens === 0 && run) totalTokens = tokens(run);
  const start = sorted[0]!.start;
  const end = spans.reduce<bigint>((max, s) => (s.end !== undefined && s.end > max ? s.end : max), start);
  const model = classified
    .map((c) => str(first(c.span.attrs, ['gen_ai.request.model', 'llm.model_name', 'ai.model.id'])))
    .find((m) => m !== undefined);
  const service = str(sorted[0]!.resource['service.name']);

  return makeTrajectory({
    task_id: traceId,
    task_input: taskInput,
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
      ...(service !== undefined ? { service_name: service } : {}),
      ...(model !== undefined ? { model } : {}),
      ...(run?.error !== undefined ? { run_error: run.error } : {}),
    },
  });
}

function compare(x: bigint, y: bigint): number {
  return x < y ? -1 : x > y ? 1 : 0;
}
