// Trajectory criteria: agentevals' trajectory match and seed 002's step scores, each from its metric to a verdict.

import { redundancyRate, toolEfficiency } from '../metrics/trajectory/efficiency.js';
import { errorRecoveryRate } from '../metrics/trajectory/error-recovery.js';
import {
  alignTrajectory,
  type MatchTrajectoryOptions,
  type ToolCall,
  type TrajectoryMatchResult,
} from '../metrics/trajectory/match.js';
import { trajectorySimilarity } from '../metrics/trajectory/similarity.js';
import { stepF1, stepPrecision, stepRecall } from '../metrics/trajectory/step-correctness.js';
import type { Trajectory } from '../model/trajectory.js';
import type { Workup } from '../model/workup.js';
import { formatValue } from './format.js';
import { type Measured, verdictOf } from './measure.js';
import { callsOf, passingEvidence } from './trajectory-evidence.js';

/** Why a trajectory criterion cannot be measured on a workup, or undefined when it can. */
function missingTrajectory(workup: Workup, reference: Trajectory | undefined, needsReference: boolean) {
  if (!workup.trajectory) return 'the workup has no trajectory';
  if (needsReference && !reference) return 'no reference given and the workup has no gold trajectory';
  return undefined;
}

/** A tool call as failures print it: `search({"city":"Paris"})`. */
export function describeCall(call: ToolCall): string {
  return `${call.tool ?? '(no tool)'}(${JSON.stringify(call.args)})`;
}

/** The tool calls of a trajectory as failures print them, for a diff of the expected calls against the run's. */
function callTexts(trajectory: Trajectory): string[] {
  return callsOf(trajectory).map(describeCall);
}

const RUN_IN_EXPECTED =
  'each argument the run gave is in the expected call, with the same value (it may leave some out)';
const EXPECTED_IN_RUN =
  "each argument of the expected call is in the run's, with the same value (it may give more)";

/**
 * Which side `toolArgs: subset` or `superset` constrains, in words, or undefined for `exact` and `ignore`.
 * agentevals compares a call's arguments as (run, expected) in strict and superset matches and as (expected, run) in
 * a subset match (`matchTrajectory`), so `subset` means "the run's are a subset of the expected's" in the first and
 * the reverse in the second; an unordered match checks the missing calls one way and the extra calls the other.
 */
export function argumentsRule(
  mode: NonNullable<MatchTrajectoryOptions['mode']>,
  toolArgs: unknown,
): string | undefined {
  if (toolArgs !== 'subset' && toolArgs !== 'superset') return undefined;
  const runFirst = toolArgs === 'subset' ? RUN_IN_EXPECTED : EXPECTED_IN_RUN;
  const expectedFirst = toolArgs === 'subset' ? EXPECTED_IN_RUN : RUN_IN_EXPECTED;
  if (mode === 'unordered') return `for a missing call, ${runFirst}; for an extra call, ${expectedFirst}`;
  return mode === 'subset' ? expectedFirst : runFirst;
}

/** At most `max` calls, then how many more. */
function listed(calls: readonly ToolCall[], max = 5): string {
  const shown = calls.slice(0, max).map(describeCall).join(', ');
  return calls.length > max ? `${shown} and ${calls.length - max} more` : shown;
}

/**
 * The workup's tool calls match a reference's with agentevals' verdict (`matchTrajectory`); the reference defaults
 * to the workup's gold trajectory. A failure names the missing and the extra calls and, for `subset` and `superset`
 * arguments, which side they constrain; a failure's evidence holds the run's calls (`actual`, as text) for a diff
 * against the expected ones. Returns the match too, for a matcher's message.
 *
 * The evidence also holds what a reader lays over the run's steps: the expected calls (`reference`, tool and
 * arguments), the argument mode (`args`) and the match's own pairing (`alignment`: `pairs` of [run call, expected
 * call] and the positions of the missing and extra calls, counted among the tool calls), so no reader matches again.
 * A pass records them slim, leaving out what the reader takes from the run's own calls (`passingEvidence`; read
 * back whole by `wholeEvidence`): 62 bytes rather than 484 for a strict pass over 8 calls.
 */
