import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reduceHedges } from '../../src/entailment/citations/hedges.js';
import {
  citationPrecision,
  describeUnsupported,
  renderPremise,
} from '../../src/entailment/citations/precision.js';
import { OnnxNliVerifier } from '../../src/entailment/onnx/verifier.js';
import type { EntailmentPair, EntailmentVerifier } from '../../src/model/entailment.js';
import type { Workup } from '../../src/model/workup.js';
import { parseNote } from '../../src/note/parse.js';
import { loadWorkup } from '../../src/workup/load.js';
import { useTmpDir } from '../helpers/tmp.js';
import { writeTinyModel } from './helpers/tiny-model.mjs';

const tmp = useTmpDir();

describe('reduceHedges', () => {
  it('reduces an assessment with a confidence level and a likelihood term to its proposition', () => {
    expect(
      reduceHedges('We assess with moderate confidence that they likely share access to the site.'),
    ).toEqual({
      proposition: 'They share access to the site.',
      removed: ['We assess with moderate confidence that', 'likely'],
      kept: [],
    });
  });

  it.each([
    ['It is very likely that Wren owns the depot, with high confidence.', 'Wren owns the depot.'],
    ['Wren is likely to be the bridge.', 'Wren is the bridge.'],
    ['Kestrel Group probably funds Ash Cell.', 'Kestrel Group funds Ash Cell.'],
    ['Halberd is almost certainly a member of Ash Cell.', 'Halberd is a member of Ash Cell.'],
    ['Ash Cell funds the site. We judge that Wren visited it.', 'Ash Cell funds the site. Wren visited it.'],
    [
      'Ash Cell funds the site, and we assess that Wren visited it.',
      'Ash Cell funds the site, and Wren visited it.',
    ],
    ['Wren, very likely, met Orrin Vale.', 'Wren met Orrin Vale.'],
  ])('%s -> %s', (claim, proposition) => {
    expect(reduceHedges(claim).proposition).toBe(proposition);
  });

  it('leaves a claim without estimative language untouched', () => {
    expect(reduceHedges('Halberd is a member of Ash Cell.')).toEqual({
      proposition: 'Halberd is a member of Ash Cell.',
      removed: [],
      kept: [],
    });
  });

  it('keeps low-band terms, whose removal would assert what the claim doubts', () => {
    expect(reduceHedges('Depot-Seven is unlikely to be the bridge.')).toEqual({
      proposition: 'Depot-Seven is unlikely to be the bridge.',
      removed: [],
      kept: ['unlikely'],
    });
  });
});

describe('renderPremise', () => {
  it('reads a ledger entry as its passage and its facts as sentences', () => {
    expect(
      renderPremise({
        id: 'g6',
        store: 'docs',
        query: 'q',
        results: [{ subject: 'Ash Cell', relation: 'FUNDED_BY', object: 'Kestrel Group' }],
        text: 'Kestrel Group reports grants.',
      }),
    ).toBe('Kestrel Group reports grants.\nAsh Cell funded by Kestrel Group.');
  });
});

/** Entails when every content word of the hypothesis is in the premise; records what it was asked. */
function overlapVerifier(): EntailmentVerifier & { asked: EntailmentPair[] } {
  const words = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .split(' ')
      .filter((w) => w !== '' && !['is', 'a', 'the', 'of', 'at', 'to', 'and', 'are', 'they'].includes(w));
  const asked: EntailmentPair[] = [];
  return {
    asked,
    score: async (pairs) => {
      asked.push(...pairs);
      return pairs.map(({ premise, hypothesis }) => {
        const have = new Set(words(premise));
        const want = words(hypothesis);
        return want.length === 0 ? 0 : want.filter((w) => have.has(w)).length / want.length;
      });
    },
  };
}

describe('citationPrecision', () => {
  it('shows each unsupported claim of the unsupported fixture with its citations and score', async () => {
    const workup = await loadWorkup(join(import.meta.dirname, '../../fixtures/workups/unsupported'));
    const result = await citationPrecision(workup, overlapVerifier());
    const kestrel = result.unsupported.find((c) => c.written.startsWith('Kestrel Group owns'));
    expect(kestrel).toMatchObject({ claim: { citations: ['g6'] }, supported: false });
    expect(kestrel!.score).toBeCloseTo(2 / 6, 6);
    expect(describeUnsupported(result)).toContain(
      '12:3 "Kestrel Group owns the Compound-Alpha facility." cites g6: entailment 0.33 (threshold 0.5)',
    );
    const member = result.claims.find((c) => c.written === 'Halberd is a member of Ash Cell.');
    expect(member).toMatchObject({ supported: true, score: 1 });
    expect(result.recall).toBeGreaterThan(0);
    expect(result.recall).toBeLessThan(1);
  });

  it('asks the model about the proposition of a hedged claim, and about the claim as written when told to', async () => {
    const workup: Workup = {
      id: 'hedged',
      meta: {},
      note: parseNote(
        '# Findings\n\n- We assess with high confidence that Wren likely owns the depot. [cite:g1]\n',
      ),
      ledger: [
        {
          id: 'g1',
          store: 'graph',
          query: 'q',
          results: [{ subject: 'Wren', relation: 'OWNS', object: 'the depot' }],
        },
      ],
    };
    const reduced = overlapVerifier();
    const result = await citationPrecision(workup, reduced);
    expect(reduced.asked).toEqual([{ premise: 'Wren owns the depot.', hypothesis: 'Wren owns the depot.' }]);
    expect(result.claims[0]).toMatchObject({
      written: 'We assess with high confidence that Wren likely owns the depot.',
      estimative: ['We assess with high confidence that', 'likely'],
      supported: true,
    });

    const asWritten = overlapVerifier();
    const plain = await citationPrecision(workup, asWritten, { reduceHedges: false });
    expect(asWritten.asked[0]!.hypothesis).toBe(
      'We assess with high confidence that Wren likely owns the depot.',
    );
    expect(plain.claims[0]!.supported).toBe(false);
  });

  it('has no claims, and null scores, for a workup without a note', async () => {
    const result = await citationPrecision({ id: 'x', meta: {}, ledger: [] }, overlapVerifier());
    expect(result).toMatchObject({ recall: null, precision: null, claims: [], unsupported: [] });
  });

  it('runs end to end with the ONNX verifier', async () => {
    const dir = await writeTinyModel(join(await tmp(), 'model'));
    const workup: Workup = {
      id: 'tiny',
      meta: {},
      note: parseNote(
        '# Findings\n\n- The cat sat on the mat. [cite:g1]\n- The dog ran in the park. [cite:g2]\n',
      ),
      ledger: [
        { id: 'g1', store: 'docs', query: 'q', results: [], text: 'yes yes' },
        { id: 'g2', store: 'docs', query: 'q', results: [], text: 'no no' },
      ],
    };
    const result = await citationPrecision(workup, new OnnxNliVerifier(dir, { cache: false }));
    expect(result.claims.map((c) => c.supported)).toEqual([true, false]);
    expect(result.precision).toBe(0.5);
    expect(describeUnsupported(result)).toEqual([
      expect.stringMatching(
        /^4:3 "The dog ran in the park\." cites g2: entailment 0\.\d\d \(threshold 0\.5\)$/,
      ),
    ]);
  });
});
