import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

/**
 * In-process spans as the OTLP/JSON export the OTel adapter reads (`resourceSpans[].scopeSpans[].spans[]`), so a live
 * trace goes through the same GenAI reading as an exported file. Times become exact nanosecond strings, attributes
 * stay plain values (the adapter takes `{ key: value }` attributes as they are), status codes keep their numbers.
 */
export function toOtlpJson(spans: readonly ReadableSpan[]): { resourceSpans: unknown[] } {
  return {
    // One resource block per span: spans of one provider share their resource, and the adapter reads each the same.
    resourceSpans: spans.map((span) => ({
      resource: { attributes: { ...span.resource.attributes } },
      scopeSpans: [{ scope: { name: span.instrumentationScope.name }, spans: [otlpSpan(span)] }],
    })),
  };
}

function otlpSpan(span: ReadableSpan): Record<string, unknown> {
  const context = span.spanContext();
  const parent = parentSpanId(span);
  return {
    traceId: context.traceId,
    spanId: context.spanId,
    ...(parent !== undefined ? { parentSpanId: parent } : {}),
    name: span.name,
    startTimeUnixNano: nanos(span.startTime),
    ...(span.ended ? { endTimeUnixNano: nanos(span.endTime) } : {}),
    attributes: { ...span.attributes },
    events: span.events.map((event) => ({ name: event.name, attributes: { ...event.attributes } })),
    status: { code: span.status.code, ...(span.status.message ? { message: span.status.message } : {}) },
  };
}

/** The parent span's id: `parentSpanContext` in SDK 2.x, `parentSpanId` in 1.x. */
export function parentSpanId(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId ?? (span as { parentSpanId?: string }).parentSpanId;
}

/** An `HrTime` (`[seconds, nanoseconds]`) as exact nanoseconds since the epoch, in decimal. */
function nanos([seconds, nanoseconds]: readonly [number, number]): string {
  return (BigInt(Math.trunc(seconds)) * 1_000_000_000n + BigInt(Math.trunc(nanoseconds))).toString();
}
