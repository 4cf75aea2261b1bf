import type { LedgerEntry } from '../../model/ledger.js';
import type { Note } from '../../model/note.js';
import type { NeedleSpec } from '../../model/spec.js';
import type { RecallScore, ReconciliationScore, StoreAnswer } from './types.js';

/** Words that corroborate an agreement, matched at the start of a word ("agrees", "corroborated", "confirms"). */
const AGREEMENT = /\b(?:agree|corroborat|consistent|confirm)\w*/giu;
/** Words that flag a conflict ("conflicting", "discrepancy", "contradicts", "disagree", "inconsistent"). */
const CONFLICT = /\b(?:conflict|discrepan|contradict|disagree|inconsistent)\w*/giu;

/**
 * Cross-store reconciliation (seed 001, Thread 3: "fact surfaced + reconciliation language + both stores
 * queried"). The question reconciled is the needle's subject and relation: those of its first required cite, or
 * `required_path.from` and its first relation. The ledger settles the verdict: each store's answers are the
 * objects its entries returned for that subject and relation (a fact's own `store`, else its entry's); the stores
 * agree when every store returned the same set of objects, and conflict otherwise. The score is the mean of three
 * checks, each 0 or 1:
 * 1. surfaced: needle recall is 1;
 * 2. stores queried: every store of `stores` returned at least one answer to the question;
 * 3. language: the note, in any section (a conflict is rightly flagged under `Gaps & caveats`), uses a word of the
 *    verdict's class: agree/corroborat-/consistent/confirm for an agreement, conflict/discrepan-/contradict/
 *    disagree/inconsistent for a conflict. With a store unanswered there is no verdict, and this check fails.
 * Words are matched at word starts, so "inconsistent" is never read as "consistent" nor "disagree" as "agree";
 * negation is not parsed ("do not conflict" reads as conflict).
 *
 * Not applicable: a needle with no `stores`; no note; an empty ledger; a needle with neither a required cite nor a
 * `from` endpoint (no question to reconcile).
 */
export function reconcileStores(
  note: Note | undefined,
  ledger: readonly LedgerEntry[],
  needle: NeedleSpec,
  recall: RecallScore,
): ReconciliationScore {
  if (needle.stores.length === 0) return { value: null, reason: 'not a cross-store needle (no stores)' };
  if (!note) return { value: null, reason: 'the workup has no note' };
  if (ledger.length === 0) return { value: null, reason: 'the ledger is empty' };
  const first = needle.required_cites[0];
  const subject = first?.subject ?? needle.required_path.from;
  const relation = first?.relation ?? needle.required_path.relations[0];
  if (subject === undefined || relation === undefined) {
    return { value: null, reason: 'the needle names no subject and relation to reconcile' };
  }

  const answers = new Map(
    needle.stores.map((store) => [store, { objects: new Set<string>(), ids: new Set<string>() }]),
  );
  for (const entry of ledger) {
    for (const fact of entry.results) {
      if (fact.subject !== subject || fact.relation !== relation) continue;
      const answer = answers.get(fact.store ?? entry.store);
      if (!answer) continue;
      answer.objects.add(fact.object);
      answer.ids.add(entry.id);
    }
  }
  const stores: StoreAnswer[] = needle.stores.map((store) => {
    const { objects, ids } = answers.get(store)!;
    return { store, objects: [...objects].sort(), ledgerIds: [...ids] };
  });
  const storesQueried = stores.every((s) => s.objects.length > 0);
  const surfaced = recall.value === 1;
  let verdict: 'agree' | 'conflict' | undefined;
  if (storesQueried) {
    const key = JSON.stringify(stores[0]!.objects);
    verdict = stores.every((s) => JSON.stringify(s.objects) === key) ? 'agree' : 'conflict';
  }
  // Segment by segment: no word spans two segments, so this finds what a search of their joined text finds.
  const wording: string[] = [];
  if (verdict) {
    const words = verdict === 'agree' ? AGREEMENT : CONFLICT;
    for (const segment of note.segments) for (const m of segment.text.matchAll(words)) wording.push(m[0]);
  }
  const languageMatches = wording.length > 0;
  const passed = [surfaced, storesQueried, languageMatches].filter(Boolean).length;
  const problems = [
    ...(surfaced ? [] : ['the answer is not surfaced']),
    ...stores
      .filter((s) => s.objects.length === 0)
      .map((s) => `store ${s.store} was never asked ${subject} ${relation}`),
    ...(verdict && !languageMatches
      ? [`the stores ${verdict === 'agree' ? 'agree' : 'conflict'} but the note never says so`]
      : []),
  ];
  return {
    value: passed / 3,
    ...(problems.length > 0 && { reason: problems.join('; ') }),
    subject,
    relation,
    surfaced,
    storesQueried,
    stores,
    ...(verdict && { verdict }),
    wording,
    languageMatches,
  };
}
