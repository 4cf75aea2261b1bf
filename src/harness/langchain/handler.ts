import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import type { Serialized } from '@langchain/core/load/serializable';
import { toolOutput } from '../../adapters/common.js';
import type { Workup } from '../../model/workup.js';
import type { Recorder } from '../../recorder/types.js';
import { type HarnessOptions, Runs } from '../runs.js';
import { answerOf, questionOf, replyOf, toolResultOf } from './messages.js';

/** What an `id` function is given: the root run of one invocation, as LangChain names it. */
export interface LangChainRun {
  /** The root run's id (a UUID). */
  runId: string;
  /** The root runnable's name (`LangGraph`, a chain's `runName`), when LangChain gives one. */
  name?: string;
}

export type WorkupCallbackHandlerOptions = HarnessOptions<LangChainRun>;

/**
 * A LangChain.js callback handler that records each root run (one `invoke()` of an agent, graph, chain, model or
 * tool, with everything it calls) as a workup:
 * - a tool run is a tool call (its id the model's tool call id when LangChain gives one, else `g1, g2, ...`) and its
 *   result (the `ToolMessage` content, as data when it is JSON; `{ error }` for a tool error or an error status);
 * - a model reply is a `thought` when it asks for tools (its text, its tokens), and the reply that asks for none is
 *   the final answer if the run ends next, else a thought; tokens and usage come from `usage_metadata`;
 * - the root run's end ends the workup (its error fails it); a root run with no model reply to close it takes its
 *   answer from its outputs (the last AI message of `{ messages }`, or an `output` string).
 * Pass it per call (`agent.invoke(input, { callbacks: [handler] })`); it awaits nothing, and sets `awaitHandlers` so
 * the workup is complete when `invoke()` resolves.
 */
export class WorkupCallbackHandler extends BaseCallbackHandler {
  name = 'needlework_workup';
  override awaitHandlers = true;

  private readonly runs: Runs<LangChainRun>;
  /** The root run of every run seen, so an event deep in a graph finds its workup. */
  private readonly roots = new Map<string, string>();
  /** The call id each tool run was recorded under. */
  private readonly calls = new Map<string, string>();
  /** Per root: the latest model text that asked for no tool (see `WorkupProcessor` in the OpenAI Agents harness). */
  private readonly pending = new Map<string, { text: string; tokens: number }>();

  constructor(options: WorkupCallbackHandlerOptions = {}) {
    super();
    this.runs = new Runs('langchain', options);
  }

  /** The workups of the root runs that ended, in the order they ended. */
  get workups(): readonly Workup[] {
    return this.runs.workups;
  }

  /** The workup of a root run (by run id), ended or in progress; by default the root run that started last. */
  workup(runId?: string): Workup {
    return this.runs.workup(runId);
  }

  // LangChain calls handleChainStart as (chain, inputs, runId, parentRunId, tags, metadata, runType, runName), as its
  // own BaseTracer reads it; the declared parameter order differs, so the names here follow the calls.
  override handleChainStart(
    _chain: Serialized,
    inputs: unknown,
    runId: string,
    parentRunId?: string,
    _tags?: string[],
    _metadata?: Record<string, unknown>,
    _runType?: string,
    runName?: string,
  ): void {
    this.enter(runId, parentRunId, inputs, runName);
  }

  override handleChainEnd(outputs: unknown, runId: string): void {
    if (this.roots.get(runId) !== runId) return;
    const recorder = this.runs.peek(runId);
    if (recorder && !this.pending.has(runId)) {
      const answer = answerOf(outputs);
      if (answer !== undefined) this.pending.set(runId, { text: answer, tokens: 0 });
    }
    this.leave(runId);
  }

  override handleChainError(error: unknown, runId: string): void {
    this.fail(runId, error);
  }

  override handleChatModelStart(
    _llm: Serialized,
    messages: unknown[][],
    runId: string,
    parentRunId?: string,
    _extra?: Record<string, unknown>,
    _tags?: string[],
    _metadata?: Record<string, unknown>,
    runName?: string,
  ): void {
    this.enter(runId, parentRunId, messages, runName);
  }

