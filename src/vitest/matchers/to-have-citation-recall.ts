import { citationRecall } from '../../metrics/citations/recall.js';
import {
  fmt,
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
  const recall = workup.note ? citationRecall(workup.note) : undefined;
  const value = recall?.value ?? null;
  const pass = value !== null && value >= threshold;
  const uncited = recall?.uncited ?? [];
  record(this, workup, {
    criterion: 'citation-recall',
    metric: 'citation_recall',
    value,
    threshold,
    comparator: '>=',
    met: pass,
    summary: `${recall?.covered ?? 0} of ${recall?.total ?? 0} claims cited (${fmt(value)}, at least ${fmt(threshold)} required)`,
    evidence: {
      uncited: uncited.map((u) => ({ line: u.line, column: u.column, section: u.section, text: u.text })),
    },
  });
  return {
    pass,
    message: message(this, '.toHaveCitationRecall', 'min', (negated) => {
      if (!recall) return ['Cannot measure citation recall: the workup has no note.'];
      if (value === null) return [`Cannot measure citation recall: ${recall.reason}.`];
      if (negated) return [`Expected citation recall below ${fmt(threshold)}, but it is ${fmt(value)}.`];
      return [
        `Expected citation recall of at least ${fmt(threshold)}, but it is ${fmt(value)} (${recall.covered} of ${recall.total} claims cited).`,
        'Uncited claims:',
        ...uncited.map((u) => `  line ${u.line}: ${u.text.trim()}`),
      ];
    }),
    expected: threshold,
    actual: value,
  };
}
