// needlework/harness/otel: records OpenTelemetry-instrumented agent runs (`@opentelemetry/sdk-trace-base`, an optional
// peer) as workups, through the same GenAI span reading as `needlework import`.

export type { HarnessOptions } from '../runs.js';
export { toOtlpJson } from './otlp-json.js';
export { type OtelRun, WorkupSpanProcessor, type WorkupSpanProcessorOptions } from './processor.js';
