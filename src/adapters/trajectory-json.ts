import { UserError } from '../errors/index.js';
import type { Trajectory, TrajectoryStep } from '../model/trajectory.js';
import { makeStep, makeTrajectory } from '../model/trajectory.js';
import type { Place } from '../parse/locate.js';
import { checkSchema } from '../parse/schema.js';

export interface TrajectorySource {
  /** The file the JSON came from, for messages (default `<trajectory>`). */
  file?: string;
  /** Places a data path in the file, so a schema error gets its line and column. */
  locate?: (path: readonly string[], key?: string) => Place | undefined;
}

/**
 * Reads needlework's trajectory format (`trajectory.json` and `gold.trajectory.json` on disk: an `AgentTrajectory` as
 * Python's `dataclasses.asdict` writes it) into a `Trajectory`: checked against the trajectory schema, every field
 * left out given its default, and a tool input that is not an object wrapped as `{ input: value }`, as the Python
 * `TrajectoryLogger` stores it.
 */
export function fromTrajectoryJson(json: unknown, source: TrajectorySource = {}): Trajectory {
  const file = source.file ?? '<trajectory>';
  const problems = checkSchema('trajectory', json, file, source.locate ?? (() => undefined));
  if (problems.length > 0) throw new UserError(problems);
  const raw = json as Partial<Trajectory> & { task_id: string; steps: Array<Partial<TrajectoryStep>> };
  return makeTrajectory({
    ...raw,
    steps: raw.steps.map((step) => {
      // Made from the parsed step itself, not a copy of it: 10,000 trajectories hold some 170,000 steps.
      const made = makeStep(step as TrajectoryStep);
      made.tool_input = wrapInput(step.tool_input);
      return made;
    }),
  });
}

/** As the Python `TrajectoryLogger` stores a tool input: an object as it is, anything else as `{ input: value }`. */
export function wrapInput(input: unknown): Record<string, unknown> | null {
  if (input === undefined || input === null) return null;
  if (typeof input === 'object' && !Array.isArray(input)) return input as Record<string, unknown>;
  return { input };
}

/** @deprecated Renamed `fromTrajectoryJson`; this name is kept for code written against needlework 0.1. */
export const fromSeedTrajectory = fromTrajectoryJson;

/** @deprecated Renamed `TrajectorySource`. */
export type SeedSource = TrajectorySource;
