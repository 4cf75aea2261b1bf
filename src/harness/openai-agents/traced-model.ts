import {
  createGenerationSpan,
  type Model,
  type ModelRequest,
  type ModelResponse,
  resetCurrentSpan,
  setCurrentSpan,
  withGenerationSpan,
} from '@openai/agents';

type Usage = ModelResponse['usage'];

function usageData(usage: Usage | undefined): { input_tokens: number; output_tokens: number } | undefined {
  return usage ? { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens } : undefined;
}

/**
 * Wraps a `Model` so each call leaves a `generation` span holding the request's input and the model's output items
 * and usage, as the SDK's own OpenAI Chat Completions and AI SDK models do. The SDK's `ScriptedModel` and most custom
 * models write no such span, and then a trace shows the tool calls but not what the model said (its thoughts, its
 * final answer). Data is written only when the run traces data (`request.tracing === true`), as the SDK's models do.
 */
export function traceModel(model: Model): Model {
  const traced: Model = {
    async getResponse(request: ModelRequest): Promise<ModelResponse> {
      if (request.tracing === false) return model.getResponse(request);
      return withGenerationSpan(async (span) => {
        const response = await model.getResponse(request);
        if (request.tracing === true) {
          span.spanData.input =
            typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input;
          span.spanData.output = response.output;
          const usage = usageData(response.usage);
          if (usage) span.spanData.usage = usage;
        }
        return response;
      });
    },
    async *getStreamedResponse(request: ModelRequest) {
      if (request.tracing === false) {
        yield* model.getStreamedResponse(request);
        return;
      }
      const span = createGenerationSpan();
      span.start();
      setCurrentSpan(span);
      try {
        if (request.tracing === true)
          span.spanData.input =
            typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input;
        for await (const event of model.getStreamedResponse(request)) {
          if (event.type === 'response_done' && request.tracing === true) {
            span.spanData.output = event.response.output;
            span.spanData.usage = usageData(event.response.usage as Usage);
          }
          yield event;
        }
      } catch (error) {
        span.setError({ message: error instanceof Error ? error.message : String(error) });
        throw error;
      } finally {
        span.end();
        resetCurrentSpan();
      }
    },
  };
  if (model.getRetryAdvice) traced.getRetryAdvice = (args) => model.getRetryAdvice!(args);
  return traced;
}
