import { cites } from '../../checks/citations.js';
import { type Fact, formatFact } from '../../model/fact.js';
import { type MatcherResult, type MatcherState, message, record, requireWorkup } from './helpers.js';

function isFact(value: unknown): value is Fact {
  const f = value as Partial<Fact> | null;
  return (
    f !== null &&
    typeof f === 'object' &&
    [f.subject, f.relation, f.object].every((v) => typeof v === 'string' && v !== '')
  );
}

/**
 * With a ledger id: some claim of the note cites that entry, and the entry exists. With a fact: a claim asserts it
 * (names its subject and object) and cites a ledger entry whose results hold it, as a needle's `required_cites`
 * demands.
 */
export function toCite(this: MatcherState, received: unknown, factOrLedgerId: unknown): MatcherResult {
  const workup = requireWorkup('toCite', received);
  if (typeof factOrLedgerId !== 'string' && !isFact(factOrLedgerId)) {
    throw new TypeError(
      `toCite: expected a ledger id or a fact { subject, relation, object }, got ${JSON.stringify(factOrLedgerId)}`,
    );
  }
  const measured = cites(workup, factOrLedgerId);
  const pass = record(this, workup, measured);
  const lines = (measured.evidence as { lines: number[] }).lines;
  const byId = typeof factOrLedgerId === 'string';
  const what = byId ? `ledger entry ${factOrLedgerId}` : formatFact(factOrLedgerId);
  return {
    pass,
    message: message(this, '.toCite', byId ? 'ledgerId' : 'fact', (negated) => {
      if (!workup.note) return ['Cannot look for citations: the workup has no note.'];
      if (negated) return [`Expected the note not to cite ${what}, but line ${lines.join(', ')} does.`];
      if (byId && !workup.ledger.some((e) => e.id === factOrLedgerId)) {
        return [`Expected the note to cite ${what}, but the ledger has no entry ${factOrLedgerId}.`];
      }
      return [
        byId
          ? `Expected the note to cite ${what}; no claim does.`
          : `Expected a claim to assert ${what} and cite a ledger entry that returned it; none does.`,
      ];
    }),
  };
}