export function trajectoryMatch(
  workup: Workup,
  reference: Trajectory | undefined = workup.gold,
  options: MatchTrajectoryOptions = {},
): { measured: Measured; result?: TrajectoryMatchResult } {
  const mode = options.mode ?? 'strict';
  const missing = missingTrajectory(workup, reference, true);
  const aligned = missing ? undefined : alignTrajectory(workup.trajectory!, reference!, options);
  const { alignment, ...match } = aligned ?? { alignment: undefined };
  const value = aligned ? aligned.pass : null;
  const args = options.toolArgs ?? 'exact';
  const failure = aligned && !aligned.pass ? aligned : undefined;
  const rule = failure ? argumentsRule(mode, args) : undefined;
  return {
    measured: {
      criterion: 'trajectory-match',
      metric: `trajectory_match_${mode}`,
      value,
      verdict: verdictOf(value),
      summary:
        missing ??
        (failure
          ? `${mode} match fails: ${[
              ...(failure.reason ? [failure.reason] : []),
              ...(failure.missing.length > 0 ? [`missing ${listed(failure.missing)}`] : []),
              ...(failure.extra.length > 0 ? [`extra ${listed(failure.extra)}`] : []),
              ...(rule ? [`arguments ${args}: ${rule}`] : []),
            ].join('; ')}`
          : `${mode} match holds: ${aligned!.missing.length} missing, ${aligned!.extra.length} extra`),
      evidence: !aligned
        ? {}
        : aligned.pass
          ? passingEvidence(
              { mode, args, missing: aligned.missing, extra: aligned.extra, reason: aligned.reason },
              callsOf(workup.trajectory!),
              callsOf(reference!),
              alignment!,
            )
          : {
              mode,
              args,
              missing: aligned.missing,
              extra: aligned.extra,
              ...(aligned.reason && { reason: aligned.reason }),
              reference: callsOf(reference!),
              alignment,
              // The run's calls, for the failure's diff against `reference` (`- expected`, `+ run`), as
              // toMatchTrajectory shows it (see `checkFailure`).
              actual: callTexts(workup.trajectory!),
            },
    },
    ...(aligned && { result: match as TrajectoryMatchResult }),
  };
}

/** A seed 002 score of a trajectory, compared with a bound. */
export interface StepScore {
  criterion: string;
  metric: string;
  /** What the score measures, for summaries and messages ("step F1"). */
  label: string;
  /** `>=`: the score must reach the bound; `<=`: it must not exceed it. */
  comparator: '>=' | '<=';
  needsReference: boolean;
  score: (actual: Trajectory, reference: Trajectory | undefined) => number;
}

export const STEP_PRECISION: StepScore = {
  criterion: 'step-precision',
  metric: 'step_precision',
  label: 'step precision',
  comparator: '>=',
  needsReference: true,
  score: (actual, gold) => stepPrecision(actual, gold!),
};

export const STEP_RECALL: StepScore = {
  criterion: 'step-recall',
  metric: 'step_recall',
  label: 'step recall',
  comparator: '>=',
  needsReference: true,
  score: (actual, gold) => stepRecall(actual, gold!),
};

export const SIMILARITY: StepScore = {
  criterion: 'similarity',
  metric: 'trajectory_similarity',
  label: 'similarity (difflib ratio)',
  comparator: '>=',
  needsReference: true,
  score: (actual, gold) => trajectorySimilarity(actual, gold!),
};

export const STEP_F1: StepScore = {
  criterion: 'step-f1',
  metric: 'step_f1',
  label: 'step F1',
  comparator: '>=',
  needsReference: true,
  score: (actual, gold) => stepF1(actual, gold!),
};

export const EFFICIENCY: StepScore = {
  criterion: 'efficiency',
  metric: 'efficiency',
  label: 'tool efficiency',
  comparator: '>=',
  needsReference: true,
  score: (actual, gold) => toolEfficiency(actual, gold!),
};

export const REDUNDANCY: StepScore = {
  criterion: 'redundancy',
  metric: 'redundancy',
  label: 'redundancy',
  comparator: '<=',
  needsReference: false,
  score: (actual) => redundancyRate(actual),
};

export const ERROR_RECOVERY: StepScore = {
  criterion: 'error-recovery',
  metric: 'error_recovery',
  label: 'error recovery',
  comparator: '>=',
  needsReference: false,
  score: (actual) => errorRecoveryRate(actual),
};

/** One seed 002 score of the workup's trajectory against its bound (the reference defaults to the gold). */
export function stepScore(
  workup: Workup,
  score: StepScore,
  bound: number,
  reference: Trajectory | undefined = workup.gold,
): Measured {
  const missing = missingTrajectory(workup, reference, score.needsReference);
  const value = missing ? null : score.score(workup.trajectory!, reference);
  return {
    criterion: score.criterion,
    metric: score.metric,
    value,
    threshold: bound,
    comparator: score.comparator,
    verdict: verdictOf(value, bound, score.comparator),
    summary:
      missing ??
      `${score.label} ${formatValue(value)} (${score.comparator === '>=' ? 'at least' : 'at most'} ${formatValue(bound)})`,
  };
}
