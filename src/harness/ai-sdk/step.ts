import type { Recorder } from '../../recorder/types.js';
import type { AiSdkContentPart, AiSdkStep } from './types.js';

/** How a step's final text becomes the note: `true` (the text as it is), `false` (no note), or a function. */
export type NoteOption = boolean | ((finalText: string) => string | undefined);

/**
 * Records one finished AI SDK step: reasoning and text before tool calls as thoughts, each tool call with its result
 * or error (cited by its `toolCallId`), and the text of a step that calls no tool as the answer (and, by default, the
 * note). The step's output tokens go to its first recorded model output; its usage is added to the run's totals.
 * `latencies` holds tool run times measured by `recordTools`, by call id.
 */
export function recordStep(
  recorder: Recorder,
  step: AiSdkStep,
  options: { note?: NoteOption; latencies?: ReadonlyMap<string, number> } = {},
): void {
  let tokens = step.usage?.outputTokens ?? undefined;
  /** The step's output tokens, once: for the first model output recorded. */
  const take = (): number | undefined => {
    const t = tokens;
    tokens = undefined;
    return t;
  };
  const callsTool = step.content.some((part) => part.type === 'tool-call');
  let answered = false;
  for (const part of step.content) {
    if (isPart(part, 'reasoning')) {
      if (part.text !== '') recorder.thought(part.text, withTokens(take()));
    } else if (isPart(part, 'text')) {
      if (part.text === '') continue;
      if (callsTool) recorder.thought(part.text, withTokens(take()));
      else if (!answered) {
        answered = true;
        const text = step.text ?? part.text;
        recorder.answer(text, withTokens(take()));
        const note = noteOf(text, options.note ?? true);
        if (note !== undefined) recorder.note(note);
      }
    } else if (isPart(part, 'tool-call')) {
      recorder.toolCall(part.toolName, part.input, part.toolCallId, withTokens(take()));
      if (part.invalid)
        recorder.toolResult(part.toolCallId, { error: message(part.error ?? 'invalid tool call') });
    } else if (isPart(part, 'tool-result')) {
      recorder.toolResult(part.toolCallId, part.output, latency(options.latencies, part.toolCallId));
    } else if (isPart(part, 'tool-error')) {
      recorder.toolResult(
        part.toolCallId,
        { error: message(part.error) },
        latency(options.latencies, part.toolCallId),
      );
    }
  }
  const usage = step.usage;
  if (usage && (usage.inputTokens !== undefined || usage.outputTokens !== undefined)) {
    recorder.usage({ inputTokens: usage.inputTokens ?? 0, outputTokens: usage.outputTokens ?? 0 });
  }
  const model = step.model?.modelId ?? step.response?.modelId;
  recorder.setMeta({
    ...(model !== undefined ? { model } : {}),
    ...(step.finishReason !== undefined ? { finishReason: step.finishReason } : {}),
  });
}

function isPart<T extends AiSdkContentPart['type']>(
  part: AiSdkContentPart,
  type: T,
): part is Extract<AiSdkContentPart, { type: T }> {
  return part.type === type;
}

function withTokens(tokens: number | undefined): { tokens?: number } | undefined {
  return tokens === undefined ? undefined : { tokens };
}

function latency(latencies: ReadonlyMap<string, number> | undefined, id: string) {
  const ms = latencies?.get(id);
  return ms === undefined ? undefined : { latencyMs: ms };
}

function noteOf(text: string, option: NoteOption): string | undefined {
  if (option === false) return undefined;
  return option === true ? text : option(text);
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : typeof error === 'string' ? error : JSON.stringify(error);
}
