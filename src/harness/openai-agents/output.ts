import { isRecord } from '../../adapters/common.js';

/**
 * What a model said in one generation or response span, in whichever shape the model provider traced it: Chat
 * Completions responses (`choices[].message` with `content` and `tool_calls`), the Agents SDK's own protocol items
 * (`{ type: 'message', content: [{ type: 'output_text' }] }`, `{ type: 'function_call', callId }`, as the AI SDK
 * adapter and `traceModel` write them), Responses API items (`call_id`, `reasoning` summaries) and plain chat messages.
 */
export interface ModelOutput {
  /** The assistant text, parts joined by newlines. */
  text: string;
  /** Reasoning the model showed (summaries or reasoning text), joined by newlines. */
  reasoning: string;
  /** The tool calls it asked for, in order; `arguments` as the model wrote them (JSON text, usually). */
  calls: Array<{ id?: string; name: string; arguments: unknown }>;
}

export function readModelOutput(items: unknown): ModelOutput {
  const out: ModelOutput = { text: '', reasoning: '', calls: [] };
  const texts: string[] = [];
  const reasoning: string[] = [];
  const visit = (item: unknown): void => {
    if (typeof item === 'string') {
      texts.push(item);
      return;
    }
    if (!isRecord(item)) return;
    if (Array.isArray(item['choices'])) {
      for (const choice of item['choices']) if (isRecord(choice)) visit(choice['message']);
      return;
    }
    if (Array.isArray(item['output'])) {
      for (const inner of item['output']) visit(inner);
      return;
    }
    const type = item['type'];
    if (type === 'function_call') {
      const name = item['name'];
      const id = item['callId'] ?? item['call_id'] ?? item['id'];
      if (typeof name === 'string')
        out.calls.push({ ...(typeof id === 'string' ? { id } : {}), name, arguments: item['arguments'] });
      return;
    }
    if (type === 'reasoning') {
      for (const key of ['summary', 'content', 'rawContent']) {
        const parts = item[key];
        if (Array.isArray(parts))
          for (const part of parts)
            if (isRecord(part) && typeof part['text'] === 'string') reasoning.push(part['text']);
      }
      return;
    }
    if (item['role'] !== undefined && item['role'] !== 'assistant') return;
    const content = item['content'];
    if (typeof content === 'string') texts.push(content);
    else if (Array.isArray(content)) {
      for (const part of content) {
        if (isRecord(part) && (part['type'] === 'output_text' || part['type'] === 'text')) {
          if (typeof part['text'] === 'string') texts.push(part['text']);
        }
      }
    }
    if (Array.isArray(item['tool_calls'])) {
      for (const call of item['tool_calls']) {
        if (!isRecord(call)) continue;
        const fn = isRecord(call['function']) ? call['function'] : call;
        if (typeof fn['name'] !== 'string') continue;
        out.calls.push({
          ...(typeof call['id'] === 'string' ? { id: call['id'] } : {}),
          name: fn['name'],
          arguments: fn['arguments'],
        });
      }
    }
  };
  if (Array.isArray(items)) for (const item of items) visit(item);
  else visit(items);
  out.text = texts.filter((t) => t.trim() !== '').join('\n');
  out.reasoning = reasoning.filter((t) => t.trim() !== '').join('\n');
  return out;
}

/** The first user text of a model input (a string, or a list of messages), for the trajectory's `task_input`. */
export function firstUserText(input: unknown): string | undefined {
  if (typeof input === 'string') return input;
  if (!Array.isArray(input)) return undefined;
  for (const item of input) {
    if (!isRecord(item) || item['role'] !== 'user') continue;
    const content = item['content'];
    if (typeof content === 'string') return content;
    if (Array.isArray(content)) {
      const text = content
        .map((part) => (isRecord(part) && typeof part['text'] === 'string' ? part['text'] : ''))
        .join('');
      if (text !== '') return text;
    }
  }
  return undefined;
}

/** Input plus output tokens of a usage record in any of the providers' spellings; 0 when there is none. */
export function tokensOf(usage: unknown): number {
  if (!isRecord(usage)) return 0;
  const n = (...keys: string[]): number => {
    for (const key of keys) if (typeof usage[key] === 'number') return usage[key] as number;
    return 0;
  };
  return (
    n('input_tokens', 'inputTokens', 'prompt_tokens') +
    n('output_tokens', 'outputTokens', 'completion_tokens')
  );
}
