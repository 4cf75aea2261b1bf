import type { Trajectory } from '../../model/index.js';

/**
 * `tool_distribution` of seed 002: each tool's share of all tool calls across the trajectories (count / total), to
 * spot over-reliance on one tool. Ordered as the seed's dict: by count, highest first, ties in the order the tools
 * were first seen (Python's `sorted` is stable over a dict in insertion order). A `Map` keeps that order for every
 * tool name (a plain object would move integer-like names such as `"1"` to the front) and can hold `null`, the
 * seed's `None` for a call without a tool name. Empty when there are no tool calls (the seed returns `{}`).
 */
export function toolDistribution(trajectories: readonly Trajectory[]): Map<string | null, number> {
  // One look-up per call: the map gives each tool its slot in `counts`, slots in order of first sight.
  const slots = new Map<string | null, number>();
  const tools: (string | null)[] = [];
  const counts: number[] = [];
  let total = 0;
  for (const trajectory of trajectories) {
    const steps = trajectory.steps;
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i] as Trajectory['steps'][number];
      if (step.step_type !== 'tool_call') continue;
      const tool = step.tool_name ?? null;
      let slot = slots.get(tool);
      if (slot === undefined) {
        slot = tools.length;
        slots.set(tool, slot);
        tools.push(tool);
        counts.push(0);
      }
      counts[slot] = (counts[slot] as number) + 1;
      total++;
    }
  }
  const shares = new Map<string | null, number>();
  if (total === 0) return shares;
  // Slots are in order of first sight and Array.prototype.sort is stable (ES2019), as Python's sorted is.
  const ranked = tools.map((_, slot) => slot).sort((x, y) => (counts[y] as number) - (counts[x] as number));
  for (const slot of ranked) shares.set(tools[slot] as string | null, (counts[slot] as number) / total);
  return shares;
}
