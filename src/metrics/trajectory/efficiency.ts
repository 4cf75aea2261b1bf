import type { Trajectory } from '../../model/index.js';
import { marks, numberCalls } from './call-key.js';

/**
 * `tool_efficiency_score` of seed 002: `gold_calls / max(agent_calls, gold_calls)` over the counts of `tool_call`
 * steps, so 1 at or under the gold's count and falling as extra calls are made (making fewer calls than the gold is
 * not rewarded or penalised here; step recall catches what was skipped). With no gold calls: 1 when the agent made
 * none either, else 0.
 */
export function toolEfficiency(trajectory: Trajectory, gold: Trajectory): number {
  return efficiencyOfCounts(countCalls(trajectory), countCalls(gold));
}

/** The number of `tool_call` steps (`len(t.tool_calls())`, without building the list). */
function countCalls(trajectory: Trajectory): number {
  let n = 0;
  for (const step of trajectory.steps) if (step.step_type === 'tool_call') n++;
  return n;
}

/** `tool_efficiency_score`'s arithmetic over call counts. */
export function efficiencyOfCounts(agentCalls: number, goldCalls: number): number {
  if (goldCalls === 0) return agentCalls === 0 ? 1.0 : 0.0;
  return goldCalls / Math.max(agentCalls, goldCalls);
}

/**
 * `redundancy_rate` of seed 002: the fraction of tool calls that repeat an earlier call exactly (same tool, same
 * arguments by `callKey`): a sign of looping or of not using a result already fetched. 0 with no tool calls.
 */
export function redundancyRate(trajectory: Trajectory): number {
  const { calls, size } = numberCalls([trajectory]);
  return redundancyOfCalls(calls[0] as number[], size);
}

/** `redundancy_rate` over call numbers from one `numberCalls` (`size` its number of calls). */
export function redundancyOfCalls(calls: readonly number[], size: number): number {
  const seen = marks(size);
  let duplicates = 0;
  for (const id of calls) {
    duplicates += seen[id] as number;
    seen[id] = 1;
  }
  return calls.length > 0 ? duplicates / calls.length : 0.0;
}
