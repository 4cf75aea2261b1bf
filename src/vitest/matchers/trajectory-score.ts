import { type StepScore, stepScore } from '../../checks/trajectory.js';
import {
  formatValue,
  type MatcherResult,
  type MatcherState,
  message,
  record,
  requireNumber,
  requireWorkup,
} from './helpers.js';
import { requireReference } from './trajectory-args.js';

/**
 * Builds a matcher that compares one seed-002 trajectory score with a bound: the same receiver checks, the same
 * not-applicable handling and the same message for every trajectory score.
 */
export function trajectoryScoreMatcher(name: string, score: StepScore) {
  return function (this: MatcherState, received: unknown, ...args: unknown[]): MatcherResult {
    const workup = requireWorkup(name, received);
    const reference = score.needsReference ? requireReference(name, workup, args[0]) : undefined;
    const bound = requireNumber(
      name,
      score.comparator === '>=' ? 'min' : 'max',
      args[score.needsReference ? 1 : 0] ?? (score.comparator === '>=' ? 1 : 0),
    );
    const measured = stepScore(workup, score, bound, reference);
    const pass = record(this, workup, measured);
    const value = measured.value as number | null;
    const word = score.comparator === '>=' ? 'at least' : 'at most';
    const opposite = score.comparator === '>=' ? 'below' : 'above';
    return {
      pass,
      message: message(this, `.${name}`, score.needsReference ? 'gold, bound' : 'bound', (negated) => {
        if (value === null) return [`Cannot measure ${score.label}: ${measured.summary}.`];
        if (negated)
          return [
            `Expected ${score.label} ${opposite} ${formatValue(bound)}, but it is ${formatValue(value)}.`,
          ];
        return [`Expected ${score.label} of ${word} ${formatValue(bound)}, but it is ${formatValue(value)}.`];
      }),
      expected: bound,
      actual: value,
    };
  };
}
