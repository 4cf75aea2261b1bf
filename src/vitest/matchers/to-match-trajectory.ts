import { argumentsRule, describeCall, trajectoryMatch } from '../../checks/trajectory.js';
import { callsOf } from '../../checks/trajectory-evidence.js';
import type { MatchTrajectoryOptions } from '../../metrics/trajectory/match.js';
import { callLines } from '../check-failure.js';
import { type MatcherResult, type MatcherState, message, record, requireWorkup } from './helpers.js';
import { requireReference } from './trajectory-args.js';

const MODES = ['strict', 'unordered', 'subset', 'superset'];
const ARG_MODES = ['exact', 'ignore', 'subset', 'superset'];

/**
 * The workup's tool calls match a reference trajectory's, with LangChain agentevals' trajectory-match verdicts
 * (`mode`: strict, unordered, subset, superset; `toolArgs`: exact, ignore, subset, superset; see
 * `matchTrajectory`). A failure lists the missing and extra calls, and for `subset` or `superset` arguments which side
 * they constrain (`argumentsRule`).
 */
export function toMatchTrajectory(
  this: MatcherState,
  received: unknown,
  reference: unknown,
  options: MatchTrajectoryOptions = {},
): MatcherResult {
  const workup = requireWorkup('toMatchTrajectory', received);
  const ref = requireReference('toMatchTrajectory', workup, reference);
  if (options.mode !== undefined && !MODES.includes(options.mode)) {
    throw new TypeError(
      `toMatchTrajectory: mode must be one of ${MODES.join(', ')}, got ${JSON.stringify(options.mode)}`,
    );
  }
  if (options.toolArgs !== undefined && !ARG_MODES.includes(options.toolArgs)) {
    throw new TypeError(
      `toMatchTrajectory: toolArgs must be one of ${ARG_MODES.join(', ')}, got ${JSON.stringify(options.toolArgs)}`,
    );
  }
  const mode = options.mode ?? 'strict';
  const actual = workup.trajectory;
  const { measured, result } = trajectoryMatch(workup, ref, options);
  const pass = record(this, workup, measured);
  return {
    pass,
    message: message(this, '.toMatchTrajectory', 'reference', (negated) => {
      if (!actual) return ['Cannot match trajectories: the workup has no trajectory.'];
      if (!ref)
        return ['Cannot match trajectories: no reference given and the workup has no gold trajectory.'];
      if (negated) return [`Expected the trajectory not to match the reference (${mode}), but it does.`];
      return [
        `Expected the trajectory to match the reference (${mode}, arguments ${options.toolArgs ?? 'exact'}).`,
        ...(result?.reason ? [result.reason] : []),
        ...(result!.missing.length > 0
          ? ['Missing calls:', ...result!.missing.map((c) => `  - ${describeCall(c)}`)]
          : []),
        ...(result!.extra.length > 0
          ? ['Extra calls:', ...result!.extra.map((c) => `  + ${describeCall(c)}`)]
          : []),
        ...((rule) => (rule ? [`Arguments (${options.toolArgs}): ${rule}.`] : []))(
          argumentsRule(mode, options.toolArgs),
        ),
      ];
    }),
    // The calls as the lines above write them, one text a side: Vitest diffs the two line by line.
    expected: ref && callLines(callsOf(ref).map(describeCall)),
    actual: actual && callLines(callsOf(actual).map(describeCall)),
  };
}
