import { type ReferenceCall, type Trajectory, toolCallTrajectory } from '../../model/trajectory.js';
import type { Workup } from '../../model/workup.js';

function isTrajectory(value: unknown): value is Trajectory {
  const t = value as Partial<Trajectory> | null;
  return t !== null && typeof t === 'object' && Array.isArray(t.steps) && typeof t.task_id === 'string';
}

function isCallList(value: unknown): value is ReferenceCall[] {
  return (
    Array.isArray(value) &&
    value.every(
      (c) =>
        c !== null &&
        typeof c === 'object' &&
        typeof c.name === 'string' &&
        (c.args === undefined || (c.args !== null && typeof c.args === 'object' && !Array.isArray(c.args))),
    )
  );
}

/**
 * A reference trajectory: a `Trajectory`, a `Workup` (its trajectory), a list of tool calls written inline
 * (`[{ name: 'search', args: { city: 'Paris' } }]`, as a case's `tool_calls`), or nothing (the workup's own gold
 * trajectory, `gold.trajectory.json`). Anything else is misuse.
 */
export function requireReference(matcher: string, workup: Workup, value: unknown): Trajectory | undefined {
  if (value === undefined) return workup.gold;
  if (isTrajectory(value)) return value;
  if (isCallList(value)) return toolCallTrajectory(`${workup.id} (reference)`, value);
  const w = value as Partial<Workup> | null;
  if (
    w !== null &&
    typeof w === 'object' &&
    Array.isArray(w.ledger) &&
    w.trajectory &&
    isTrajectory(w.trajectory)
  ) {
    return w.trajectory;
  }
  throw new TypeError(
    `${matcher}: expected a reference Trajectory (or a Workup with one, or a list of { name, args } tool calls), got ${JSON.stringify(value)?.slice(0, 80)}`,
  );
}
