import type { Span, SpanData, Trace, TracingProcessor } from '@openai/agents';
import { toolOutput } from '../../adapters/common.js';
import type { Workup } from '../../model/workup.js';
import type { Recorder } from '../../recorder/types.js';
import { type HarnessOptions, Runs } from '../runs.js';
import { firstUserText, type ModelOutput, readModelOutput, tokensOf } from './output.js';

/** What an `id` function is given: the trace of one run, as the Agents SDK names it. */
export interface AgentsRun {
  traceId: string;
  /** The workflow name (`RunConfig.workflowName`, `withTrace(name)`); the SDK's default is `Agent workflow`. */
  name: string;
  groupId: string | null;
  metadata?: Record<string, unknown>;
}

export type WorkupProcessorOptions = HarnessOptions<AgentsRun>;

/** What one trace has shown so far that its recorder does not hold yet. */
interface TraceState {
  run: AgentsRun;
  /** Tool calls the model asked for that no function span has executed yet, so a span finds its call id. */
  requested: ModelOutput['calls'];
  /**
   * The latest model text that asked for no tool: the final answer if the run ends next, else a thought. It waits
   * here because only what comes after it tells which.
   */
  pending?: { text: string; tokens: number; latencyMs: number };
  /** When the last recorded span ended (ms since the epoch), for the time a tool call waited. */
  lastEnd?: number;
}

/**
 * A tracing processor for the OpenAI Agents SDK (`@openai/agents`) that records each trace (one `run()`, or everything
 * inside one `withTrace`) as a workup:
 * - a `function` span is a tool call and its result (`{ error }` when the span has an error), the call id taken from
 *   the model's matching `function_call` when the model's output was traced, else `g1, g2, ...`;
 * - a `generation` or `response` span is the model's turn: its text a `thought` (tokens from its usage), its
 *   requested calls remembered for the function spans; the last text that asked for no tool is the final answer;
 * - a `handoff` span is a `thought` (`Handoff: Triage → Research`);
 * - the run's outermost span (`task`, or `agent` in traces without task spans) ends the run: the model text waiting
 *   is the answer, the task span's usage is the run's usage, and an error on a task or agent span fails the run.
 * Register it with `setTraceProcessors([processor])` (which also keeps traces from being exported) or
 * `addTraceProcessor(processor)`; tracing must be enabled (the SDK disables it when `NODE_ENV` is `test`:
 * `setTracingDisabled(false)`). Models that trace no output (the SDK's `ScriptedModel`, a custom `Model`) leave no
 * thoughts or answer: wrap them with `traceModel`. Latencies come from the spans' own timestamps.
 */
export class WorkupProcessor implements TracingProcessor {
  private readonly runs: Runs<AgentsRun>;
  private readonly traces = new Map<string, TraceState>();

  constructor(options: WorkupProcessorOptions = {}) {
    this.runs = new Runs('openai-agents', options);
  }

  /** The workups of the traces that ended, in the order they ended. */
  get workups(): readonly Workup[] {
    return this.runs.workups;
  }

  /** The workup of a trace (by trace id), ended or in progress; by default the trace that started last. */
  workup(traceId?: string): Workup {
    return this.runs.workup(traceId);
  }

  async onTraceStart(trace: Trace): Promise<void> {
    this.state(trace.traceId, trace);
  }

  async onTraceEnd(trace: Trace): Promise<void> {
    const state = this.traces.get(trace.traceId);
    if (!state) return;
    this.traces.delete(trace.traceId);
    if (state.pending) this.release(state, this.recorder(trace.traceId, state), 'answer');
    this.runs.end(trace.traceId);
  }

  async onSpanStart(): Promise<void> {}

