import type { Trajectory } from '../../model/index.js';
import { pythonJsonDumps } from './python-json.js';

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

/**
 * Numbers the distinct calls met across the trajectories it is given, so a trajectory's calls become a small integer
 * array and the set operations of the metrics become array lookups. Only the distinct keys are kept, so a long
 * trajectory's per-call key strings die young instead of being held (and promoted by the garbage collector) for the
 * length of the run: this keeps the cost per step flat as trajectories grow.
 */
export class CallIndex {
  private readonly ids = new Map<string, number>();

  /** Number of distinct calls seen so far (every id is below it). */
  get size(): number {
    return this.ids.size;
  }

  /** The ids of a trajectory's tool calls (`tool_call` steps), in order, duplicates kept. */
  calls(trajectory: Trajectory): Int32Array {
    const steps = trajectory.steps;
    const out = new Int32Array(steps.length);
    let n = 0;
    for (const step of steps) {
      if (step.step_type !== 'tool_call') continue;
      const key = callKey(step.tool_name, step.tool_input);
      let id = this.ids.get(key);
      if (id === undefined) {
        id = this.ids.size;
        this.ids.set(key, id);
      }
      out[n++] = id;
    }
    return out.subarray(0, n);
  }
}
