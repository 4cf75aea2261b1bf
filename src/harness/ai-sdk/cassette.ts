import { type CallCassette, defineCallCodec } from '../../cassette/calls.js';
import { isObject } from '../../cassette/store.js';
import { generateCodec, streamCodec } from './shapes.js';

/** The parts of an AI SDK language model (specification v2 or v3) a cassette needs; nothing is imported from `ai`. */
export interface AiSdkModel {
  readonly specificationVersion: string;
  readonly provider: string;
  readonly modelId: string;
  readonly supportedUrls?: unknown;
  // biome-ignore lint/suspicious/noExplicitAny: the SDK's own call options and results pass through untouched
  doGenerate(options: any): PromiseLike<any>;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  doStream(options: any): PromiseLike<any>;
}

/**
 * The model with its responses recorded to, and replayed from, a cassette: `generateText` and `streamText` run
 * offline once recorded. Keyed by the call options without `abortSignal` and `headers` (credentials and request ids
 * live there); the recorded response keeps content, finish reason, usage, warnings, provider metadata and response
 * id, model and time, never the raw request or response bodies and headers.
 */
export function cassetteModel<M extends AiSdkModel>(model: M, cassette: CallCassette): M {
  const name = `${model.provider}:${model.modelId}`;
  const wrapped: AiSdkModel = {
    specificationVersion: model.specificationVersion,
    provider: model.provider,
    modelId: model.modelId,
    get supportedUrls() {
      return model.supportedUrls;
    },
    doGenerate: (options) =>
      cassette.call(
        'model',
        name,
        callArgs(options),
        () => model.doGenerate(options),
        GENERATE[model.specificationVersion === 'v2' ? 'v2' : 'v3'],
      ),
    doStream: async (options) => {
      const parts = await cassette.call(
        'model',
        name,
        { ...callArgs(options), stream: true },
        async () => collect((await model.doStream(options)).stream),
        STREAM[model.specificationVersion === 'v2' ? 'v2' : 'v3'],
      );
      return { stream: streamOf(parts) };
    },
  };
  return wrapped as M;
}

/** The tools with each `execute` answered from, and recorded to, the cassette, keyed by tool name and input. */
export function cassetteTools<T extends Record<string, unknown>>(tools: T, cassette: CallCassette): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = (tool as { execute?: unknown } | null)?.execute;
    wrapped[name] =
      typeof execute !== 'function'
        ? tool
        : {
            ...(tool as object),
            execute: (input: unknown, context: unknown) =>
              cassette.call('tool', name, input, () => execute.call(tool, input, context)),
          };
  }
  return wrapped as T;
}

/** A `doGenerate` result as recorded: what the SDK reads of it, never the raw request or response bodies. */
function encodeGenerate(result: Record<string, unknown>): unknown {
  return {
    content: result.content,
    finishReason: result.finishReason,
    usage: result.usage,
    warnings: result.warnings ?? [],
    ...(result.providerMetadata !== undefined ? { providerMetadata: result.providerMetadata } : {}),
    ...(isObject(result.response) ? { response: responseMetadata(result.response) } : {}),
  };
}

function decodeGenerate(json: unknown): Record<string, unknown> {
  const result = json as Record<string, unknown>;
  return isObject(result.response) ? { ...result, response: withDate(result.response) } : result;
}

const GENERATE = {
  v2: defineCallCodec({
    name: 'ai-sdk/v2/generate',
    encode: encodeGenerate,
    decode: decodeGenerate,
    check: generateCodec('v2'),
  }),
  v3: defineCallCodec({
    name: 'ai-sdk/v3/generate',
    encode: encodeGenerate,
    decode: decodeGenerate,
    check: generateCodec('v3'),
  }),
};

const decodeStream = (json: unknown) => (json as Array<Record<string, unknown>>).map(withDate);
const STREAM = {
  v2: defineCallCodec({ name: 'ai-sdk/v2/stream', decode: decodeStream, check: streamCodec('v2') }),
  v3: defineCallCodec({ name: 'ai-sdk/v3/stream', decode: decodeStream, check: streamCodec('v3') }),
};

function callArgs(options: Record<string, unknown>): Record<string, unknown> {
  const { abortSignal: _signal, headers: _headers, ...args } = options;
  return args;
}

function responseMetadata(response: Record<string, unknown>): Record<string, unknown> {
  const { id, modelId, timestamp } = response;
  return {
    ...(id !== undefined ? { id } : {}),
    ...(modelId !== undefined ? { modelId } : {}),
    ...(timestamp !== undefined ? { timestamp } : {}),
  };
}

/** A recorded `timestamp` (an ISO string in the cassette) as the `Date` the SDK expects. */
function withDate<T extends Record<string, unknown>>(value: T): T {
  return typeof value.timestamp === 'string' ? { ...value, timestamp: new Date(value.timestamp) } : value;
}

async function collect(
  stream: ReadableStream<Record<string, unknown>>,
): Promise<Array<Record<string, unknown>>> {
  const parts: Array<Record<string, unknown>> = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return parts;
    parts.push(value);
  }
}

function streamOf<T>(parts: readonly T[]): ReadableStream<T> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}
