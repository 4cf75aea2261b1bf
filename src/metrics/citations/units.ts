import type { Note, Segment, Sentence, SourcePosition } from '../../model/note.js';

/**
 * A stretch of a claim-making segment and the citations that cover it. Stage 1 of seed 001, Thread 1, is
 * segment-granular: a segment's last citation covers the prose before it (the agent cites at the end of a bullet),
 * and the prose after it is covered by nothing. So a segment gives at most two units: its covered part, carrying
 * every citation of the segment, and its uncovered tail, carrying none.
 */
export interface ClaimUnit {
  /** The title of the section the segment stands in. */
  section: string;
  segment: Segment;
  /** The unit's plain text (citation markers removed). */
  text: string;
  /** Start and end of `text` in `segment.text`. */
  start: number;
  end: number;
  /** The segment's cited ledger ids, each once, in source order; empty for an uncovered unit. */
  citations: string[];
  /** Whether a citation covers the unit. */
  covered: boolean;
  /** The sentences the unit overlaps. */
  sentences: Sentence[];
  /** Where the unit's first sentence begins in the note. */
  position: SourcePosition;
}

/** Prose worth a citation holds a letter or a digit; a stray `.` or `)` after the last citation does not. */
const PROSE = /[\p{L}\p{N}]/u;

/** The claim units of every claim-making segment of a note, in source order (exempt sections give none). */
export function claimUnits(note: Note): ClaimUnit[] {
  const units: ClaimUnit[] = [];
  for (const segment of note.segments) {
    if (!segment.claims) continue;
    const split = Math.max(segment.lastCitationAt, 0);
    if (split > 0) units.push(unit(segment, 0, split, true));
    if (PROSE.test(segment.text.slice(split))) units.push(unit(segment, split, segment.text.length, false));
  }
  return units;
}

function unit(segment: Segment, start: number, end: number, covered: boolean): ClaimUnit {
  // Skip the space that separates the covered part from the tail.
  while (start < end && segment.text[start] === ' ') start++;
  const sentences = segment.sentences.filter((s) => s.end > start && s.start < end);
  return {
    section: segment.section,
    segment,
    text: segment.text.slice(start, end),
    start,
    end,
    citations: covered ? [...new Set(segment.citations.map((c) => c.id))] : [],
    covered,
    sentences,
    position: sentences[0]?.position ?? segment.position,
  };
}
