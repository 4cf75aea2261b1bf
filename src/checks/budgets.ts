// Budgets on what a run spent: steps, tool calls, tool errors, tokens, cost, latency (task cases' `steps`).

import type { StepsAssertion } from '../model/spec.js';
import { errorSteps, toolCalls } from '../model/trajectory.js';
import type { Workup } from '../model/workup.js';
import { type CaseRule, missingInput, TRAJECTORY } from './measure.js';

interface Budget {
  key: keyof StepsAssertion;
  id: string;
  label: string;
  unit?: string;
  /** What the run spent, or why it cannot be told (a string). */
  spent: (workup: Workup) => number | string;
  /** Counted on the trajectory's steps: a run without one fails (its steps are the run's own record). */
  ofSteps?: true;
}

const NO_TRAJECTORY = 'the workup has no trajectory';

/** A recorded total: the trajectory's own, else the sum of its steps'; unknown when every figure is 0. */
function recorded(
  workup: Workup,
  total: 'total_tokens' | 'total_latency_ms',
  step: 'tokens_used' | 'latency_ms',
  what: string,
) {
  const t = workup.trajectory;
  if (!t) return NO_TRAJECTORY;
  if (t[total] > 0) return t[total];
  const sum = t.steps.reduce((s, x) => s + x[step], 0);
  return sum > 0 ? sum : `the workup records no ${what}`;
}

function costOf(workup: Workup): number | string {
  const fromMeta = workup.meta['cost_usd'];
  if (typeof fromMeta === 'number') return fromMeta;
  const fromTrajectory = workup.trajectory?.metadata['cost_usd'];
  if (typeof fromTrajectory === 'number') return fromTrajectory;
  return 'the workup records no cost (meta.json cost_usd)';
}

const BUDGETS: Budget[] = [
  {
    key: 'max_steps',
    ofSteps: true,
    id: 'max-steps',
    label: 'steps',
    spent: (w) => w.trajectory?.steps.length ?? NO_TRAJECTORY,
  },
  {
    key: 'max_tool_calls',
    ofSteps: true,
    id: 'max-tool-calls',
    label: 'tool calls',
    spent: (w) => (w.trajectory ? toolCalls(w.trajectory).length : NO_TRAJECTORY),
  },
  {
    key: 'max_tool_errors',
    ofSteps: true,
    id: 'max-tool-errors',
    label: 'tool errors',
    spent: (w) => (w.trajectory ? errorSteps(w.trajectory).length : NO_TRAJECTORY),
  },
  {
    key: 'max_tokens',
    id: 'max-tokens',
    label: 'tokens',
    unit: 'tokens',
    spent: (w) => recorded(w, 'total_tokens', 'tokens_used', 'token counts'),
  },
  { key: 'max_cost_usd', id: 'max-cost', label: 'cost', unit: 'usd', spent: costOf },
  {
    key: 'max_latency_ms',
    id: 'max-latency',
    label: 'latency',
    unit: 'ms',
    spent: (w) => recorded(w, 'total_latency_ms', 'latency_ms', 'latencies'),
  },
];

/**
 * The budget checks of a case's `steps`: what the run spent against its most. A budget of steps, tool calls or tool
 * errors fails a run without a trajectory (the run recorded no steps); a figure the workup does not record (no token
 * counts, no latencies, no cost: many formats have none) is not measured, and says so: never a silent pass.
 */
export function budgetChecks(s: StepsAssertion): CaseRule[] {
  return BUDGETS.filter((b) => s[b.key] !== undefined).map((b) => {
    const max = s[b.key]!;
    const name = `at most ${max} ${b.unit === 'usd' ? 'USD' : b.label}`;
    return {
      id: b.id,
      key: b.key,
      name,
      check: (workup) => {
        const missing = b.ofSteps ? TRAJECTORY(workup) : undefined;
        const base = {
          criterion: b.id,
          metric: b.key.replace(/^max_/, ''),
          threshold: max,
          comparator: '<=' as const,
          ...(b.unit && { unit: b.unit }),
        };
        if (missing !== undefined) return missingInput(base, missing);
        const spent = b.spent(workup);
        if (typeof spent === 'string')
          return { ...base, value: null, verdict: 'not-applicable', summary: spent };
        return {
          ...base,
          value: spent,
          verdict: spent <= max ? 'pass' : 'fail',
          summary: `${b.label}: ${spent}${b.unit ? ` ${b.unit === 'usd' ? 'USD' : b.unit}` : ''}, at most ${max}`,
        };
      },
    };
  });
}
