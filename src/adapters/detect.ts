import { isRecord } from './common.js';

/** The trajectory formats `needlework import` reads. */
export type TrajectoryFormat = 'openai' | 'otel' | 'seed';

export const TRAJECTORY_FORMATS: readonly TrajectoryFormat[] = ['openai', 'otel', 'seed'];

/**
 * Tells the format of parsed JSON by the fields each format must have, and nothing looser, so a guess is never
 * wrong: `resourceSpans` (an OTLP/JSON export, or an array of them, one per JSONL line) is `otel`; `task_id` with a
 * `steps` array (seed 002's `AgentTrajectory`) is `seed`; an array of objects that all have a string `role`, or an
 * object with such a `messages` array, is `openai`. Anything else is `undefined`: the caller asks for `--from`.
 */
export function detectFormat(json: unknown): TrajectoryFormat | undefined {
  const isOtlp = (value: unknown) => isRecord(value) && Array.isArray(value['resourceSpans']);
  if (isOtlp(json) || (Array.isArray(json) && json.length > 0 && json.every(isOtlp))) return 'otel';
  if (isRecord(json) && typeof json['task_id'] === 'string' && Array.isArray(json['steps'])) return 'seed';
  const messages = isRecord(json) ? json['messages'] : json;
  if (
    Array.isArray(messages) &&
    messages.length > 0 &&
    messages.every((m) => isRecord(m) && typeof m['role'] === 'string')
  ) {
    return 'openai';
  }
  return undefined;
}
