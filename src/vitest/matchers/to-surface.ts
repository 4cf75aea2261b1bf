import { claimUnits } from '../../metrics/citations/units.js';
import { needleRecall } from '../../metrics/needle/recall.js';
import type { NeedleSpec } from '../../model/spec.js';
import {
  type MatcherResult,
  type MatcherState,
  message,
  record,
  requireNeedle,
  requireWorkup,
} from './helpers.js';

/**
 * The note's claims name the answer: a string, or a needle's answer or one of its aliases (HotpotQA-normalized, in
 * sections that make claims; see `needleRecall`).
 */
export function toSurface(this: MatcherState, received: unknown, answerOrNeedle: unknown): MatcherResult {
  const workup = requireWorkup('toSurface', received);
  const needle: NeedleSpec =
    typeof answerOrNeedle === 'string' && answerOrNeedle !== ''
      ? {
          kind: 'needle',
          id: 'answer',
          answer: answerOrNeedle,
          aliases: [],
          required_path: { relations: [], directed: false },
          required_cites: [],
          stores: [],
          thresholds: {},
        }
      : requireNeedle('toSurface', answerOrNeedle);
  const score = needleRecall(workup.note, workup.note ? claimUnits(workup.note) : [], needle);
  const pass = score.value === 1;
  const forms = [needle.answer, ...needle.aliases].map((f) => JSON.stringify(f)).join(' or ');
  record(this, workup, {
    criterion: 'surfaced',
    metric: 'recall',
    value: score.value,
    threshold: 1,
    comparator: '==',
    met: pass,
    summary: pass
      ? `names ${JSON.stringify(score.match?.form)} in ${score.match?.section}`
      : `never names ${forms}`,
    evidence: score.match ? { match: score.match } : {},
  });
  return {
    pass,
    message: message(this, '.toSurface', 'answer', (negated) => {
      if (score.value === null) return [`Cannot look for the answer: ${score.reason}.`];
      if (negated) {
        const m = score.match!;
        return [`Expected the note not to name ${forms}, but line ${m.position.line} does:`, `  ${m.text}`];
      }
      return [`Expected the note's claims to name ${forms}; none does.`];
    }),
  };
}