  override handleLLMStart(
    _llm: Serialized,
    prompts: string[],
    runId: string,
    parentRunId?: string,
    _extra?: Record<string, unknown>,
    _tags?: string[],
    _metadata?: Record<string, unknown>,
    runName?: string,
  ): void {
    this.enter(runId, parentRunId, prompts[0], runName);
  }

  override handleLLMEnd(output: unknown, runId: string): void {
    const root = this.roots.get(runId);
    if (root === undefined) return;
    const recorder = this.runs.recorder(root, { runId: root });
    this.flush(root, recorder);
    const reply = replyOf(output);
    const tokens = reply.inputTokens + reply.outputTokens;
    if (tokens > 0) recorder.usage({ inputTokens: reply.inputTokens, outputTokens: reply.outputTokens });
    if (reply.calls > 0) {
      if (reply.text.trim() !== '') recorder.thought(reply.text, { tokens });
    } else if (reply.text.trim() !== '') this.pending.set(root, { text: reply.text, tokens });
    if (root === runId) this.leave(runId);
  }

  override handleLLMError(error: unknown, runId: string): void {
    this.fail(runId, error);
  }

  override handleToolStart(
    tool: Serialized,
    input: string,
    runId: string,
    parentRunId?: string,
    _tags?: string[],
    _metadata?: Record<string, unknown>,
    runName?: string,
    toolCallId?: string,
  ): void {
    const root = this.enter(runId, parentRunId, input, runName);
    const recorder = this.runs.recorder(root, { runId: root });
    this.flush(root, recorder);
    const name = runName ?? (tool as { name?: string }).name ?? tool.id.at(-1) ?? 'tool';
    this.calls.set(runId, recorder.toolCall(name, toolOutput(input), toolCallId));
  }

  override handleToolEnd(output: unknown, runId: string): void {
    this.result(runId, toolResultOf(output));
  }

  override handleToolError(error: unknown, runId: string): void {
    this.result(runId, { error: error instanceof Error ? error.message : String(error) });
  }

  /** Registers a run under its root; a root run starts a workup, with the question its inputs ask. */
  private enter(runId: string, parentRunId: string | undefined, inputs: unknown, name?: string): string {
    // A parent this handler never saw (the handler was attached below the root) roots the run by its own id.
    const root = parentRunId === undefined ? runId : (this.roots.get(parentRunId) ?? parentRunId);
    this.roots.set(runId, root);
    if (root === runId) {
      const question = questionOf(inputs);
      this.runs.recorder(root, { runId, ...(name !== undefined ? { name } : {}) }, question);
    }
    return root;
  }

  private result(runId: string, output: unknown): void {
    const root = this.roots.get(runId);
    const callId = this.calls.get(runId);
    if (root === undefined || callId === undefined) return;
    this.calls.delete(runId);
    this.runs.peek(root)?.toolResult(callId, output);
    if (root === runId) this.leave(runId);
  }

  private fail(runId: string, error: unknown): void {
    if (this.roots.get(runId) !== runId) return;
    this.runs.peek(runId)?.fail(error);
    this.leave(runId, false);
  }

  private flush(root: string, recorder: Recorder): void {
    const pending = this.pending.get(root);
    if (!pending) return;
    this.pending.delete(root);
    recorder.thought(pending.text, { tokens: pending.tokens });
  }

  /** Ends a root run: its waiting model text is the answer (or, when it failed, a thought), then the workup. */
  private leave(root: string, answered = true): void {
    const recorder = this.runs.peek(root);
    const pending = this.pending.get(root);
    this.pending.delete(root);
    if (recorder && pending) {
      if (answered) recorder.answer(pending.text, { tokens: pending.tokens });
      else recorder.thought(pending.text, { tokens: pending.tokens });
    }
    for (const [run, owner] of this.roots) if (owner === root) this.roots.delete(run);
    this.runs.end(root);
  }
}
