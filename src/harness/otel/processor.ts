import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { fromOtelSpans } from '../../adapters/otel.js';
import type { LedgerEntry } from '../../model/ledger.js';
import type { Trajectory } from '../../model/trajectory.js';
import type { Workup } from '../../model/workup.js';
import type { Recorder } from '../../recorder/types.js';
import { finishRecorder, type HarnessOptions, Runs, startRecorder } from '../runs.js';
import { parentSpanId, toOtlpJson } from './otlp-json.js';

/** What an `id` function is given: the trace of one run. */
export interface OtelRun {
  /** The trace id (32 lowercase hex digits). */
  traceId: string;
  /** The name of the trace's root span (`invoke_agent Analyst`, `ai.generateText`), when it has ended. */
  rootName?: string;
}

export type WorkupSpanProcessorOptions = HarnessOptions<OtelRun>;

/**
 * An OpenTelemetry `SpanProcessor` that keeps the spans of each trace in process and, when the trace's local root span
 * ends, reads them as a workup through the same OTel GenAI reading as `needlework import` (`fromOtelSpans`: the GenAI
 * semantic conventions, OpenInference, OpenLLMetry and the Vercel AI SDK's telemetry), so any instrumented agent works
 * without a dedicated harness. The trajectory is the spans' own (their times, tokens, errors); each tool call is also a
 * ledger entry whose id is its tool call id (the span id when the span has none), with the `ledger` option's facts.
 * A trace with no GenAI span is dropped when its root ends. Register it on a tracer provider
 * (`new BasicTracerProvider({ spanProcessors: [processor] })`, or a `NodeSDK`'s `spanProcessors`).
 */
export class WorkupSpanProcessor implements SpanProcessor {
  private readonly runs: Runs<OtelRun>;
  /** Spans of the traces whose root has not ended, by trace id, in the order they ended. */
  private readonly open = new Map<string, ReadableSpan[]>();
  /** Traces whose spans could not be read, with why (a processor must not throw into the traced code). */
  readonly failures: Array<{ traceId: string; error: Error }> = [];

  constructor(private readonly options: WorkupSpanProcessorOptions = {}) {
    this.runs = new Runs('otel', options);
  }

  /** The workups of the traces that ended (their root span ended) holding GenAI spans, in the order they ended. */
  get workups(): readonly Workup[] {
    return this.runs.workups;
  }

  /**
   * The workup of a trace, ended or still open; by default the trace that ended last, else the open trace whose span
   * ended last. Throws when the trace holds no GenAI span.
   */
  workup(traceId?: string): Workup {
    if (traceId !== undefined) {
      const spans = this.open.get(traceId);
      return spans ? this.readOpen(traceId, spans) : this.runs.workup(traceId);
    }
    const ended = this.runs.workups.at(-1);
    if (ended) return ended;
    const last = [...this.open].at(-1);
    return last ? this.readOpen(last[0], last[1]) : this.runs.workup();
  }

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    const traceId = span.spanContext().traceId;
    let spans = this.open.get(traceId);
    if (!spans) {
      spans = [];
      this.open.set(traceId, spans);
    }
    spans.push(span);
    // The local root ends last in the code it wraps; a root whose parent is remote is this process's part of it.
    if (parentSpanId(span) !== undefined && span.parentSpanContext?.isRemote !== true) return;
    this.open.delete(traceId);
    try {
      const workup = this.read(traceId, spans, span.name);
      if (workup) this.runs.add(traceId, workup);
    } catch (error) {
      this.failures.push({ traceId, error: error instanceof Error ? error : new Error(String(error)) });
    }
  }

  async forceFlush(): Promise<void> {}

  async shutdown(): Promise<void> {}

  private readOpen(traceId: string, spans: readonly ReadableSpan[]): Workup {
    const workup = this.read(traceId, spans);
    if (!workup)
      throw new Error(`otel: trace ${traceId} holds no GenAI span (no tool, model or agent span) yet`);
    return workup;
  }

  /**
   * One trace's spans as a workup: the trajectory as the OTel reading gives it, replayed step by step into a recorder,
   * so the ledger, note and meta follow the same rules as every other harness's. With a recorder of its own, the
   * workup keeps the spans' trajectory (their times); with a given recorder (`runAgent`'s), the recorder's is the run.
   */
  private read(traceId: string, spans: readonly ReadableSpan[], rootName?: string): Workup | undefined {
    const trajectory = fromOtelSpans(toOtlpJson(spans), { traceId, file: `<trace ${traceId}>` });
    const conventions = trajectory.metadata['conventions'];
    if (!Array.isArray(conventions) || conventions.length === 0) return undefined;
    const run: OtelRun = { traceId, ...(rootName !== undefined ? { rootName } : {}) };
    const recorder = startRecorder('otel', this.options, traceId, run);
    const ids = replay(trajectory, recorder);
    const root = spans.find((s) => parentSpanId(s) === undefined || s.parentSpanContext?.isRemote === true);
    const trace = { traceId, ...(root ? { spanId: root.spanContext().spanId } : {}) };
    recorder.setMeta({ trace });
    const recorded = finishRecorder(recorder, this.options);
    if (this.options.recorder) return recorded;
    const times = new Map(
      trajectory.steps.flatMap((s) =>
        s.step_type === 'tool_call' && s.call_id && s.timestamp
          ? [[ids.get(s.call_id), s.timestamp] as const]
          : [],
      ),
    );
    return {
      ...recorded,
      // The ledger's times are the spans' (the recorder's would be now).
      ledger: recorded.ledger.map((entry): LedgerEntry => {
        const ts = times.get(entry.id);
        return ts !== undefined ? { ...entry, ts } : entry;
      }),
      trajectory: {
        ...trajectory,
        steps: trajectory.steps.map((step) => {
          const id = step.call_id ? ids.get(step.call_id) : undefined;
          return id !== undefined && id !== step.call_id ? { ...step, call_id: id } : step;
        }),
      },
    };
  }
}

/**
 * Feeds a trajectory's steps to a recorder, with their latencies and tokens. Returns the id the recorder gave each
 * tool call id (the same, unless it had to be made citable).
 */
function replay(trajectory: Trajectory, recorder: Recorder): Map<string, string> {
  const ids = new Map<string, string>();
  for (const step of trajectory.steps) {
    const timing = { latencyMs: step.latency_ms, tokens: step.tokens_used };
    const callId = step.call_id ?? undefined;
    switch (step.step_type) {
      case 'thought':
        recorder.thought(step.content, timing);
        break;
      case 'answer':
        recorder.answer(step.content, timing);
        break;
      case 'tool_call': {
        const id = recorder.toolCall(step.tool_name ?? 'tool', step.tool_input, callId, timing);
        if (callId !== undefined) ids.set(callId, id);
        break;
      }
      case 'observation':
        if (callId !== undefined)
          recorder.toolResult(
            ids.get(callId) ?? callId,
            step.error !== null ? { error: step.error } : step.tool_output,
            timing,
          );
        break;
    }
  }
  return ids;
}
