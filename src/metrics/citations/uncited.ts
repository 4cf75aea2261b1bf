import type { Note, SourcePosition } from '../../model/note.js';
import { uncoveredUnits } from './units.js';

/** Claim-making prose that no citation covers. */
export interface UncitedClaim {
  /** The title of the section it stands in. */
  section: string;
  /** The uncited prose: a whole segment that cites nothing, or what follows a segment's last citation. */
  text: string;
  /** The sentences holding that prose, whole. */
  sentences: string[];
  /** Where the first of those sentences begins in the note (1-based line and column). */
  position: SourcePosition;
  line: number;
  column: number;
}

/**
 * Stage 1 of seed 001's citation gate ("coverage / recall"): the claims no citation covers.
 *
 * - Section-aware: segments of sections that make no claims (`Gaps & caveats`, `Provenance`, and their
 *   subsections; `segment.claims` is false there) are never flagged.
 * - Segment-granular: a segment's last citation covers every sentence before it, so only the prose after the last
 *   citation (from `segment.lastCitationAt` on) is flagged, and a segment that cites nothing is flagged whole. This is
 *   how agents cite (one trailing citation per bullet); the known limit, as the seed says, is that a sentence
 *   sandwiched before a trailing citation is assumed covered. Entailment is Stage 2 (`citationScores`).
 *
 * Prose with no letter or digit (a stray `.` after the last marker) is not a claim.
 */
export function findUncitedClaims(note: Note): UncitedClaim[] {
  return uncoveredUnits(note).map((unit) => ({
    section: unit.section,
    text: unit.text,
    sentences: unit.sentences.map((s) => s.text),
    position: unit.position,
    line: unit.position.line,
    column: unit.position.column,
  }));
}
