import type { Note, Segment, Sentence } from '../../model/note.js';
import { findUncitedClaims, type UncitedClaim } from './uncited.js';

export interface CitationRecall {
  /** covered / total, in [0, 1]; null when the note makes no claims (no claim-making sentence). */
  value: number | null;
  reason?: string;
  /** Claim-making sentences wholly covered by a citation. */
  covered: number;
  /** Claim-making sentences. */
  total: number;
  /** The uncited claims, as `findUncitedClaims` reports them. */
  uncited: UncitedClaim[];
}

const PROSE = /[\p{L}\p{N}]/u;

/**
 * Structural citation recall (Stage 1 of seed 001, Thread 1; ALCE's citation recall with "cited" in place of
 * "entailed"). The unit is the sentence, as in ALCE (which splits the output with NLTK's `sent_tokenize`): every
 * sentence of a claim-making segment is one claim, and it is covered when none of its prose stands after its
 * segment's last citation (`segment.lastCitationAt`), so a trailing citation covers the sentences of its bullet
 * before it. Recall = covered sentences / claim-making sentences. A note with no claim-making sentence has no
 * recall to measure: `value` is null, not 1 or 0.
 */
export function citationRecall(note: Note): CitationRecall {
  let covered = 0;
  let total = 0;
  for (const segment of note.segments) {
    for (const sentence of segment.sentences) {
      const status = sentenceCitation(segment, sentence);
      if (status === 'no-claim') continue;
      total++;
      if (status === 'cited') covered++;
    }
  }
  const uncited = findUncitedClaims(note);
  if (total === 0) {
    return { value: null, reason: 'the note makes no claims', covered, total, uncited };
  }
  return { value: covered / total, covered, total, uncited };
}

/**
 * Whether one sentence of a note is a cited claim, an uncited one, or no claim at all (a sentence of a section that
 * makes no claims, or one with no letter or digit). The rule of `citationRecall`, sentence by sentence, so every
 * report that marks sentences counts what `citationRecall` counts.
 */
export function sentenceCitation(segment: Segment, sentence: Sentence): 'cited' | 'uncited' | 'no-claim' {
  if (!segment.claims || !PROSE.test(sentence.text)) return 'no-claim';
  const after = segment.text.slice(Math.max(sentence.start, segment.lastCitationAt), sentence.end);
  return segment.lastCitationAt >= 0 && !PROSE.test(after) ? 'cited' : 'uncited';
}
