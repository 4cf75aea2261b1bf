import { type Fact, factKey } from '../../model/fact.js';
import type { LedgerEntry } from '../../model/ledger.js';
import type { ClaimUnit } from '../citations/units.js';
import { factId } from './fact-id.js';
import { mentions, segmentForm, tokenForm } from './mention.js';

/** A claim unit with its normalized text, computed once per score. */
export interface IndexedUnit {
  unit: ClaimUnit;
  form: string;
}

export function indexUnits(units: readonly ClaimUnit[]): IndexedUnit[] {
  return units.map((unit) => ({
    unit,
    form: unit.text === unit.segment.text ? segmentForm(unit.segment) : tokenForm(unit.text),
  }));
}

/**
 * Whether a claim asserts a fact: it names both the fact's subject and its object (HotpotQA-normalized contiguous
 * tokens, as needle recall matches the answer). The relation is not looked for: notes phrase it freely ("is a
 * member of", "belongs to"), and the relation is what the cited query's result settles.
 */
export function asserts(unit: IndexedUnit, fact: Fact): boolean {
  return mentions(unit.form, tokenForm(fact.subject)) && mentions(unit.form, tokenForm(fact.object));
}

/** The ids of the ledger entries whose results hold each fact, by `factKey`. */
export function returnedBy(ledger: readonly LedgerEntry[]): Map<string, string[]> {
  const by = new Map<string, string[]>();
  for (const entry of ledger) {
    for (const fact of entry.results) {
      const key = factKey(fact);
      const ids = by.get(key);
      if (!ids) by.set(key, [entry.id]);
      else if (!ids.includes(entry.id)) ids.push(entry.id);
    }
  }
  return by;
}

/** The ledger's entries by id (the last of any entries that share an id), built once per scoring of a needle. */
export function entriesById(ledger: readonly LedgerEntry[]): Map<string, LedgerEntry> {
  // A loop, not new Map(ledger.map(...)): a pair array per entry was half of what building the map allocated.
  const entries = new Map<string, LedgerEntry>();
  for (const entry of ledger) entries.set(entry.id, entry);
  return entries;
}

/**
 * The facts a note cites: a fact is cited when a covered claim (the part of a claim-making segment its citations
 * cover) asserts it (see `asserts`) and cites a ledger entry whose results hold it. Only facts whose relation is
 * in `relations` are kept (a needle's supporting facts are edges of its own kinds; the note's other cited context,
 * a facility's address, is neither right nor wrong for it). Each fact once, in the order first cited.
 */
export function citedFacts(
  units: readonly IndexedUnit[],
  entries: ReadonlyMap<string, LedgerEntry>,
  relations: ReadonlySet<string>,
): Fact[] {
  const cited = new Map<string, Fact>();
  for (const indexed of units) {
    for (const id of indexed.unit.citations) {
      const results = entries.get(id)?.results;
      if (results === undefined) continue;
      for (const fact of results) {
        if (!relations.has(fact.relation) || !asserts(indexed, fact)) continue;
        const key = factId(fact);
        if (cited.has(key)) continue;
        cited.set(key, { subject: fact.subject, relation: fact.relation, object: fact.object });
      }
    }
  }
  return [...cited.values()];
}
