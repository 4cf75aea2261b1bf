import { type Model, type ModelRequest, type ModelResponse, type StreamEvent, Usage } from '@openai/agents';
import { type CallCassette, defineCallCodec } from '../../cassette/calls.js';
import { isObject } from '../../cassette/store.js';

/**
 * The model with its responses recorded to, and replayed from, a cassette, so an OpenAI Agents SDK run goes offline
 * once recorded (`run(agent, input)` and `run(agent, input, { stream: true })` alike). Keyed by the request without
 * its abort signal, tracing flag and tracing span: instructions, input items, model settings, tools, output type, handoffs. The
 * recorded response keeps its output items, usage and response id. `name` names the model in the cassette (default:
 * the model's own `model` field, else its class name). Wrap tools with `cassette.tool(name, execute)`.
 */
export function cassetteModel(model: Model, cassette: CallCassette, name = modelName(model)): Model {
  const wrapped: Model = {
    getResponse: (request) =>
      cassette.call('model', name, requestArgs(request), () => model.getResponse(request), RESPONSE),
    async *getStreamedResponse(request) {
      const events = await cassette.call(
        'model',
        name,
        { ...requestArgs(request), stream: true },
        async () => {
          const events: StreamEvent[] = [];
          for await (const event of model.getStreamedResponse(request)) events.push(event);
          return events;
        },
        STREAM,
      );
      yield* events;
    },
  };
  if (model.supportsPromptModelSelection !== undefined) {
    Object.assign(wrapped, { supportsPromptModelSelection: model.supportsPromptModelSelection });
  }
  if (model.getRetryAdvice) wrapped.getRetryAdvice = (args) => model.getRetryAdvice!(args);
  return wrapped;
}

function modelName(model: Model): string {
  const own = (model as { model?: unknown }).model;
  return typeof own === 'string' ? own : model.constructor?.name || 'model';
}

/** The request as keyed: without its abort signal, tracing flag and the SDK's `_internal` (the tracing parent span). */
function requestArgs(request: ModelRequest): Record<string, unknown> {
  const { signal: _signal, tracing: _tracing, toolsExplicitlyProvided: _explicit, ...args } = request;
  delete (args as Record<string, unknown>)._internal;
  return args;
}

const RESPONSE = defineCallCodec<ModelResponse>({
  name: 'openai-agents/response',
  encode: (response) => ({
    output: response.output,
    usage: usageData(response.usage),
    ...(response.responseId !== undefined ? { responseId: response.responseId } : {}),
  }),
  decode: (json) => {
    const { output, usage, responseId } = json as {
      output: ModelResponse['output'];
      usage: object;
      responseId?: string;
    };
    return { output, usage: new Usage(usage), ...(responseId !== undefined ? { responseId } : {}) };
  },
  check: (json) => {
    if (!isObject(json)) return 'the recorded response is not an object';
    return outputProblem(json.output, 'output') ?? usageProblem(json.usage, 'usage');
  },
});

const STREAM = defineCallCodec<StreamEvent[]>({
  name: 'openai-agents/stream',
  check: (json) => {
    if (!Array.isArray(json)) return 'the recorded stream is not a list of events';
    for (let i = 0; i < json.length; i++) {
      const event = json[i];
      if (!isObject(event) || typeof event.type !== 'string') return `[${i}] is not an event with a "type"`;
      if (event.type === 'response_done') {
        if (!isObject(event.response)) return `[${i}].response is missing`;
        const problem =
          outputProblem(event.response.output, `[${i}].response.output`) ??
          usageProblem(event.response.usage, `[${i}].response.usage`);
        if (problem) return problem;
      }
    }
    return undefined;
  },
});

/** The usage as JSON data (the SDK's `Usage` class rebuilds from it). */
function usageData(usage: Usage | undefined): Record<string, unknown> {
  if (!usage) return { requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  return {
    requests: usage.requests,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    totalTokens: usage.totalTokens,
    inputTokensDetails: usage.inputTokensDetails,
    outputTokensDetails: usage.outputTokensDetails,
  };
}

function outputProblem(output: unknown, at: string): string | undefined {
  if (!Array.isArray(output)) return `${at} is not a list of output items`;
  const bad = output.findIndex((item) => !isObject(item) || typeof item.type !== 'string');
  return bad >= 0 ? `${at}[${bad}] is not an item with a "type"` : undefined;
}

function usageProblem(usage: unknown, at: string): string | undefined {
  if (!isObject(usage)) return `${at} is missing`;
  for (const field of ['inputTokens', 'outputTokens']) {
    if (typeof usage[field] !== 'number') return `${at}.${field} is not a number`;
  }
  return undefined;
}
