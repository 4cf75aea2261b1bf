// The parts of the Vercel AI SDK's results this harness reads, written out structurally so the harness imports
// nothing from `ai` (an optional peer) and reads a v5 or v6 result alike.

/** One part of a step's content, in the order the model produced it, then the tool results and errors. */
export type AiSdkContentPart =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | {
      type: 'tool-call';
      toolCallId: string;
      toolName: string;
      input: unknown;
      invalid?: boolean;
      error?: unknown;
    }
  | { type: 'tool-result'; toolCallId: string; toolName: string; input?: unknown; output: unknown }
  | { type: 'tool-error'; toolCallId: string; toolName: string; input?: unknown; error: unknown }
  | { type: string };

/** Token counts as the SDK reports them (either may be absent). */
export interface AiSdkUsage {
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
}

/** A `StepResult`: one model call and the tool calls it made. */
export interface AiSdkStep {
  content: readonly AiSdkContentPart[];
  text?: string;
  finishReason?: string;
  usage?: AiSdkUsage;
  model?: { provider?: string; modelId?: string };
  response?: { modelId?: string; id?: string };
}

/** A `generateText` result, or a `streamText` result whose fields are promises. */
export interface AiSdkResult {
  steps: readonly AiSdkStep[] | PromiseLike<readonly AiSdkStep[]>;
  finishReason?: string | PromiseLike<string>;
}
