import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scoreNeedle, traversePath } from '../../src/metrics/needle/index.js';
import { type Fact, factKey } from '../../src/model/fact.js';
import type { LedgerEntry } from '../../src/model/ledger.js';
import type { NeedleSpec, RequiredPath } from '../../src/model/spec.js';
import type { Workup } from '../../src/model/workup.js';
import { parseNote } from '../../src/note/parse.js';

const ENTITIES = ['Halberd', 'Ash Cell', 'Compound-Alpha', 'Wren', 'Depot-Seven'];
const RELATIONS = ['MEMBER_OF', 'CO_LOCATED', 'MET'];

const factArb: fc.Arbitrary<Fact> = fc.record({
  subject: fc.constantFrom(...ENTITIES),
  relation: fc.constantFrom(...RELATIONS),
  object: fc.constantFrom(...ENTITIES),
});
const ledgerArb: fc.Arbitrary<LedgerEntry[]> = fc
  .array(fc.array(factArb, { maxLength: 3 }), { maxLength: 7 })
  .map((entries) =>
    entries.map((results, i) => ({ id: `g${i + 1}`, store: 'graph', query: `q${i}`, results })),
  );
const pathArb: fc.Arbitrary<RequiredPath> = fc.record(
  {
    relations: fc.array(fc.constantFrom(...RELATIONS), { minLength: 1, maxLength: 3 }),
    from: fc.constantFrom(...ENTITIES),
    to: fc.constantFrom(...ENTITIES),
    directed: fc.boolean(),
  },
  { requiredKeys: ['relations', 'directed'] },
);

/**
 * The definition, by brute force: every chain of facts (each hop a fact of the hop's relation, walked forward or,
 * unless directed, backward; never straight back along the previous hop's fact) from `from` to `to`; the path is
 * complete after the entry that returned the last-returned fact of the chain that completes earliest.
 */
function bruteForce(ledger: LedgerEntry[], path: RequiredPath): number | null {
  const first = new Map<string, { fact: Fact; at: number }>();
  ledger.forEach((entry, at) => {
    for (const fact of entry.results) if (!first.has(factKey(fact))) first.set(factKey(fact), { fact, at });
  });
  let best: number | null = null;
  const walk = (hop: number, node: string | undefined, prev: string | undefined, latest: number): void => {
    if (hop === path.relations.length) {
      if (path.to === undefined || node === path.to) best = best === null ? latest : Math.min(best, latest);
      return;
    }
    for (const [key, { fact, at }] of first) {
      if (fact.relation !== path.relations[hop] || key === prev) continue;
      const ways: Array<[string, string]> = [[fact.subject, fact.object]];
      if (!path.directed && fact.subject !== fact.object) ways.push([fact.object, fact.subject]);
      for (const [tail, head] of ways) {
        if (node !== undefined && tail !== node) continue;
        walk(hop + 1, head, key, Math.max(latest, at));
      }
    }
  };
  walk(0, path.from, undefined, -1);
  return best;
}

/** A note of one bullet per chosen fact, each citing a chosen ledger entry. */
const noteArb = (ledger: LedgerEntry[]) =>
  fc
    .array(fc.tuple(factArb, fc.integer({ min: 0, max: Math.max(0, ledger.length) })), { maxLength: 5 })
    .map((bullets) =>
      parseNote(
        `## Findings\n\n${bullets
          .map(
            ([f, i]) =>
              `- ${f.subject} relates to ${f.object}.${i < ledger.length ? ` [cite:${ledger[i]!.id}]` : ''}\n`,
          )
          .join('')}`,
      ),
    );

const workupArb = ledgerArb.chain((ledger) =>
  noteArb(ledger).map((note): Workup => ({ id: 'w', note, ledger, meta: {} })),
);
const needleArb = fc
  .record({ path: pathArb, cites: fc.array(factArb, { maxLength: 3 }), answer: fc.constantFrom(...ENTITIES) })
  .map(
    ({ path, cites, answer }): NeedleSpec => ({
      kind: 'needle',
      id: 'n',
      answer,
      aliases: [],
      required_path: path,
      required_cites: cites,
      stores: ['graph', 'docs'],
      thresholds: {},
    }),
  );

