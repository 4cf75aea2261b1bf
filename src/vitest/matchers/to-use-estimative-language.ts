import { estimativeLanguage } from '../../checks/tradecraft.js';
import { type MatcherResult, type MatcherState, message, record, requireWorkup } from './helpers.js';

/**
 * The note follows ICD-203 tradecraft (seed 001, Thread 2): it states likelihood in the standard estimative terms
 * and its analytic confidence, uses no non-standard hedge, and never confuses likelihood with confidence.
 */
export function toUseEstimativeLanguage(this: MatcherState, received: unknown): MatcherResult {
  const workup = requireWorkup('toUseEstimativeLanguage', received);
  const measured = estimativeLanguage(workup);
  const pass = record(this, workup, measured);
  const problems = (measured.evidence as { problems?: string[] }).problems ?? [];
  return {
    pass,
    message: message(this, '.toUseEstimativeLanguage', '', (negated) => {
      if (measured.value === null) return [`Cannot lint the note: ${measured.summary}.`];
      if (negated) return ['Expected the note to break ICD-203 tradecraft, but it follows it.'];
      return ['Expected the note to follow ICD-203 estimative language:', ...problems.map((p) => `  ${p}`)];
    }),
  };
}
