import type { Trajectory } from '../../model/index.js';
import { pythonJsonDumps } from './python-json.js';

/**
 * The identity seed 002 gives a tool call: the tuple `(s.tool_name, json.dumps(s.tool_input, sort_keys=True))`.
 * Two calls are the same call when the tool and the arguments' canonical text are the same; `tool_input: null` is
 * `"null"`, a different call from `{}` (as in Python). Encoded as one string so it can key a `Set`: the tool name as
 * a JSON string (or `null`), a space, then Python's JSON text.
 */
export function callKey(toolName: string | null, toolInput: unknown): string {
  return `${JSON.stringify(toolName)} ${pythonJsonDumps(toolInput)}`;
}

/** The keys of a trajectory's tool calls (`tool_call` steps), in order (duplicates kept). */
export function callKeys(trajectory: Trajectory): string[] {
  const keys: string[] = [];
  for (const step of trajectory.steps) {
    if (step.step_type === 'tool_call') keys.push(callKey(step.tool_name, step.tool_input));
  }
  return keys;
}
