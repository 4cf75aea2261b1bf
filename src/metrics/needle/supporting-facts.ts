import type { LedgerEntry } from '../../model/ledger.js';
import type { Note } from '../../model/note.js';
import type { NeedleSpec } from '../../model/spec.js';
import { supportingFactScores } from '../hotpot.js';
import { citedFacts, type IndexedUnit } from './cited-facts.js';
import { factId } from './fact-id.js';
import type { SupportingFactScore } from './types.js';

/**
 * Supporting-fact EM, precision, recall and F1 (seed 001, Thread 3; HotpotQA's supporting-fact F1, "did the note
 * cite the right edges"): HotpotQA's `update_sp` (`supportingFactScores`) over the facts the note cites against the
 * needle's `required_cites`, each fact the item `[subject, relation, object]` (the store is provenance, not
 * identity). The facts the note cites are `citedFacts`: asserted by a covered claim and returned by an entry it
 * cites, kept when their relation is one of the needle's (`required_path.relations` and the relations of
 * `required_cites`), so a note that cites the wrong CO_LOCATED edge loses precision and one that also cites a
 * facility's address does not.
 *
 * Not applicable: no note; a needle with no `required_cites` (HotpotQA would score an empty gold set f1 0 whatever
 * the note did).
 */
export function supportingFacts(
  note: Note | undefined,
  units: readonly IndexedUnit[],
  entries: ReadonlyMap<string, LedgerEntry>,
  needle: NeedleSpec,
): SupportingFactScore {
  const empty = { predicted: [], missing: [], extra: [] };
  if (!note) return { value: null, reason: 'the workup has no note', ...empty };
  if (needle.required_cites.length === 0) {
    return { value: null, reason: 'the needle has no required_cites', ...empty };
  }
  const relations = new Set([
    ...needle.required_path.relations,
    ...needle.required_cites.map((f) => f.relation),
  ]);
  const predicted = citedFacts(units, entries, relations);
  const gold = needle.required_cites.map((f) => ({
    subject: f.subject,
    relation: f.relation,
    object: f.object,
  }));
  // Each fact is scored as its factId, one string per (subject, relation, object): as HotpotQA's items, two facts
  // are the same item exactly when their triples are equal, so the counts are those of the `[s, r, o]` lists.
  const predictedIds = predicted.map(factId);
  const goldIds = gold.map(factId);
  const predictedKeys = new Set(predictedIds);
  const goldKeys = new Set(goldIds);
  return {
    value: supportingFactScores(predictedIds, goldIds),
    predicted,
    missing: gold.filter((_, i) => !predictedKeys.has(goldIds[i] as string)),
    extra: predicted.filter((_, i) => !goldKeys.has(predictedIds[i] as string)),
  };
}
