// The AI SDK's own mock model, scripted turn by turn from the shared acceptance turns.
import type { LanguageModelV3GenerateResult, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV3, simulateReadableStream } from 'ai/test';
import type { Turn } from '../helpers/agent.js';

const usage = (input: number, output: number): LanguageModelV3GenerateResult['usage'] => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});

function generated(turn: Turn): LanguageModelV3GenerateResult {
  if ('text' in turn) {
    return {
      content: [{ type: 'text', text: turn.text }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: usage(100, 40),
      warnings: [],
    };
  }
  return {
    content: turn.calls.map((call) => ({
      type: 'tool-call' as const,
      toolCallId: call.id,
      toolName: call.name,
      input: JSON.stringify(call.input),
    })),
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage: usage(50, 10),
    warnings: [],
  };
}

/** A model that plays `turns` in order, one per call, through `generateText` or `streamText`. */
export function scriptedModel(turns: readonly Turn[]): MockLanguageModelV3 {
  let next = 0;
  const turn = (): Turn => {
    const t = turns[next++];
    if (!t) throw new Error(`the script has ${turns.length} turns; the model was called again`);
    return t;
  };
  return new MockLanguageModelV3({
    modelId: 'scripted',
    doGenerate: async () => generated(turn()),
    doStream: async () => {
      const result = generated(turn());
      const chunks: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      for (const part of result.content) {
        if (part.type === 'text') {
          chunks.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: part.text });
          chunks.push({ type: 'text-end', id: 't' });
        } else if (part.type === 'tool-call') chunks.push(part);
      }
      chunks.push({ type: 'finish', finishReason: result.finishReason, usage: result.usage });
      return { stream: simulateReadableStream({ chunks }) };
    },
  });
}
