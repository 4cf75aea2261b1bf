import type { Diagnostic } from '../errors/index.js';
import { UserError } from '../errors/index.js';
import type { Trajectory } from '../model/trajectory.js';
import { type AdapterSource, describe, isRecord, Problems } from './common.js';
import { trajectoryOfTrace } from './otel.js';
import { describeId, groupByTrace, type Span, type SpanEvent, spanError } from './otlp.js';

/**
 * Reading span JSON as OpenTelemetry SDKs and agent frameworks write it outside OTLP: the Python SDK's
 * `ReadableSpan.to_json()` (what `ConsoleSpanExporter` prints), any-agent's `AgentTrace` (`{ spans, final_output }`)
 * and the like. Each span is `{ name, context: { trace_id, span_id }, parent | parent_id, start_time, end_time,
 * attributes, events, status, resource }`; ids are hex strings (`0x`-prefixed or not) or integers (any-agent writes
 * 128-bit trace ids as JSON numbers), times are nanosecond integers or ISO 8601 strings. The spans are then read by
 * the same GenAI reading as OTLP traces (`trajectoryOfTrace`).
 */

/** The traces of an SDK span file, one trajectory each, and the spans that could not be read (each with its place). */
export interface SdkTraces {
  /** One entry per trace, in the order their first spans appear; `traceId` is lowercase hex, 32 digits. */
  traces: Array<{ traceId: string; trajectory: Trajectory }>;
  /** Spans left out, each said at its file, line and column (a bad span never stops the others). */
  skipped: Diagnostic[];
  /** What the file holds beside its spans that no trace could take, one sentence each, for the import summary. */
  unplaced: string[];
}

/**
 * Reads SDK span JSON (a list of spans, or an object with a `spans` list) into one trajectory per trace. A span
 * that cannot be read (no ids, no start time) is left out and listed in `skipped`; a file with no readable span at
 * all throws a `UserError` naming every problem.
 *
 * Integers are kept exact only if the JSON was parsed without rounding: pass a value parsed by `parseJson` with
 * `{ bigints: true }` (ids then arrive as `bigint`), or ids as strings.
 */
export function fromOtelSdkSpans(json: unknown, options: AdapterSource = {}): SdkTraces {
  const file = options.file ?? '<span json>';
  const problems = new Problems(file, options.locate);
  const { list, prefix } = spanList(json, problems);
  const spans: Span[] = [];
  const skipped: Diagnostic[] = [];
  list.forEach((raw, index) => {
    const one = new Problems(file, options.locate);
    const span = readSdkSpan(raw, [...prefix, index], spans.length, one);
    if (span) spans.push(span);
    else for (const d of one.diagnostics()) skipped.push(d);
  });
  if (spans.length === 0) {
    throw new UserError(
      skipped.length > 0
        ? skipped
        : [{ file, message: 'no spans: expected a list of spans, found an empty one' }],
    );
  }
  const groups = [...groupByTrace(spans)];
  // any-agent's `AgentTrace` keeps the run's answer beside its spans: it is the answer of the one trace they make.
  const answer = isRecord(json) ? answerText(json['final_output']) : undefined;
  const unplaced: string[] = [];
  if (answer !== undefined && groups.length > 1) {
    unplaced.push(
      `final_output was not imported: the file holds ${groups.length} traces and it names none of them`,
    );
  }
  const traces = groups.map(([traceId, group]) => ({
    traceId,
    trajectory: trajectoryOfTrace(traceId, group, groups.length === 1 ? answer : undefined),
  }));
  return { traces, skipped, unplaced };
}

/**
 * A recorded final output as the answer's text: a string as it is, structured output (any-agent's `output_type`
 * models) as indented JSON, integers kept exact; nothing when there is none.
 */
function answerText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  // An integer past 2^53 arrives as a bigint (parseJson keeps it exact): written as a marked string, then unquoted.
  return JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `\u0000bigint:${v}` : v), 2).replace(
    /"\\u0000bigint:(-?\d+)"/g,
    '$1',
  );
}

function spanList(json: unknown, problems: Problems): { list: unknown[]; prefix: Array<string | number> } {
  if (Array.isArray(json)) return { list: json, prefix: [] };
  if (isRecord(json) && Array.isArray(json['spans'])) return { list: json['spans'], prefix: ['spans'] };
  problems.add([], `expected a list of spans or an object with a "spans" list, found ${describe(json)}`);
  problems.throwIfAny();
  return { list: [], prefix: [] };
}

