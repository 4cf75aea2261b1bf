import { type Trajectory, toolCalls } from '../../model/index.js';
import { callKeys } from './call-key.js';

/**
 * `tool_efficiency_score` of seed 002: `gold_calls / max(agent_calls, gold_calls)` over the counts of `tool_call`
 * steps, so 1 at or under the gold's count and falling as extra calls are made (making fewer calls than the gold is
 * not rewarded or penalised here; step recall catches what was skipped). With no gold calls: 1 when the agent made
 * none either, else 0.
 */
export function toolEfficiency(trajectory: Trajectory, gold: Trajectory): number {
  return efficiencyOfCounts(toolCalls(trajectory).length, toolCalls(gold).length);
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
  return redundancyOfKeys(callKeys(trajectory));
}

/** `redundancy_rate` over precomputed call keys. */
export function redundancyOfKeys(keys: readonly string[]): number {
  const seen = new Set<string>();
  let duplicates = 0;
  for (const key of keys) {
    if (seen.has(key)) duplicates++;
    seen.add(key);
  }
  return keys.length > 0 ? duplicates / keys.length : 0.0;
}
