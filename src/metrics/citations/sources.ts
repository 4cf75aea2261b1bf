import type { LedgerEntry } from '../../model/ledger.js';
import type { Note } from '../../model/note.js';
import type { CitedClaim } from './alce.js';
import { claimUnits } from './units.js';

/**
 * The note's claims for `citationScores`, one per claim unit (see `claimUnits`): the covered part of each
 * claim-making segment with the segment's citations (a trailing citation covers its bullet, so it is the bullet's
 * cited prose that its sources must entail; only that portion is entailment-checked, as seed 001's Stage 2 says),
 * and each uncovered part with no citation (ALCE counts an uncited sentence as unsupported).
 *
 * A covered part carries every citation of its segment as written, repeats kept: a note's `[cite:g1][cite:g1]` is
 * two citations of g1, as ALCE reads `[1][1]` (its premise holds the source twice, and precision counts both).
 * `ClaimUnit.citations` keeps each id once, since what a unit cites is a set for the needle metrics.
 */
export function citedClaims(note: Note): CitedClaim[] {
  return claimUnits(note).map((unit) => ({
    text: unit.text,
    citations: unit.covered ? unit.segment.citations.map((c) => c.id) : [],
    position: unit.position,
  }));
}

/**
 * The premise text of every ledger entry, by id, for `citationScores`: the passage a document store returned
 * (`text`), then each returned fact as a sentence (`Halberd member of Ash Cell.`: the relation lower-cased with `_`
 * read as a space), so a graph query with no passage still has something an NLI model can read. A failed query
 * that returned nothing is the empty string, which entails nothing.
 */
export function ledgerSources(ledger: readonly LedgerEntry[]): Record<string, string> {
  const sources: Record<string, string> = Object.create(null);
  for (const entry of ledger) {
    const parts = entry.text ? [entry.text] : [];
    for (const fact of entry.results) {
      parts.push(`${fact.subject} ${fact.relation.toLowerCase().replace(/_/g, ' ')} ${fact.object}.`);
    }
    sources[entry.id] = parts.join('\n');
  }
  return sources;
}
