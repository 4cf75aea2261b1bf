import type { Trajectory } from '../../model/index.js';

/**
 * `tool_distribution` of seed 002: each tool's share of all tool calls across the trajectories (count / total), to
 * spot over-reliance on one tool. Ordered as the seed's dict: by count, highest first, ties in the order the tools
 * were first seen (Python's `sorted` is stable over a dict in insertion order). A `Map` keeps that order for every
 * tool name (a plain object would move integer-like names such as `"1"` to the front) and can hold `null`, the
 * seed's `None` for a call without a tool name. Empty when there are no tool calls (the seed returns `{}`).
 */
export function toolDistribution(trajectories: readonly Trajectory[]): Map<string | null, number> {
  const counts = new Map<string | null, number>();
  let total = 0;
  for (const trajectory of trajectories) {
    for (const step of trajectory.steps) {
      if (step.step_type !== 'tool_call') continue;
      const tool = step.tool_name ?? null;
      counts.set(tool, (counts.get(tool) ?? 0) + 1);
      total++;
    }
  }
  const shares = new Map<string | null, number>();
  if (total === 0) return shares;
  // Array.prototype.sort is stable (ES2019), as Python's sorted is.
  const ranked = [...counts].sort((x, y) => y[1] - x[1]);
  for (const [tool, count] of ranked) shares.set(tool, count / total);
  return shares;
}
