import { claimUnits } from '../../metrics/citations/units.js';
import { asserts, indexUnits } from '../../metrics/needle/cited-facts.js';
import { type Fact, factKey, formatFact } from '../../model/fact.js';
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
  const units = workup.note ? indexUnits(claimUnits(workup.note)) : [];
  let pass: boolean;
  let what: string;
  let where: number[] = [];
  if (typeof factOrLedgerId === 'string') {
    what = `ledger entry ${factOrLedgerId}`;
    const exists = workup.ledger.some((e) => e.id === factOrLedgerId);
    where = (workup.note?.citations ?? []).filter((c) => c.id === factOrLedgerId).map((c) => c.position.line);
    pass = exists && where.length > 0;
  } else {
    what = formatFact(factOrLedgerId);
    const key = factKey(factOrLedgerId);
    const holders = new Set(
      workup.ledger.filter((e) => e.results.some((f) => factKey(f) === key)).map((e) => e.id),
    );
    const citing = units.filter(
      (u) => u.unit.citations.some((id) => holders.has(id)) && asserts(u, factOrLedgerId),
    );
    where = citing.map((u) => u.unit.position.line);
    pass = citing.length > 0;
  }
  record(this, workup, {
    criterion: 'cites',
    metric: 'cites',
    value: pass,
    met: pass,
    summary: pass ? `cites ${what} on line ${where.join(', ')}` : `never cites ${what}`,
    evidence: { target: factOrLedgerId, lines: where },
  });
  return {
    pass,
    message: message(this, '.toCite', typeof factOrLedgerId === 'string' ? 'ledgerId' : 'fact', (negated) => {
      if (!workup.note) return ['Cannot look for citations: the workup has no note.'];
      if (negated) return [`Expected the note not to cite ${what}, but line ${where.join(', ')} does.`];
      if (typeof factOrLedgerId === 'string' && !workup.ledger.some((e) => e.id === factOrLedgerId)) {
        return [`Expected the note to cite ${what}, but the ledger has no entry ${factOrLedgerId}.`];
      }
      return [
        typeof factOrLedgerId === 'string'
          ? `Expected the note to cite ${what}; no claim does.`
          : `Expected a claim to assert ${what} and cite a ledger entry that returned it; none does.`,
      ];
    }),
  };
}