function readSdkSpan(
  raw: unknown,
  path: Array<string | number>,
  order: number,
  problems: Problems,
): Span | undefined {
  if (!isRecord(raw)) {
    problems.add(path, `expected a span object, found ${describe(raw)}`);
    return undefined;
  }
  const context = isRecord(raw['context']) ? raw['context'] : raw;
  const contextPath = isRecord(raw['context']) ? [...path, 'context'] : path;
  const traceId = hexId(context['trace_id'], 32);
  const spanId = hexId(context['span_id'], 16);
  const start = nanos(raw['start_time']);
  const end = raw['end_time'] === undefined || raw['end_time'] === null ? undefined : nanos(raw['end_time']);
  if (traceId === undefined) {
    problems.add(
      [...contextPath, 'trace_id'],
      `expected the trace id (hex, or an integer), found ${describeId(context['trace_id'])}`,
    );
  }
  if (spanId === undefined) {
    problems.add(
      [...contextPath, 'span_id'],
      `expected the span id (hex, or an integer), found ${describeId(context['span_id'])}`,
    );
  }
  if (start === undefined) {
    problems.add(
      [...path, 'start_time'],
      `expected the start time (unix nanoseconds, or an ISO 8601 time), found ${describe(raw['start_time'])}`,
    );
  }
  if (traceId === undefined || spanId === undefined || start === undefined) return undefined;
  const attrs = isRecord(raw['attributes']) ? raw['attributes'] : {};
  const events: SpanEvent[] = Array.isArray(raw['events'])
    ? raw['events'].filter(isRecord).map((event) => ({
        name: typeof event['name'] === 'string' ? event['name'] : '',
        attrs: isRecord(event['attributes']) ? event['attributes'] : {},
      }))
    : [];
  const resource =
    isRecord(raw['resource']) && isRecord(raw['resource']['attributes']) ? raw['resource']['attributes'] : {};
  return {
    traceId,
    spanId,
    parentSpanId: parentOf(raw),
    name: typeof raw['name'] === 'string' ? raw['name'] : '',
    start,
    end,
    attrs,
    events,
    error: spanError(status(raw['status']), attrs, events),
    resource,
    order,
  };
}

/** The parent span id: Python's `parent_id`, any-agent's `parent` context (with null ids for a root), or others'. */
function parentOf(raw: Record<string, unknown>): string | undefined {
  const parent = raw['parent'];
  const value = isRecord(parent)
    ? parent['span_id']
    : (parent ?? raw['parent_id'] ?? raw['parent_span_id'] ?? raw['parentSpanId']);
  const id = hexId(value, 16);
  return id === undefined || /^0+$/.test(id) ? undefined : id;
}

/** The SDK status (`{ status_code: "ERROR" | "error", description }`) in the OTLP shape `spanError` reads. */
function status(raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  const code = raw['status_code'] ?? raw['code'];
  const message = raw['description'] ?? raw['message'];
  return {
    code: typeof code === 'string' ? code.toUpperCase().replace(/^STATUSCODE\./, '') : code,
    ...(typeof message === 'string' ? { message } : {}),
  };
}

/**
 * An id as lowercase hex, `width` digits, from what SDKs write: a `bigint` or safe integer (a decimal integer), a
 * `0x`-prefixed hex string, a hex string of exactly `width` digits, or a longer run of decimal digits (an integer that
 * `parseJson` kept as text). Anything else, zero included, is no id.
 */
export function hexId(value: unknown, width: number): string | undefined {
  let n: bigint | undefined;
  if (typeof value === 'bigint') n = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) n = BigInt(value);
  else if (typeof value === 'string') {
    if (/^0x[0-9a-f]+$/i.test(value)) n = BigInt(value);
    else if (value.length === width && /^[0-9a-f]+$/i.test(value)) return value.toLowerCase();
    else if (/^\d+$/.test(value)) n = BigInt(value);
  }
  if (n === undefined || n <= 0n) return undefined;
  return n.toString(16).padStart(width, '0');
}

/** Unix nanoseconds, exact: an integer (`bigint`, safe number, digits) or an ISO 8601 time with up to 9 decimals. */
export function nanos(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value >= 0n ? value : undefined;
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : undefined;
  if (typeof value !== 'string') return undefined;
  if (/^\d+$/.test(value)) return BigInt(value);
  const iso = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:?\d\d)$/.exec(value);
  if (!iso) return undefined;
  const seconds = Date.parse(`${iso[1]}${iso[3]}`);
  if (Number.isNaN(seconds)) return undefined;
  return BigInt(seconds) * 1_000_000n + BigInt((iso[2] ?? '').padEnd(9, '0'));
}
