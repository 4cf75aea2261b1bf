import type { Note, Segment, Sentence, SourcePosition } from '../../model/note.js';
import { LineIndex } from '../../parse/position.js';

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
  /**
   * The segment's cited ledger ids, each once, in order of first citation; empty for an uncovered unit. (The set a
   * unit cites; `citedClaims` keeps repeats, as ALCE counts them.)
   */
  citations: string[];
  /** Whether a citation covers the unit. */
  covered: boolean;
  /** The sentences the unit overlaps. */
  sentences: Sentence[];
  /**
   * Where the unit begins in the note: its first sentence's start, or for a tail after a citation, the first word
   * after the segment's last citation marker.
   */
  position: SourcePosition;
}

/** Prose worth a citation holds a letter or a digit; a stray `.` or `)` after the last citation does not. */
const PROSE = /[\p{L}\p{N}]/u;

/** The claim units of every claim-making segment of a note, in source order (exempt sections give none). */
export function claimUnits(note: Note): ClaimUnit[] {
  return units(note, true);
}

/** The uncovered units only (each claim-making segment's prose after its last citation): no covered unit is built. */
export function uncoveredUnits(note: Note): ClaimUnit[] {
  return units(note, false);
}

function units(note: Note, covered: boolean): ClaimUnit[] {
  const out: ClaimUnit[] = [];
  let lines: LineIndex | undefined;
  for (const segment of note.segments) {
    if (!segment.claims) continue;
    const split = Math.max(segment.lastCitationAt, 0);
    if (covered && split > 0) out.push(unit(segment, 0, split, true));
    if (PROSE.test(segment.text.slice(split))) {
      const tail = unit(segment, split, segment.text.length, false);
      const after = segment.citations[segment.citations.length - 1]?.position.offset;
      if (split > 0 && after !== undefined) {
        const at = locateWord(note.source, tail.text, after);
        if (at !== undefined) {
          lines ??= new LineIndex(note.source);
          tail.position = lines.position(at);
        }
      }
      out.push(tail);
    }
  }
  return out;
}

/** Where the first word of `text` stands in `source` at or after `from` (markup may hide it: then undefined). */
function locateWord(source: string, text: string, from: number): number | undefined {
  const word = /[\p{L}\p{N}]+/u.exec(text)?.[0];
  if (word === undefined) return undefined;
  const index = source.indexOf(word, from);
  return index === -1 ? undefined : index;
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
