/** Builds OTLP/JSON trace exports for the adapter tests, encoding attributes as the OTLP exporters do. */

export interface SpanSpec {
  id: string;
  parent?: string;
  trace?: string;
  name?: string;
  /** Unix nanoseconds, as the decimal string OTLP/JSON writes. */
  start: string;
  end?: string;
  attrs?: Record<string, unknown>;
  events?: Array<{ name: string; attrs?: Record<string, unknown> }>;
  status?: { code: number | string; message?: string };
}

export const TRACE = '5b8efff798038103d269b633813fc60c';

/** `AnyValue`: strings, int64 as decimal strings, doubles, booleans, arrays and key-value lists. */
export function anyValue(value: unknown): Record<string, unknown> {
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number')
    return Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  if (Array.isArray(value)) return { arrayValue: { values: value.map(anyValue) } };
  if (typeof value === 'object' && value !== null)
    return { kvlistValue: { values: attributes(value as Record<string, unknown>) } };
  return {};
}

export function attributes(
  attrs: Record<string, unknown>,
): Array<{ key: string; value: Record<string, unknown> }> {
  return Object.entries(attrs).map(([key, value]) => ({ key, value: anyValue(value) }));
}

export function span(spec: SpanSpec): Record<string, unknown> {
  return {
    traceId: spec.trace ?? TRACE,
    spanId: spec.id,
    parentSpanId: spec.parent ?? '',
    name: spec.name ?? spec.id,
    kind: 1,
    startTimeUnixNano: spec.start,
    ...(spec.end !== undefined ? { endTimeUnixNano: spec.end } : {}),
    attributes: attributes(spec.attrs ?? {}),
    ...(spec.events
      ? {
          events: spec.events.map((e) => ({
            name: e.name,
            timeUnixNano: spec.start,
            attributes: attributes(e.attrs ?? {}),
          })),
        }
      : {}),
    status: spec.status ?? { code: 0 },
  };
}

export function otlp(
  spans: SpanSpec[],
  resource: Record<string, unknown> = { 'service.name': 'test-agent' },
) {
  return {
    resourceSpans: [
      {
        resource: { attributes: attributes(resource) },
        scopeSpans: [{ scope: { name: 'test' }, spans: spans.map(span) }],
      },
    ],
  };
}

/** Nanoseconds `ms` milliseconds (plus `ns`) after a fixed instant past 2^53 ns, as a decimal string. */
export function at(ms: number, ns = 0): string {
  return (1_780_394_410_000_000_000n + BigInt(ms) * 1_000_000n + BigInt(ns)).toString();
}
