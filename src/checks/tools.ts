// Rules on which tools a run calls, how often and in what order (task cases' `tools` assertions).

import type { ToolsAssertion } from '../model/spec.js';
import { toolCalls } from '../model/trajectory.js';
import type { Workup } from '../model/workup.js';
import { type CaseRule, missingInput, TRAJECTORY } from './measure.js';

/** The names of the run's tool calls, in order; null when it has no trajectory. */
export function calledTools(workup: Workup): string[] | null {
  return workup.trajectory ? toolCalls(workup.trajectory).map((s) => s.tool_name ?? '') : null;
}

function counts(names: readonly string[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const name of names) map.set(name, (map.get(name) ?? 0) + 1);
  return map;
}

const times = (n: number) => `${n} time${n === 1 ? '' : 's'}`;

interface ToolRule {
  id: string;
  key: keyof ToolsAssertion;
  name: string;
  /** What was wrong, one item per broken rule part; empty when the rule holds. */
  broken: (names: readonly string[], count: Map<string, number>) => string[];
}

function rules(t: ToolsAssertion): ToolRule[] {
  const list: ToolRule[] = [];
  if (t.must_call) {
    const wanted = t.must_call;
    list.push({
      id: 'must-call',
      key: 'must_call',
      name: `calls ${wanted.map((m) => (m.min > 1 ? `${m.name} (at least ${m.min} times)` : m.name)).join(', ')}`,
      broken: (_, count) =>
        wanted
          .filter((m) => (count.get(m.name) ?? 0) < m.min)
          .map((m) => `${m.name} called ${times(count.get(m.name) ?? 0)}, at least ${m.min} required`),
    });
  }
  if (t.must_not_call) {
    const banned = t.must_not_call;
    list.push({
      id: 'must-not-call',
      key: 'must_not_call',
      name: `never calls ${banned.join(', ')}`,
      broken: (_, count) =>
        banned.filter((b) => (count.get(b) ?? 0) > 0).map((b) => `${b} called ${times(count.get(b)!)}`),
    });
  }
  if (t.max_calls) {
    const limits = Object.entries(t.max_calls);
    list.push({
      id: 'max-calls',
      key: 'max_calls',
      name: `calls at most ${limits.map(([tool, n]) => `${n} × ${tool}`).join(', ')}`,
      broken: (_, count) =>
        limits
          .filter(([tool, n]) => (count.get(tool) ?? 0) > n)
          .map(([tool, n]) => `${tool} called ${times(count.get(tool)!)}, at most ${n} allowed`),
    });
  }
  if (t.order) {
    const order = t.order;
    list.push({
      id: 'call-order',
      key: 'order',
      name: `calls in order ${order.join(' → ')}`,
      broken: (names) => {
        // An ordered subsequence: each wanted tool after the previous one found, other calls between allowed.
        let at = 0;
        for (const [i, tool] of order.entries()) {
          const found = names.indexOf(tool, at);
          if (found === -1) {
            return [
              i === 0
                ? `${tool} is never called`
                : `${tool} is never called after ${order[i - 1]} at call ${at} of ${names.length}`,
            ];
          }
          at = found + 1;
        }
        return [];
      },
    });
  }
  return list;
}

/**
 * The tool-rule checks of a case: calls it must make (with a minimum count), must not make, at most, in order. A run
 * without a trajectory fails them: its calls are not recorded, so no rule about them is kept.
 */
export function toolChecks(t: ToolsAssertion): CaseRule[] {
  return rules(t).map((rule) => ({
    id: rule.id,
    key: rule.key,
    name: rule.name,
    check: (workup) => {
      const names = calledTools(workup);
      if (names === null)
        return missingInput({ criterion: rule.id, metric: rule.id.replace(/-/g, '_') }, TRAJECTORY(workup)!);
      const broken = rule.broken(names, counts(names));
      return {
        criterion: rule.id,
        metric: rule.id.replace(/-/g, '_'),
        value: broken.length === 0,
        verdict: broken.length === 0 ? 'pass' : 'fail',
        summary:
          broken.length === 0
            ? `${rule.name}: yes (${names.length} tool calls)`
            : `${broken.join('; ')}; the run called ${names.join(', ') || 'no tool'}`,
        evidence: { calls: names, broken },
      };
    },
  }));
}

/**
 * The tool names a case's assertions mention, for the warning about a tool no run of the case ever calls: those it
 * requires (`must_call`, `order`, the `tool_calls` reference) and, apart, those it only bounds (`must_not_call`,
 * `max_calls`), which a good run may well never call.
 */
export function toolsNamed(
  t: ToolsAssertion | undefined,
  calls: ReadonlyArray<{ name: string }> = [],
): { required: string[]; bounded: string[] } {
  const required = new Set([
    ...calls.map((c) => c.name),
    ...(t?.must_call ?? []).map((m) => m.name),
    ...(t?.order ?? []),
  ]);
  const bounded = new Set([...(t?.must_not_call ?? []), ...Object.keys(t?.max_calls ?? {})]);
  return { required: [...required], bounded: [...bounded].filter((name) => !required.has(name)) };
}