  async onSpanEnd(span: Span<SpanData>): Promise<void> {
    const state = this.state(span.traceId);
    const data = span.spanData as Record<string, unknown> & { type: string };
    const started = time(span.startedAt);
    const ended = time(span.endedAt);
    const latencyMs = started !== undefined && ended !== undefined ? Math.max(0, ended - started) : undefined;
    switch (data.type) {
      case 'generation':
      case 'response': {
        const response = data.type === 'response' ? data['_response'] : undefined;
        const output = readModelOutput(data.type === 'response' ? response : data['output']);
        const input = firstUserText(data.type === 'response' ? data['_input'] : data['input']);
        const recorder = this.recorder(span.traceId, state, input);
        this.release(state, recorder, 'thought');
        const tokens = tokensOf(
          data.type === 'response' ? (response as { usage?: unknown })?.usage : data['usage'],
        );
        const said = [output.reasoning, output.calls.length > 0 ? output.text : '']
          .filter((t) => t !== '')
          .join('\n');
        if (said !== '')
          recorder.thought(said, { tokens, ...(latencyMs !== undefined ? { latencyMs } : {}) });
        if (output.calls.length === 0 && output.text !== '') {
          state.pending = { text: output.text, tokens: said === '' ? tokens : 0, latencyMs: latencyMs ?? 0 };
        }
        state.requested.push(...output.calls);
        break;
      }
      case 'function': {
        const recorder = this.recorder(span.traceId, state);
        this.release(state, recorder, 'thought');
        const name = String(data['name']);
        const call = this.match(state, name, data['input']);
        const gap =
          started !== undefined && state.lastEnd !== undefined
            ? Math.max(0, started - state.lastEnd)
            : undefined;
        const id = recorder.toolCall(
          name,
          toolOutput(data['input'] === '' ? undefined : data['input']),
          call?.id,
          gap !== undefined ? { latencyMs: gap } : undefined,
        );
        const error = span.error;
        recorder.toolResult(
          id,
          error ? { error: errorText(error) } : toolOutput(data['output']),
          latencyMs !== undefined ? { latencyMs } : undefined,
        );
        break;
      }
      case 'handoff': {
        const recorder = this.recorder(span.traceId, state);
        this.release(state, recorder, 'thought');
        recorder.thought(`Handoff: ${data['from_agent'] ?? '?'} → ${data['to_agent'] ?? '?'}`, {
          ...(latencyMs !== undefined ? { latencyMs } : {}),
        });
        break;
      }
      case 'task':
      case 'agent': {
        const recorder = this.runs.peek(span.traceId);
        if (span.error) (recorder ?? this.recorder(span.traceId, state)).fail(errorText(span.error));
        // The run's outermost span ends when the run does, before the trace (a streamed run resolves `completed`
        // in between): the text waiting is its answer.
        if (span.parentId === null && state.pending)
          this.release(state, this.recorder(span.traceId, state), 'answer');
        const usage = data['usage'] as { input_tokens?: number; output_tokens?: number } | undefined;
        if (data.type === 'task' && span.parentId === null && usage) {
          this.recorder(span.traceId, state).usage({
            inputTokens: usage.input_tokens ?? 0,
            outputTokens: usage.output_tokens ?? 0,
          });
        }
        break;
      }
      default:
        return;
    }
    if (ended !== undefined) state.lastEnd = ended;
  }

  async shutdown(): Promise<void> {}

  async forceFlush(): Promise<void> {}

  private state(traceId: string, trace?: Trace): TraceState {
    let state = this.traces.get(traceId);
    if (!state) {
      // A span of a trace that started before this processor was registered still records, under its trace id.
      const run: AgentsRun = trace
        ? {
            traceId,
            name: trace.name,
            groupId: trace.groupId,
            ...(trace.metadata !== undefined ? { metadata: trace.metadata } : {}),
          }
        : { traceId, name: '', groupId: null };
      state = { run, requested: [] };
      this.traces.set(traceId, state);
    }
    return state;
  }

  private recorder(traceId: string, state: TraceState, input?: string): Recorder {
    return this.runs.recorder(traceId, state.run, input);
  }

  /**
   * Records the model text waiting, if any: the final answer when the run ends next, a thought when more work
   * follows it.
   */
  private release(state: TraceState, recorder: Recorder, as: 'answer' | 'thought'): void {
    if (!state.pending) return;
    const { text, tokens, latencyMs } = state.pending;
    state.pending = undefined;
    recorder[as](text, { tokens, latencyMs });
  }

  /**
   * The requested call a function span executed: the first not yet taken with the same name and arguments, else with
   * the same name. The SDK runs calls in the order the model asked for them, so order settles repeats.
   */
  private match(state: TraceState, name: string, input: unknown): ModelOutput['calls'][number] | undefined {
    let index = state.requested.findIndex((c) => c.name === name && c.arguments === input);
    if (index < 0) index = state.requested.findIndex((c) => c.name === name);
    if (index < 0) return undefined;
    return state.requested.splice(index, 1)[0];
  }
}

function time(iso: string | null): number | undefined {
  if (iso === null) return undefined;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}

/** A span error's message, with the detail the SDK puts in `data.error` (the tool's own message, or a redaction). */
function errorText(error: { message: string; data?: Record<string, unknown> }): string {
  const detail = error.data?.['error'];
  return typeof detail === 'string' && detail !== '' ? detail : error.message;
}
