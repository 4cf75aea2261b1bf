import type { Workup } from '../../model/workup.js';
import { createRecorder } from '../../recorder/recorder.js';
import type { Recorder, RecorderOptions } from '../../recorder/types.js';
import { type NoteOption, recordStep } from './step.js';
import type { AiSdkResult, AiSdkStep } from './types.js';

export interface AiSdkOptions {
  /**
   * How the final text becomes the workup's note: `true` (the text as it is: an agent that writes a cited workup as
   * its answer), `false` (no note), or a function from the text to the note (`undefined`: no note).
   * @default true
   */
  note?: NoteOption;
}

/** A recording in progress: hand `onStepFinish` (and optionally `tools`) to `generateText` or `streamText`. */
export interface AiSdkRecording {
  recorder: Recorder;
  /** Records each step as it finishes, so a run that throws later still leaves the steps before. */
  onStepFinish: (step: AiSdkStep) => void;
  /**
   * The tools with each `execute` timed, so a tool result's latency is the tool's own run time (without it, the
   * recorder's clock gives a step's whole time to its first model output). Tools without `execute` are kept as given.
   */
  tools<T extends Record<string, unknown>>(tools: T): T;
  /** Records the error a run threw (the workup keeps what it did before: `succeeded` false, `meta.error`). */
  fail(error: unknown): void;
  workup(): Workup;
  save(dir: string): Promise<string>;
}

/**
 * Records a Vercel AI SDK run while it runs. Pass a `Recorder` (for example the one `runAgent` gives) or the options
 * to create one.
 */
export function recordAiSdk(target: Recorder | RecorderOptions, options: AiSdkOptions = {}): AiSdkRecording {
  const recorder = 'toolCall' in target ? target : createRecorder(target);
  const latencies = new Map<string, number>();
  const clock = () => performance.now();
  return {
    recorder,
    onStepFinish: (step) =>
      recordStep(recorder, step, {
        latencies,
        ...(options.note !== undefined ? { note: options.note } : {}),
      }),
    tools(tools) {
      const timed: Record<string, unknown> = {};
      for (const [name, tool] of Object.entries(tools)) {
        const execute = (tool as { execute?: unknown } | null)?.execute;
        if (typeof execute !== 'function') {
          timed[name] = tool;
          continue;
        }
        timed[name] = {
          ...(tool as object),
          execute: async (input: unknown, context: { toolCallId?: string }) => {
            const start = clock();
            try {
              return await execute.call(tool, input, context);
            } finally {
              if (context?.toolCallId !== undefined) latencies.set(context.toolCallId, clock() - start);
            }
          },
        };
      }
      return timed as typeof tools;
    },
    fail: (error) => recorder.fail(error),
    workup: () => recorder.workup(),
    save: (dir) => recorder.save(dir),
  };
}

/**
 * The workup of a finished `generateText` result, or of a `streamText` result (its promised fields are awaited):
 * every step's reasoning, text, tool calls, tool results and errors, usage and finish reason.
 */
export async function fromAiSdkResult(
  result: AiSdkResult,
  options: RecorderOptions & AiSdkOptions,
): Promise<Workup> {
  const { note, ...recorderOptions } = options;
  const recording = recordAiSdk(recorderOptions, note !== undefined ? { note } : {});
  for (const step of await result.steps) recording.onStepFinish(step);
  const finishReason = await result.finishReason;
  if (finishReason !== undefined) recording.recorder.setMeta({ finishReason });
  return recording.workup();
}
