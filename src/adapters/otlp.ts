import { describe, isRecord, type Problems } from './common.js';

/**
 * Reading OTLP/JSON trace exports (the OTLP file and HTTP exporters' encoding of `ExportTraceServiceRequest`) into
 * plain spans, with every id kept exactly and every time as an exact nanosecond integer. Knows nothing of what the
 * spans mean; `genai.ts` reads that.
 */

export interface SpanEvent {
  name: string;
  attrs: Record<string, unknown>;
}

/** One span of the export, its attributes decoded from OTLP `AnyValue`s into plain values. */
export interface Span {
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

/**
 * Every span of an export (or of an array of exports, one per JSONL line), in file order. Every shape problem is
 * collected into `problems` and thrown together, so one run reports all of a file's bad spans.
 */
export function readSpans(input: unknown, problems: Problems): Span[] {
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
export function idOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/** What an unusable id was; a number past 2^53 was rounded before it got here, which the user can fix. */
export function describeId(value: unknown): string {
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
export function spanError(
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

export function groupByTrace(spans: readonly Span[]): Map<string, Span[]> {
  const traces = new Map<string, Span[]>();
  for (const span of spans) {
    const list = traces.get(span.traceId);
    if (list) list.push(span);
    else traces.set(span.traceId, [span]);
  }
  return traces;
}
