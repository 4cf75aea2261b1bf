import type { LedgerEntry } from '../../model/ledger.js';
import type { SourcePosition } from '../../model/note.js';
import type { Workup } from '../../model/workup.js';

/** One `[cite:gN]` of a note, where it stands and whether it names a ledger entry. */
export interface CitationReference {
  /** The ledger id the citation names. */
  id: string;
  /** Where the `[cite:...]` marker stands in the note. */
  position: SourcePosition;
  /** The title of the section it stands in. */
  section: string;
  /** The store of the entry it names; absent when it dangles. */
  store?: string;
  /** The error the named entry recorded, when its query failed (the citation resolves, to a failed query). */
  error?: string;
}

export interface CitationResolution {
  /** True when every citation names a ledger entry; null when the workup has no note (nothing to resolve). */
  value: boolean | null;
  /** Why `value` is null. */
  reason?: string;
  /** The citations that name a ledger entry, in source order. */
  resolved: CitationReference[];
  /** The citations that name no ledger entry, in source order. */
  dangling: CitationReference[];
}

/**
 * Phase 1's citation gate (seed 001, Thread 1): every `[cite:gN]` of the note, in every section (an exempt section
 * makes no claims, but a citation written there must still name a real query), resolves to a ledger entry. Proves only
 * that no source was invented; whether the source says what the claim says is `citationScores`' job.
 */
export function resolveCitations(workup: Workup): CitationResolution {
  if (!workup.note) {
    return { value: null, reason: 'the workup has no note', resolved: [], dangling: [] };
  }
  const entries = new Map<string, LedgerEntry>();
  for (const entry of workup.ledger) entries.set(entry.id, entry);
  const resolved: CitationReference[] = [];
  const dangling: CitationReference[] = [];
  for (const segment of workup.note.segments) {
    for (const citation of segment.citations) {
      const entry = entries.get(citation.id);
      const ref: CitationReference = {
        id: citation.id,
        position: citation.position,
        section: segment.section,
      };
      if (!entry) {
        dangling.push(ref);
        continue;
      }
      ref.store = entry.store;
      if (entry.error !== undefined) ref.error = entry.error;
      resolved.push(ref);
    }
  }
  return { value: dangling.length === 0, resolved, dangling };
}
