import type { Fact } from '../../model/fact.js';

/**
 * A fact's identity (subject, relation, object) as a string for the maps of one scoring pass: each field prefixed
 * by its length, so no two facts share an id whatever their names hold, and cheaper than `factKey`'s JSON, which
 * matters when every fact of a 50-entry ledger is looked at once per needle.
 */
export function factId(fact: Pick<Fact, 'subject' | 'relation' | 'object'>): string {
  return `${fact.subject.length}:${fact.subject}${fact.relation.length}:${fact.relation}${fact.object}`;
}

const entitySets = new WeakMap<readonly unknown[], Set<string>>();

/** Every entity any fact of the ledger names, computed once per ledger (a loaded ledger is never modified). */
export function ledgerEntities(ledger: ReadonlyArray<{ results: readonly Fact[] }>): Set<string> {
  let set = entitySets.get(ledger);
  if (!set) {
    set = new Set();
    for (const entry of ledger) {
      for (const fact of entry.results) {
        set.add(fact.subject);
        set.add(fact.object);
      }
    }
    entitySets.set(ledger, set);
  }
  return set;
}
