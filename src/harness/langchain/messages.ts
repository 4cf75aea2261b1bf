import { isRecord, toolOutput } from '../../adapters/common.js';

/**
 * Reading LangChain messages by their fields rather than their classes, so the harness needs no runtime import of
 * `@langchain/core` beyond the callback handler it extends, and works across the message classes' versions.
 */

/** A message's type: `ai`, `human`, `tool`, `system` (the `type` field, or `_getType()` of older messages). */
export function messageType(message: unknown): string | undefined {
  if (!isRecord(message)) return undefined;
  if (typeof message['type'] === 'string') return message['type'];
  if (typeof message['role'] === 'string') return message['role'] === 'assistant' ? 'ai' : message['role'];
  const getType = message['_getType'];
  return typeof getType === 'function' ? String(getType.call(message)) : undefined;
}

/** The text of a message content: a string, or the `text` parts of a content-block list. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) =>
      isRecord(part) && part['type'] === 'text' && typeof part['text'] === 'string' ? part['text'] : '',
    )
    .filter((t) => t !== '')
    .join('\n');
}

/** What a model's reply holds: its text, the tool calls it asks for, its token usage. */
export interface Reply {
  text: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
}

/** The reply in an `LLMResult` (its first generation), from an `AIMessage` or a plain text generation. */
export function replyOf(output: unknown): Reply {
  const generation =
    isRecord(output) && Array.isArray(output['generations']) ? output['generations'][0] : undefined;
  const first = Array.isArray(generation) ? generation[0] : undefined;
  const message = isRecord(first) ? first['message'] : undefined;
  const reply: Reply = { text: '', calls: 0, inputTokens: 0, outputTokens: 0 };
  if (isRecord(message)) {
    reply.text = textOf(message['content']);
    reply.calls = Array.isArray(message['tool_calls']) ? message['tool_calls'].length : 0;
    const usage = message['usage_metadata'];
    if (isRecord(usage)) {
      reply.inputTokens = typeof usage['input_tokens'] === 'number' ? usage['input_tokens'] : 0;
      reply.outputTokens = typeof usage['output_tokens'] === 'number' ? usage['output_tokens'] : 0;
    }
  } else if (isRecord(first) && typeof first['text'] === 'string') reply.text = first['text'];
  if (
    reply.inputTokens === 0 &&
    reply.outputTokens === 0 &&
    isRecord(output) &&
    isRecord(output['llmOutput'])
  ) {
    // Older chat models and LLMs report usage in llmOutput.tokenUsage instead.
    const usage = output['llmOutput']['tokenUsage'];
    if (isRecord(usage)) {
      reply.inputTokens = typeof usage['promptTokens'] === 'number' ? usage['promptTokens'] : 0;
      reply.outputTokens = typeof usage['completionTokens'] === 'number' ? usage['completionTokens'] : 0;
    }
  }
  return reply;
}

/**
 * A tool's result as the recorder takes it: a `ToolMessage` (what tools return when called with a tool call) gives
 * its content, as data when it is JSON text, or `{ error }` when its status is `error`; any other value is kept.
 */
export function toolResultOf(output: unknown): unknown {
  if (isRecord(output) && messageType(output) === 'tool') {
    const text = textOf(output['content']);
    if (output['status'] === 'error') return { error: text };
    return toolOutput(typeof output['content'] === 'string' ? output['content'] : text);
  }
  return toolOutput(output);
}

/**
 * The user's question in a run's inputs: a string, `{ input }`, `{ question }`, or the first human message of
 * `{ messages }` (LangGraph agents) or of a message list (chat models).
 */
export function questionOf(inputs: unknown): string | undefined {
  if (typeof inputs === 'string') return inputs;
  const messages = Array.isArray(inputs) ? inputs.flat() : isRecord(inputs) ? inputs['messages'] : undefined;
  if (Array.isArray(messages)) {
    for (const message of messages.flat()) {
      if (typeof message === 'string') return message;
      if (messageType(message) === 'human' || messageType(message) === 'user')
        return textOf((message as Record<string, unknown>)['content']);
    }
  }
  if (isRecord(inputs)) {
    for (const key of ['input', 'question', 'query'])
      if (typeof inputs[key] === 'string') return inputs[key] as string;
  }
  return undefined;
}

/**
 * The final answer in a run's outputs: the last AI message that asked for no tool (`{ messages }`), else an `output`
 * or `answer` string, else the output itself when it is a string or an AI message.
 */
export function answerOf(outputs: unknown): string | undefined {
  if (typeof outputs === 'string') return outputs;
  if (!isRecord(outputs)) return undefined;
  if (messageType(outputs) === 'ai') return textOf(outputs['content']) || undefined;
  const messages = outputs['messages'];
  if (Array.isArray(messages)) {
    const last = messages.at(-1);
    if (
      isRecord(last) &&
      messageType(last) === 'ai' &&
      !(Array.isArray(last['tool_calls']) && last['tool_calls'].length > 0)
    ) {
      return textOf(last['content']) || undefined;
    }
    return undefined;
  }
  for (const key of ['output', 'answer']) if (typeof outputs[key] === 'string') return outputs[key] as string;
  return undefined;
}
