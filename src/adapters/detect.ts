import { isRecord } from './common.js';

/** The trajectory formats `needlework import` reads. */
export type TrajectoryFormat = 'openai' | 'otel' | 'otel-sdk' | 'trajectory' | 'swe-agent' | 'tau-bench';

export const TRAJECTORY_FORMATS: readonly TrajectoryFormat[] = [
  'openai',
  'otel',
  'otel-sdk',
  'trajectory',
  'swe-agent',
  'tau-bench',
];

/**
 * Tells the format of parsed JSON by the fields each format must have, and nothing looser, so a guess is never
 * wrong:
 * - `otel`: `resourceSpans` (an OTLP/JSON export, or an array of them, one per JSONL line);
 * - `otel-sdk`: a list of spans, or `{ spans: [...] }`, where every element is an object, none has a `role`, and some
 *   have a `name` and a `context` object (SDK span JSON: Python's `span.to_json()`, any-agent's trace);
 * - `trajectory`: `task_id` (a string) with a `steps` array (needlework's own `trajectory.json`, an `AgentTrajectory`);
 * - `swe-agent`: a `trajectory` array with a `history` array or an `info` object (SWE-agent's `.traj`);
 * - `tau-bench`: `task_id` with a `traj` array (one `EnvRunResult`), or a list of objects of which some are;
 * - `openai`: an array of objects that all have a string `role`, or an object with such a `messages` array.
 * Anything else is `undefined`: the caller asks for `--from`. A list with some bad elements is still told by the
 * good ones, so the bad ones can be reported one by one.
 */
export function detectFormat(json: unknown): TrajectoryFormat | undefined {
  const isOtlp = (value: unknown) => isRecord(value) && Array.isArray(value['resourceSpans']);
  if (isOtlp(json) || (Array.isArray(json) && json.length > 0 && json.every(isOtlp))) return 'otel';
  if (isSdkSpans(isRecord(json) && Array.isArray(json['spans']) ? json['spans'] : json)) return 'otel-sdk';
  if (isRecord(json) && typeof json['task_id'] === 'string' && Array.isArray(json['steps']))
    return 'trajectory';
  if (
    isRecord(json) &&
    Array.isArray(json['trajectory']) &&
    (Array.isArray(json['history']) || isRecord(json['info']))
  ) {
    return 'swe-agent';
  }
  if (isTauResult(json) || (Array.isArray(json) && json.every(isRecord) && json.some(isTauResult)))
    return 'tau-bench';
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

function isSdkSpan(value: unknown): boolean {
  return isRecord(value) && typeof value['name'] === 'string' && isRecord(value['context']);
}

function isSdkSpans(list: unknown): boolean {
  return Array.isArray(list) && list.every((s) => isRecord(s) && !('role' in s)) && list.some(isSdkSpan);
}

function isTauResult(value: unknown): boolean {
  return isRecord(value) && 'task_id' in value && Array.isArray(value['traj']);
}
