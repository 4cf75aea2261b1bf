import type { Trajectory } from '../../model/index.js';
import { sequenceRatio } from '../difflib.js';

/**
 * `trajectory_similarity` of seed 002: Python's `difflib.SequenceMatcher(None, seq1, seq2).ratio()` over the two
 * trajectories' sequences of tool names (arguments ignored), reproduced exactly by `sequenceRatio`, its "autojunk"
 * heuristic for sequences of 200 or more calls included. 1 for identical sequences (two trajectories without tool
 * calls included), 0 when no tool name is shared. No gold is needed, so it compares any two runs.
 *
 * Like difflib's ratio it is not always symmetric: the junk heuristic looks only at the second sequence and
 * `find_longest_match` breaks ties by position, so the argument order can change the value, as in Python.
 */
export function trajectorySimilarity(t1: Trajectory, t2: Trajectory): number {
  return sequenceRatio(toolNames(t1), toolNames(t2));
}

/** The tool names of the `tool_call` steps, in order (`null` where a call names no tool). */
export function toolNames(trajectory: Trajectory): (string | null)[] {
  const names: (string | null)[] = [];
  for (const step of trajectory.steps) if (step.step_type === 'tool_call') names.push(step.tool_name ?? null);
  return names;
}
