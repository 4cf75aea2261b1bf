import type { JudgeUsage } from '../judge/types.js';
import type { Agreement, UsageTotals } from './types.js';

/** The median: the middle value, or the mean of the two middle values for an even count; undefined when empty. */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * The agreement of a criterion's sample scores: spread (max - min) and the share equal to the median. Null when no
 * sample scored, so a report never divides by zero.
 */
export function agreementOf(scores: readonly number[]): Agreement | null {
  const mid = median(scores);
  if (mid === undefined) return null;
  return {
    scores: [...scores],
    spread: Math.max(...scores) - Math.min(...scores),
    agreement: scores.filter((s) => s === mid).length / scores.length,
  };
}

/**
 * The weighted mean of the scores that exist, or null when none does or the weights sum to 0 (never NaN).
 */
export function weightedTotal(items: ReadonlyArray<{ score: number | null; weight: number }>): number | null {
  let sum = 0;
  let weights = 0;
  for (const { score, weight } of items) {
    if (score === null || !Number.isFinite(weight) || weight <= 0) continue;
    sum += score * weight;
    weights += weight;
  }
  return weights > 0 ? sum / weights : null;
}

/** Usage summed over judgements; tokens and cost stay absent as soon as one of them is unknown. */
export function totalUsage(usages: readonly JudgeUsage[]): UsageTotals {
  const totals: UsageTotals = { requests: usages.length, cached: 0, calls: 0 };
  let input = 0;
  let output = 0;
  let tokensKnown = true;
  let cost = 0;
  let costKnown = true;
  for (const usage of usages) {
    if (usage.cached) totals.cached++;
    totals.calls += usage.calls;
    if (usage.tokens) {
      input += usage.tokens.input;
      output += usage.tokens.output;
    } else tokensKnown = false;
    if (usage.costUsd !== undefined) cost += usage.costUsd;
    else costKnown = false;
  }
  if (tokensKnown) totals.tokens = { input, output };
  if (costKnown) totals.costUsd = cost;
  return totals;
}

/** Usage totals merged (for a rubric over its criteria). */
export function sumTotals(parts: readonly UsageTotals[]): UsageTotals {
  const totals: UsageTotals = { requests: 0, cached: 0, calls: 0 };
  let tokens: UsageTotals['tokens'] = { input: 0, output: 0 };
  let cost: number | undefined = 0;
  for (const part of parts) {
    totals.requests += part.requests;
    totals.cached += part.cached;
    totals.calls += part.calls;
    tokens =
      tokens && part.tokens
        ? { input: tokens.input + part.tokens.input, output: tokens.output + part.tokens.output }
        : undefined;
    cost = cost !== undefined && part.costUsd !== undefined ? cost + part.costUsd : undefined;
  }
  if (tokens) totals.tokens = tokens;
  if (cost !== undefined) totals.costUsd = cost;
  return totals;
}
