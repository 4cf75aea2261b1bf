import { surfaced } from '../../checks/needle.js';
import type { NoteLocation } from '../../metrics/needle/types.js';
import type { NeedleSpec } from '../../model/spec.js';
import {
  type MatcherResult,
  type MatcherState,
  message,
  record,
  requireNeedle,
  requireWorkup,
} from './helpers.js';

/** A needle that only plants an answer, for `toSurface('Wren')`. */
function answerOnly(answer: string): NeedleSpec {
  return {
    kind: 'needle',
    id: 'answer',
    answer,
    aliases: [],
    required_path: { relations: [], directed: false },
    required_cites: [],
    stores: [],
    thresholds: {},
  };
}

/**
 * The note's claims name the answer: a string, or a needle's answer or one of its aliases (HotpotQA-normalized, in
 * sections that make claims; see `needleRecall`).
 */
export function toSurface(this: MatcherState, received: unknown, answerOrNeedle: unknown): MatcherResult {
  const workup = requireWorkup('toSurface', received);
  const needle =
    typeof answerOrNeedle === 'string' && answerOrNeedle !== ''
      ? answerOnly(answerOrNeedle)
      : requireNeedle('toSurface', answerOrNeedle);
  const measured = surfaced(workup, needle);
  const pass = record(this, workup, measured);
  const forms = [needle.answer, ...needle.aliases].map((f) => JSON.stringify(f)).join(' or ');
  return {
    pass,
    message: message(this, '.toSurface', 'answer', (negated) => {
      if (measured.value === null) return [`Cannot look for the answer: ${measured.summary}.`];
      if (negated) {
        const m = (measured.evidence as { match: NoteLocation }).match;
        return [`Expected the note not to name ${forms}, but line ${m.position.line} does:`, `  ${m.text}`];
      }
      return [`Expected the note's claims to name ${forms}; none does.`];
    }),
  };
}