describe('needle scoring properties', () => {
  it('traversePath finds a chain exactly when one exists, completed at the earliest entry', () => {
    fc.assert(
      fc.property(ledgerArb, pathArb, (ledger, path) => {
        const got = traversePath(ledger, path);
        fc.pre(got.value !== null);
        const want = bruteForce(ledger, path);
        expect(got.value).toBe(want === null ? 0 : 1);
        if (want !== null) expect(got.completedAt).toBe(want);
      }),
      { numRuns: 500 },
    );
  });

  it('a reported chain is connected, follows the relations, meets the endpoints and was returned by its entries', () => {
    fc.assert(
      fc.property(ledgerArb, pathArb, (ledger, path) => {
        const got = traversePath(ledger, path);
        const hops = got.path ?? got.prefix?.hops ?? [];
        hops.forEach((hop, i) => {
          expect(hop.relation).toBe(path.relations[i]);
          if (i > 0) expect(hop.from).toBe(hops[i - 1]!.to);
          else if (path.from !== undefined) expect(hop.from).toBe(path.from);
          expect(
            hop.direction === 'forward'
              ? [hop.fact.subject, hop.fact.object]
              : [hop.fact.object, hop.fact.subject],
          ).toEqual([hop.from, hop.to]);
          if (path.directed) expect(hop.direction).toBe('forward');
          const entry = ledger.find((e) => e.id === hop.ledgerId)!;
          expect(entry.results.some((f) => factKey(f) === factKey(hop.fact))).toBe(true);
        });
        if (got.value === 1 && path.to !== undefined) expect(hops[hops.length - 1]!.to).toBe(path.to);
      }),
      { numRuns: 300 },
    );
  });

  it('more queries never undo a completed path, and a directed path implies the undirected one', () => {
    fc.assert(
      fc.property(ledgerArb, ledgerArb, pathArb, (a, b, path) => {
        const more = [...a, ...b.map((e, i) => ({ ...e, id: `h${i}` }))];
        if (traversePath(a, path).value === 1) expect(traversePath(more, path).value).toBe(1);
        if (traversePath(a, { ...path, directed: true }).value === 1) {
          expect(traversePath(a, { ...path, directed: false }).value).toBe(1);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('scores lie in [0, 1] or are null, the combinations hold, F1 is the harmonic mean, and scoring is deterministic', () => {
    fc.assert(
      fc.property(workupArb, needleArb, (workup, needle) => {
        const s = scoreNeedle(workup, needle);
        expect(scoreNeedle(workup, needle)).toEqual(s);
        const sf = s.supportingFacts.value;
        for (const x of [
          s.recall.value,
          s.trajectory.value,
          s.precision.value,
          s.reconciliation.value,
          sf?.f1,
          sf?.precision,
          sf?.recall,
          sf?.em,
        ]) {
          if (x !== null && x !== undefined) expect(x >= 0 && x <= 1).toBe(true);
        }
        if (sf) {
          const { precision: p, recall: r } = sf;
          expect(sf.f1).toBeCloseTo(p + r > 0 ? (2 * p * r) / (p + r) : 0, 12);
        }
        if (s.recall.value !== null && s.trajectory.value !== null) {
          expect(s.grounded.value).toBe(s.recall.value === 1 && s.trajectory.value === 1);
          expect(s.guess.value).toBe(s.recall.value === 1 && s.trajectory.value === 0);
        } else {
          expect([s.grounded.value, s.guess.value]).toEqual([null, null]);
        }
        if (s.pivotBurden.value) {
          expect(s.pivotBurden.value.queries).toBeLessThanOrEqual(workup.ledger.length);
          expect(s.pivotBurden.value.hops).toBe(needle.required_path.relations.length);
        }
        for (const part of [
          s.recall,
          s.trajectory,
          s.precision,
          s.supportingFacts,
          s.reconciliation,
          s.grounded,
        ]) {
          if (part.value === null) expect(part.reason).toEqual(expect.any(String));
        }
      }),
      { numRuns: 300 },
    );
  });
});
