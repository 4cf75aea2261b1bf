import { citationRecall } from '../../checks/citations.js';
import { plural } from '../../io/plural.js';
import {
  formatValue,
  type MatcherResult,
  type MatcherState,
  message,
  record,
  requireNumber,
  requireWorkup,
} from './helpers.js';

/**
 * Structural citation recall (seed 001, Stage 1; see `citationRecall`) is at least `min`. A failure lists each
 * uncited claim with its line.
 */
export function toHaveCitationRecall(this: MatcherState, received: unknown, min: unknown = 1): MatcherResult {
  const workup = requireWorkup('toHaveCitationRecall', received);
  const threshold = requireNumber('toHaveCitationRecall', 'min', min);
  const measured = citationRecall(workup, threshold);
  const pass = record(this, workup, measured);
  const value = measured.value as number | null;
  const { covered, total, uncited } = measured.evidence as {
    covered: number;
    total: number;
    uncited: Array<{ line: number; text: string }>;
  };
  return {
    pass,
    message: message(this, '.toHaveCitationRecall', 'min', (negated) => {
      if (value === null) return [`Cannot measure citation recall: ${measured.summary}.`];
      if (negated)
        return [`Expected citation recall below ${formatValue(threshold)}, but it is ${formatValue(value)}.`];
      return [
        `Expected citation recall of at least ${formatValue(threshold)}, but it is ${formatValue(value)} (${covered} of ${plural(total, 'claim')} cited).`,
        'Uncited claims:',
        ...uncited.map((u) => `  line ${u.line}: ${u.text}`),
      ];
    }),
    expected: threshold,
    actual: value,
  };
}
