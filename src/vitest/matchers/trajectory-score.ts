import type { Trajectory } from '../../model/trajectory.js';
import {
  fmt,
  type MatcherResult,
  type MatcherState,
  message,
  record,
  requireNumber,
  requireWorkup,
} from './helpers.js';
import { requireReference } from './trajectory-args.js';

interface ScoreMatcher {
  name: string;
  criterion: string;
  metric: string;
  /** What the score measures, for messages ("step F1"). */
  label: string;
  /** `>=`: the score must reach the bound; `<=`: it must not exceed it. */
  comparator: '>=' | '<=';
  needsReference: boolean;
  score: (actual: Trajectory, reference: Trajectory | undefined) => number;
}

/**
 * Builds a matcher that compares one seed-002 trajectory score with a bound: the same receiver checks, the same
 * not-applicable handling and the same message for every trajectory score.
 */
export function trajectoryScoreMatcher(spec: ScoreMatcher) {
  return function (this: MatcherState, received: unknown, ...args: unknown[]): MatcherResult {
    const workup = requireWorkup(spec.name, received);
    const reference = spec.needsReference ? requireReference(spec.name, workup, args[0]) : undefined;
    const bound = requireNumber(
      spec.name,
      spec.comparator === '>=' ? 'min' : 'max',
      args[spec.needsReference ? 1 : 0] ?? (spec.comparator === '>=' ? 1 : 0),
    );
    const actual = workup.trajectory;
    const missing = !actual
      ? 'the workup has no trajectory'
      : spec.needsReference && !reference
        ? 'no reference given and the workup has no gold trajectory'
        : undefined;
    const value = missing ? null : spec.score(actual!, reference);
    const pass = value !== null && (spec.comparator === '>=' ? value >= bound : value <= bound);
    record(this, workup, {
      criterion: spec.criterion,
      metric: spec.metric,
      value,
      threshold: bound,
      comparator: spec.comparator,
      met: pass,
      summary:
        missing ??
        `${spec.label} ${fmt(value)} (${spec.comparator === '>=' ? 'at least' : 'at most'} ${fmt(bound)})`,
    });
    const word = spec.comparator === '>=' ? 'at least' : 'at most';
    const opposite = spec.comparator === '>=' ? 'below' : 'above';
    return {
      pass,
      message: message(this, `.${spec.name}`, spec.needsReference ? 'gold, bound' : 'bound', (negated) => {
        if (missing) return [`Cannot measure ${spec.label}: ${missing}.`];
        if (negated) return [`Expected ${spec.label} ${opposite} ${fmt(bound)}, but it is ${fmt(value)}.`];
        return [`Expected ${spec.label} of ${word} ${fmt(bound)}, but it is ${fmt(value)}.`];
      }),
      expected: bound,
      actual: value,
    };
  };
}
