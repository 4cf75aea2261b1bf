/**
 * A fact is one edge of the entity graph: `subject -relation-> object`, with the store that returned it.
 * Facts are the unit of supporting-fact F1 and of path traversal.
 */
export interface Fact {
  subject: string;
  relation: string;
  object: string;
  /** The store the fact came from (for example `graph` or `docs`); absent when unknown. */
  store?: string;
}

/** The identity of a fact for set comparisons: subject, relation and object (the store is provenance, not identity). */
export function factKey(fact: Pick<Fact, 'subject' | 'relation' | 'object'>): string {
  return JSON.stringify([fact.subject, fact.relation, fact.object]);
}

/** `subject -RELATION-> object`, the form used in every message that names a fact. */
export function formatFact(fact: Pick<Fact, 'subject' | 'relation' | 'object'>): string {
  return `${fact.subject} -${fact.relation}-> ${fact.object}`;
}
