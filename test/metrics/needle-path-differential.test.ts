import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { traversePath } from '../../src/metrics/needle/index.js';
import type { Fact } from '../../src/model/fact.js';
import type { LedgerEntry } from '../../src/model/ledger.js';
import type { RequiredPath } from '../../src/model/spec.js';
import { traversePath as traversePathV1 } from '../reference/path-v1.js';

// Few entities and relations, so that chains form, fork, loop back and repeat facts; paths with and without either
// endpoint (an endpoint sometimes in no fact), directed or not, of one to four hops with repeated relations.
const ENTITIES = ['Halberd', 'Ash Cell', 'Compound-Alpha', 'Wren', 'Depot-Seven', 'Kestrel'];
const RELATIONS = ['MEMBER_OF', 'CO_LOCATED', 'MET'];

const factArb: fc.Arbitrary<Fact> = fc.record({
  subject: fc.constantFrom(...ENTITIES.slice(0, 5)),
  relation: fc.constantFrom(...RELATIONS),
  object: fc.constantFrom(...ENTITIES.slice(0, 5)),
});
const ledgerArb: fc.Arbitrary<LedgerEntry[]> = fc
  .array(fc.array(factArb, { maxLength: 4 }), { maxLength: 10 })
  .map((entries) =>
    entries.map((results, i) => ({ id: `g${i + 1}`, store: 'graph', query: `q${i}`, results })),
  );
const pathArb: fc.Arbitrary<RequiredPath> = fc.record(
  {
    relations: fc.array(fc.constantFrom(...RELATIONS), { maxLength: 4 }),
    from: fc.constantFrom(...ENTITIES),
    to: fc.constantFrom(...ENTITIES),
    directed: fc.boolean(),
  },
  { requiredKeys: ['relations', 'directed'] },
);

describe('traversePath against its previous implementation (test/reference/path-v1.ts)', () => {
  it('gives the same score, chain, prefix and reason on 10,000 generated ledgers and paths', () => {
    fc.assert(
      fc.property(ledgerArb, pathArb, (ledger, path) => {
        expect(traversePath(ledger, path)).toEqual(traversePathV1(ledger, path));
      }),
      { numRuns: 10_000, seed: 5 },
    );
  });
});
