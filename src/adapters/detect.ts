import { isRecord } from './common.js';

/** The trajectory formats `needlework import` reads. */
export type TrajectoryFormat =
  | 'openai'
  | 'otel'
  | 'otel-sdk'
  | 'trajectory'
  | 'swe-agent'
  | 'tau-bench'
  | 'mini-swe-agent'
  | 'tau2-bench'
  | 'inspect'
  | 'openhands'
  | 'agentops';

export const TRAJECTORY_FORMATS: readonly TrajectoryFormat[] = [
  'openai',
  'otel',
  'otel-sdk',
  'trajectory',
  'swe-agent',
  'tau-bench',
  'mini-swe-agent',
  'tau2-bench',
  'inspect',
  'openhands',
  'agentops',
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
 * - `tau2-bench`: a `simulations` array (tau2's `Results`);
 * - `inspect`: an `eval` object with a `samples` array or a `version` number (Inspect AI's `EvalLog`; a zipped `.eval`
 *   log is unpacked into that shape before detection);
 * - `agentops`: a `spans` array whose spans have `span_id` and `span_name` (AgentOps's trace export);
 * - `openhands`: a list (JSONL lines) or one object, each with a `history` array of events (`action` or
 *   `observation`) and an `instance_id` or `test_result` (OpenHands' evaluation `output.jsonl`);
 * - `mini-swe-agent`: a `messages` array with `trajectory_format` starting `mini-swe-agent`, or `info.mini_version`;
 * - `openai`: an array of objects that all have a string `role`, or an object with such a `messages` array (a litellm
 *   completion log, `{ messages, response }`, is read as one, its `response` the last turn).
 * Anything else is `undefined`: the caller asks for `--from`. A list with some bad elements is still told by the
 * good ones, so the bad ones can be reported one by one.
 */
export function detectFormat(json: unknown): TrajectoryFormat | undefined {
  if (isRecord(json) && Array.isArray(json['simulations'])) return 'tau2-bench';
  if (
    isRecord(json) &&
    isRecord(json['eval']) &&
    (Array.isArray(json['samples']) || typeof json['version'] === 'number')
  )
    return 'inspect';
  if (isAgentOps(json)) return 'agentops';
  if (isOpenHandsOutput(json) || (Array.isArray(json) && json.length > 0 && json.every(isOpenHandsOutput)))
    return 'openhands';
  if (isMiniSweAgent(json)) return 'mini-swe-agent';
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

function isAgentOps(json: unknown): boolean {
  return (
    isRecord(json) &&
    Array.isArray(json['spans']) &&
    json['spans'].some((s) => isRecord(s) && 'span_id' in s && typeof s['span_name'] === 'string')
  );
}

function isOpenHandsOutput(value: unknown): boolean {
  if (!isRecord(value) || !Array.isArray(value['history'])) return false;
  if (!('instance_id' in value) && !('test_result' in value)) return false;
  return value['history'].some((e) => isRecord(e) && ('action' in e || 'observation' in e));
}

function isMiniSweAgent(json: unknown): boolean {
  if (!isRecord(json) || !Array.isArray(json['messages'])) return false;
  const format = json['trajectory_format'];
  if (typeof format === 'string' && format.startsWith('mini-swe-agent')) return true;
  return isRecord(json['info']) && typeof json['info']['mini_version'] === 'string';
}
