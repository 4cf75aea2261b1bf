import type { Trajectory } from '../../model/trajectory.js';
import type { Workup } from '../../model/workup.js';

function isTrajectory(value: unknown): value is Trajectory {
  const t = value as Partial<Trajectory> | null;
  return t !== null && typeof t === 'object' && Array.isArray(t.steps) && typeof t.task_id === 'string';
}

/**
 * A reference trajectory: a `Trajectory`, a `Workup` (its trajectory), or nothing (the workup's own gold trajectory,
 * `gold.trajectory.json`). Anything else is misuse.
 */
export function requireReference(matcher: string, workup: Workup, value: unknown): Trajectory | undefined {
  if (value === undefined) return workup.gold;
  if (isTrajectory(value)) return value;
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
    `${matcher}: expected a reference Trajectory (or a Workup with one), got ${JSON.stringify(value)?.slice(0, 80)}`,
  );
}
