import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import type { BaseLanguageModelInput } from '@langchain/core/language_models/base';
import { BaseChatModel, type BindToolsInput } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import type { Runnable } from '@langchain/core/runnables';
import { type CallCassette, defineCallCodec } from '../../cassette/calls.js';
import { isObject } from '../../cassette/store.js';

type ChatRunnable = Pick<Runnable<BaseLanguageModelInput, BaseMessage>, 'invoke'> & {
  bindTools?(tools: BindToolsInput[], kwargs?: Record<string, unknown>): ChatRunnable;
};

/**
 * A chat model whose replies are recorded to, and replayed from, a cassette, so a LangChain.js or LangGraph.js agent
 * (`createReactAgent({ llm: cassetteChatModel(model, cassette), tools })`) goes offline once recorded. Keyed by the
 * messages (type, content, tool calls, tool call id, name: never message ids, which LangGraph makes up per run), the
 * names of the bound tools and the stop sequences; the recorded reply keeps its content, tool calls, usage and
 * response metadata. Callbacks (the `WorkupCallbackHandler`) see this model's runs, replayed or live, and not the
 * wrapped model's. `name` names the model in the cassette (default: the model's `_llmType()`). Wrap tools with
 * `tool(cassette.tool(name, fn), { name, schema })`.
 */
export function cassetteChatModel(
  model: ChatRunnable & { _llmType?(): string },
  cassette: CallCassette,
  name = model._llmType?.() ?? 'chat-model',
): BaseChatModel {
  return new CassetteChatModel(model, cassette, name, []);
}

class CassetteChatModel extends BaseChatModel {
  constructor(
    private readonly inner: ChatRunnable,
    private readonly cassette: CallCassette,
    private readonly modelName: string,
    private readonly toolNames: readonly string[],
  ) {
    super({});
  }

  _llmType(): string {
    return `needlework-cassette(${this.modelName})`;
  }

  override bindTools(tools: BindToolsInput[], kwargs?: Record<string, unknown>): CassetteChatModel {
    if (!this.inner.bindTools) throw new TypeError(`${this.modelName} cannot bind tools`);
    return new CassetteChatModel(this.inner.bindTools(tools, kwargs), this.cassette, this.modelName, [
      ...tools.map(toolName),
    ]);
  }

  async _generate(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    _runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    const args = {
      messages: messages.map(messageData),
      tools: this.toolNames,
      ...(options.stop !== undefined ? { stop: options.stop } : {}),
    };
    const message = await this.cassette.call(
      'model',
      this.modelName,
      args,
      // No callbacks: the handler records this model's run, not the wrapped one's too.
      () =>
        this.inner.invoke(messages, { callbacks: [], ...(options.signal ? { signal: options.signal } : {}) }),
      MESSAGE,
    );
    return { generations: [{ text: typeof message.content === 'string' ? message.content : '', message }] };
  }
}

function toolName(tool: BindToolsInput): string {
  const t = tool as { name?: unknown; function?: { name?: unknown } };
  return typeof t.name === 'string' ? t.name : typeof t.function?.name === 'string' ? t.function.name : '?';
}

/** What of a message decides the model's reply: not its id, and not the metadata of replies before it. */
function messageData(message: BaseMessage): Record<string, unknown> {
  const m = message as BaseMessage & { tool_calls?: unknown; tool_call_id?: unknown; status?: unknown };
  return {
    type: message.getType(),
    content: message.content,
    ...(message.name !== undefined ? { name: message.name } : {}),
    ...(Array.isArray(m.tool_calls) && m.tool_calls.length > 0
      ? {
          tool_calls: m.tool_calls.map((c: { id?: string; name: string; args: unknown }) => ({
            id: c.id,
            name: c.name,
            args: c.args,
          })),
        }
      : {}),
    ...(m.tool_call_id !== undefined ? { tool_call_id: m.tool_call_id } : {}),
    ...(m.status !== undefined ? { status: m.status } : {}),
  };
}

const MESSAGE = defineCallCodec<BaseMessage>({
  name: 'langchain/ai-message',
  encode: (message) => {
    const m = message as AIMessage;
    return {
      content: m.content,
      tool_calls: (m.tool_calls ?? []).map((c) => ({
        id: c.id,
        name: c.name,
        args: c.args,
        type: 'tool_call',
      })),
      ...(m.invalid_tool_calls?.length ? { invalid_tool_calls: m.invalid_tool_calls } : {}),
      ...(m.usage_metadata !== undefined ? { usage_metadata: m.usage_metadata } : {}),
      ...(m.response_metadata !== undefined ? { response_metadata: m.response_metadata } : {}),
      ...(m.name !== undefined ? { name: m.name } : {}),
      ...(m.id !== undefined ? { id: m.id } : {}),
    };
  },
  decode: (json) => new AIMessage(json as ConstructorParameters<typeof AIMessage>[0] & object),
  check: (json) => {
    if (!isObject(json)) return 'the recorded reply is not an object';
    if (typeof json.content !== 'string' && !Array.isArray(json.content))
      return 'content is not text or parts';
    if (!Array.isArray(json.tool_calls)) return 'tool_calls is not a list';
    const bad = json.tool_calls.findIndex(
      (c) => !isObject(c) || typeof c.name !== 'string' || !isObject(c.args),
    );
    if (bad >= 0) return `tool_calls[${bad}] needs a name and args`;
    const usage = json.usage_metadata;
    if (usage !== undefined && !(isObject(usage) && typeof usage.input_tokens === 'number')) {
      return 'usage_metadata.input_tokens is not a number';
    }
    return undefined;
  },
});
