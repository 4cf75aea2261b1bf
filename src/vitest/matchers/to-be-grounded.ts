import { grounded, needleScore } from '../../checks/needle.js';
import {
  type MatcherResult,
  type MatcherState,
  message,
  record,
  requireNeedle,
  requireWorkup,
} from './helpers.js';

/**
 * The run found the needle rather than guessed it: the note surfaces the answer and the ledger traversed the required
 * path (seed 001, Thread 3). A note that names the answer without the traversal is a guess, and the message says so.
 */
export function toBeGrounded(this: MatcherState, received: unknown, needle: unknown): MatcherResult {
  const workup = requireWorkup('toBeGrounded', received);
  const spec = requireNeedle('toBeGrounded', needle);
  const pass = record(this, workup, grounded(workup, spec));
  const score = needleScore(workup, spec);
  return {
    pass,
    message: message(this, '.toBeGrounded', 'needle', (negated) => {
      if (negated) {
        return [
          `Expected workup ${workup.id} not to be grounded in needle ${spec.id}, but it surfaced ${spec.answer} and traversed the path via ${score.trajectory.ledgerIds?.join(', ')}.`,
        ];
      }
      if (score.grounded.value === null)
        return [`Cannot tell whether it is grounded: ${score.grounded.reason}.`];
      if (score.guess.value === true) {
        const prefix = score.trajectory.prefix?.relations ?? [];
        return [
          `A guess, not a finding: the note of workup ${workup.id} names ${spec.answer}, but its ledger never traversed ${spec.required_path.relations.join(' → ')} (needle ${spec.id}).`,
          `Longest traversed prefix: ${prefix.length > 0 ? prefix.join(' → ') : '(none)'}`,
        ];
      }
      return [
        `Expected workup ${workup.id} to be grounded in needle ${spec.id}.`,
        `Surfaced the answer: ${score.recall.value === 1 ? 'yes' : 'no'}`,
        `Traversed the path:  ${score.trajectory.value === 1 ? 'yes' : 'no'}`,
      ];
    }),
  };
}
