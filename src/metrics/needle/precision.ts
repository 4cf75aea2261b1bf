import { type Fact, factKey } from '../../model/fact.js';
import type { LedgerEntry } from '../../model/ledger.js';
import type { Note } from '../../model/note.js';
import { asserts, type IndexedUnit } from './cited-facts.js';
import type { FactAssertion, PrecisionScore } from './types.js';

/**
 * Bridge-fact citation precision (seed 001, Thread 3: "bridge facts cited to the right queries?"). The bridge
 * facts are the needle's `required_cites`, or, when it lists none, the facts of the chain that completed the path.
 * Every claim unit (a claim-making segment's covered part, with its citations, or its uncovered part, with none)
 * that asserts a bridge fact (names its subject and its object, see `asserts`) is one assertion, and it is correct
 * when one of the unit's citations names a ledger entry whose results hold that fact. Precision = correct
 * assertions / assertions.
 *
 * Not applicable: no note; no bridge facts (no `required_cites` and no completed path); a note that asserts no
 * bridge fact (0/0; the facts it never asserts are listed in `unasserted`, and recall and supporting-fact recall
 * are what score their absence).
 */
export function bridgePrecision(
  note: Note | undefined,
  units: readonly IndexedUnit[],
  bridge: readonly Fact[],
  entries: ReadonlyMap<string, LedgerEntry>,
): PrecisionScore {
  if (!note) return { value: null, reason: 'the workup has no note', assertions: [], unasserted: [] };
  if (bridge.length === 0) {
    return {
      value: null,
      reason: 'the needle has no required_cites and the ledger completes no path',
      assertions: [],
      unasserted: [],
    };
  }
  const returns = (id: string, fact: Fact): boolean =>
    entries
      .get(id)
      ?.results.some(
        (r) => r.subject === fact.subject && r.relation === fact.relation && r.object === fact.object,
      ) ?? false;
  const assertions: FactAssertion[] = [];
  const asserted = new Set<string>();
  for (const indexed of units) {
    for (const fact of bridge) {
      if (!asserts(indexed, fact)) continue;
      const key = factKey(fact);
      asserted.add(key);
      const hits = indexed.unit.citations.filter((id) => returns(id, fact));
      assertions.push({
        fact: { subject: fact.subject, relation: fact.relation, object: fact.object },
        section: indexed.unit.section,
        text: indexed.unit.text,
        position: indexed.unit.position,
        citations: indexed.unit.citations,
        returnedBy: hits,
        correct: hits.length > 0,
      });
    }
  }
  const unasserted = bridge.filter((fact) => !asserted.has(factKey(fact)));
  if (assertions.length === 0) {
    return { value: null, reason: 'the note asserts no bridge fact', assertions, unasserted };
  }
  const correct = assertions.filter((a) => a.correct).length;
  return { value: correct / assertions.length, assertions, unasserted };
}
