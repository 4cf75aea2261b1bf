import type { Trajectory } from '../../model/index.js';
import { pythonJsonDumps } from './python-json.js';
import { NULL, valueTable } from './value-ids.js';

/**
 * The identity seed 002 gives a tool call: the tuple `(s.tool_name, json.dumps(s.tool_input, sort_keys=True))`.
 * Two calls are the same call when the tool and the arguments' canonical text are the same; `tool_input: null` is
 * `"null"`, a different call from `{}` (as in Python). Encoded as one string so it can key a `Map`: the tool name as
 * a JSON string (or `null`), a space, then Python's JSON text.
 */
export function callKey(toolName: string | null, toolInput: unknown): string {
  // `?? null`: a step read from JSON without the field has the seed dataclass's default, None.
  return `${JSON.stringify(toolName ?? null)} ${pythonJsonDumps(toolInput ?? null)}`;
}

/** The calls of some trajectories, numbered together (see `numberCalls`). */
export interface CallNumbers {
  /** Per trajectory, in the order given: the number of each tool call (`tool_call` step), in order, duplicates kept. */
  calls: number[][];
  /** Number of distinct calls (every number is below it). */
  size: number;
}

/**
 * Numbers the distinct calls of the given trajectories 0, 1, 2, ... in order of first appearance, so each
 * trajectory's calls become a small integer array and the metrics' set operations become array look-ups. Two calls
 * get the same number exactly when their `callKey`s are equal, but no key text is built: the tool name and the
 * arguments get ids by content from a table kept across numberings (see `ValueTable`), which holds each call's
 * number in this numbering beside its id.
 *
 * The arrays are plain arrays: a typed array this size lives outside the heap, and allocating one per call was a
 * tenth of the seed 002 workload.
 */
export function numberCalls(trajectories: readonly Trajectory[]): CallNumbers {
  const values = valueTable();
  const stamp = values.stamp;
  let size = 0;
  const calls: number[][] = [];
  for (const trajectory of trajectories) {
    const out: number[] = [];
    for (const step of trajectory.steps) {
      if (step.step_type !== 'tool_call') continue;
      // `?? null`: a step read from JSON without the field has the seed dataclass's default, None.
      const tool = step.tool_name == null ? NULL : values.string(step.tool_name);
      // A pair id identifies its two halves, so (tool, arguments) is one pair; its slot holds the call's number.
      const slot = values.slot(tool, values.value(step.tool_input, 0));
      // Read after the arguments: numbering them may have grown the table, which moves the columns.
      const stamps = values.stamps;
      const dense = values.dense;
      if (stamps[slot] !== stamp) {
        stamps[slot] = stamp;
        dense[slot] = size++;
      }
      out.push(dense[slot] as number);
    }
    calls.push(out);
  }
  return { calls, size };
}

let scratch = new Uint8Array(1024);

/**
 * `size` zeroed marks, one per call number, for a metric's set operations. One buffer serves every metric (each
 * uses it and is done before the next starts), so a comparison allocates none; valid until the next `marks` call.
 */
export function marks(size: number): Uint8Array {
  if (scratch.length < size) scratch = new Uint8Array(Math.max(size, 2 * scratch.length));
  else scratch.fill(0, 0, size);
  return scratch;
}
