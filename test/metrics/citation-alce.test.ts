import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CitedClaim, citationScores } from '../../src/metrics/citations/index.js';
import type { EntailmentPair, EntailmentVerifier } from '../../src/model/entailment.js';

/**
 * A deterministic fake NLI model: the premise entails the hypothesis when it holds every word of it (score 0.9),
 * otherwise 0.1. It records each `score()` call so the tests can count rounds.
 */
function wordVerifier(): EntailmentVerifier & { calls: EntailmentPair[][] } {
  const calls: EntailmentPair[][] = [];
  return {
    calls,
    async score(pairs) {
      calls.push([...pairs]);
      return pairs.map((p) => (entailsByWords(p.premise, p.hypothesis) ? 0.9 : 0.1));
    },
  };
}

function entailsByWords(premise: string, hypothesis: string): boolean {
  const have = new Set(premise.toLowerCase().match(/[a-z0-9]+/g) ?? []);
  return (hypothesis.toLowerCase().match(/[a-z0-9]+/g) ?? []).every((w) => have.has(w));
}

/**
 * ALCE's `compute_autoais(citation=True)` loop for one output, transcribed line by line from princeton-nlp/ALCE
 * `eval.py` (one NLI call per pair, `_run_nli_autoais` returning 0 or 1), to check the batched implementation
 * against. Sources stand for `item['docs']`; an id missing from them is ALCE's out-of-range citation.
 */
function alceReference(
  claims: CitedClaim[],
  sources: Record<string, string>,
  nli: (premise: string, hypothesis: string) => 0 | 1,
): { recall: number; precision: number } {
  let entail = 0;
  let entailPrec = 0;
  let totalCitations = 0;
  for (const claim of claims) {
    const target = claim.text.trim();
    let flag = -1;
    const ref = claim.citations;
    if (ref.length === 0) flag = 0;
    else if (ref.some((id) => !Object.hasOwn(sources, id))) flag = 0;
    else totalCitations += ref.length;
    if (flag === -1) flag = nli(ref.map((id) => sources[id]).join('\n'), target);
    entail += flag;
    if (flag && ref.length > 1) {
      for (const id of ref) {
        let nliResult = nli(sources[id]!, target);
        if (!nliResult) {
          const subsetExclude = [...ref];
          subsetExclude.splice(subsetExclude.indexOf(id), 1);
          nliResult = nli(subsetExclude.map((pid) => sources[pid]).join('\n'), target);
          if (!nliResult) entailPrec += 1;
        } else entailPrec += 1;
      }
    } else if (flag) entailPrec += flag;
  }
  return { recall: entail / claims.length, precision: totalCitations > 0 ? entailPrec / totalCitations : 0 };
}

const SOURCES = {
  d1: 'Halberd is a member of Ash Cell.',
  d2: 'Ash Cell is co-located at Compound-Alpha.',
  d3: 'Kestrel Group funds community groups.',
};

describe('citationScores (ALCE citation recall and precision)', () => {
  it('a single supporting citation is relevant; a single non-supporting one is irrelevant', async () => {
    const s = await citationScores(
      [
        { text: 'Halberd is a member of Ash Cell.', citations: ['d1'] },
        { text: 'Kestrel Group owns Compound-Alpha.', citations: ['d3'] },
      ],
      SOURCES,
      wordVerifier(),
    );
    expect([s.recall, s.precision, s.citations]).toEqual([0.5, 0.5, 2]);
    expect(s.claims.map((c) => [c.supported, c.score, c.citations.map((x) => x.verdict)])).toEqual([
      [true, 0.9, ['relevant']],
      [false, 0.1, ['irrelevant']],
    ]);
  });

  it('a claim only the joined sources entail: each citation is needed (condition B), so both are relevant', async () => {
    const s = await citationScores(
      [{ text: 'Halberd member Ash Cell co-located Compound-Alpha', citations: ['d1', 'd2'] }],
      SOURCES,
      wordVerifier(),
    );
    expect([s.recall, s.precision]).toEqual([1, 1]);
    expect(s.claims[0]!.citations).toEqual([
      { id: 'd1', verdict: 'relevant', alone: 0.1, without: 0.1 },
      { id: 'd2', verdict: 'relevant', alone: 0.1, without: 0.1 },
    ]);
  });

  it('an over-citation: alone it entails nothing and the others still entail the claim, so it is irrelevant', async () => {
    const s = await citationScores(
      [{ text: 'Halberd is a member of Ash Cell.', citations: ['d1', 'd3'] }],
      SOURCES,
      wordVerifier(),
    );
    expect([s.recall, s.precision]).toEqual([1, 0.5]);
    expect(s.claims[0]!.citations).toEqual([
      { id: 'd1', verdict: 'relevant', alone: 0.9 },
      { id: 'd3', verdict: 'irrelevant', alone: 0.1, without: 0.9 },
    ]);
  });

  it('no citation, or a citation with no source: unsupported, and the latter is left out of precision', async () => {
    const s = await citationScores(
      [
        { text: 'Halberd is a member of Ash Cell.', citations: [] },
        { text: 'Halberd is a member of Ash Cell.', citations: ['d1', 'g99'] },
        { text: 'Halberd is a member of Ash Cell.', citations: ['d1'] },
      ],
      SOURCES,
      wordVerifier(),
    );
    expect(s.recall).toBeCloseTo(1 / 3, 12);
    // ALCE adds nothing to total_citations for the claim citing g99: 1 relevant of 1 counted.
    expect([s.precision, s.citations]).toEqual([1, 1]);
    expect(s.claims[0]).toMatchObject({
      supported: false,
      score: null,
      reason: 'no citation',
      citations: [],
    });
    expect(s.claims[1]).toMatchObject({
      supported: false,
      score: null,
      reason: 'cites g99, which no source has',
      citations: [
        { id: 'd1', verdict: 'uncounted' },
        { id: 'g99', verdict: 'uncounted' },
      ],
    });
  });

  it('precision is 0 when no citation was counted, and both are null with no claims', async () => {
    expect(await citationScores([{ text: 'x', citations: [] }], SOURCES, wordVerifier())).toMatchObject({
      recall: 0,
      precision: 0,
    });
    expect(await citationScores([], SOURCES, wordVerifier())).toEqual({
      recall: null,
      precision: null,
      citations: 0,
      claims: [],
    });
  });

  it('entails means score >= threshold, and the threshold is an option', async () => {
    const fixed = (score: number): EntailmentVerifier => ({ score: async (pairs) => pairs.map(() => score) });
    const claim = [{ text: 'x', citations: ['d1'] }];
    expect((await citationScores(claim, SOURCES, fixed(0.5))).recall).toBe(1);
    expect((await citationScores(claim, SOURCES, fixed(0.49))).recall).toBe(0);
    expect((await citationScores(claim, SOURCES, fixed(0.7), { threshold: 0.8 })).recall).toBe(0);
    await expect(citationScores(claim, SOURCES, fixed(0.7), { threshold: 2 })).rejects.toThrow(
      'threshold must be in [0, 1], got 2',
    );
  });

  it('atMostCitations looks only at the first N citations, as ALCE’s --at_most_citations', async () => {
    const s = await citationScores(
      [{ text: 'Halberd is a member of Ash Cell.', citations: ['d3', 'd1'] }],
      SOURCES,
      wordVerifier(),
      { atMostCitations: 1 },
    );
    expect([s.recall, s.precision, s.citations]).toEqual([0, 0, 1]);
    expect(s.claims[0]!.citations.map((c) => c.verdict)).toEqual(['irrelevant', 'truncated']);
  });

  it('batches: one verifier call per round (joined, alone, without), never one per pair', async () => {
    const verifier = wordVerifier();
    await citationScores(
      [
        { text: 'Halberd is a member of Ash Cell.', citations: ['d1', 'd3'] },
        { text: 'Halberd member Ash Cell co-located Compound-Alpha', citations: ['d1', 'd2'] },
        { text: 'Ash Cell is co-located at Compound-Alpha.', citations: ['d2'] },
      ],
      SOURCES,
      verifier,
    );
    expect(verifier.calls.map((c) => c.length)).toEqual([3, 4, 3]);
    expect(verifier.calls[0]![0]).toEqual({
      premise: `${SOURCES.d1}\n${SOURCES.d3}`,
      hypothesis: 'Halberd is a member of Ash Cell.',
    });
  });

  it('leaves one out as ALCE’s list.remove does: the first copy of a repeated id goes, the rest keep their order', async () => {
    // Like a model that truncates its input, this verifier reads only the premise's first two lines, so the order
    // of the others-without-it premise decides the verdict.
    const calls: EntailmentPair[][] = [];
    const firstTwoLines: EntailmentVerifier = {
      async score(pairs) {
        calls.push([...pairs]);
        return pairs.map((p) =>
          entailsByWords(p.premise.split('\n').slice(0, 2).join('\n'), p.hypothesis) ? 0.9 : 0.1,
        );
      },
    };
    const sources = { g1: 'alpha', g2: 'beta', g3: 'gamma' };
    const claims = [{ text: 'alpha beta', citations: ['g1', 'g2', 'g3', 'g1'] }];
    const r = await citationScores(claims, sources, firstTwoLines);
    // The second g1 fails alone; ALCE asks `[g2, g3, g1]` without it (not `[g1, g2, g3]`), which does not entail.
    expect(calls[2]!.map((p) => p.premise)).toEqual([
      'beta\ngamma\nalpha',
      'alpha\ngamma\nalpha',
      'alpha\nbeta\nalpha',
      'beta\ngamma\nalpha',
    ]);
    expect(r.claims[0]!.citations.map((c) => c.verdict)).toEqual([
      'relevant',
      'relevant',
      'irrelevant',
      'relevant',
    ]);
    expect(r.precision).toBe(0.75);
    const nli = (premise: string, hypothesis: string): 0 | 1 =>
      entailsByWords(premise.split('\n').slice(0, 2).join('\n'), hypothesis) ? 1 : 0;
    expect(alceReference(claims, sources, nli)).toEqual({ recall: 1, precision: 0.75 });
  });

  it('rejects a verifier that returns the wrong number of scores', async () => {
    const broken: EntailmentVerifier = { score: async () => [1] };
    await expect(
      citationScores(
        [
          { text: 'a', citations: ['d1'] },
          { text: 'b', citations: ['d2'] },
        ],
        SOURCES,
        broken,
      ),
    ).rejects.toThrow('EntailmentVerifier.score returned 1 scores for 2 pairs');
  });

  const words = fc.constantFrom('halberd', 'ash', 'cell', 'wren', 'alpha', 'depot');
  const text = fc.array(words, { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
  const ids = ['d1', 'd2', 'd3', 'd4', 'missing'];
  const input = fc.record({
    sources: fc.record({ d1: text, d2: text, d3: text, d4: text }),
    claims: fc.array(fc.record({ text, citations: fc.array(fc.constantFrom(...ids), { maxLength: 4 }) }), {
      minLength: 1,
      maxLength: 6,
    }),
  });

  it('equals the transcribed ALCE loop on random claims, duplicates and dangling ids included', async () => {
    await fc.assert(
      fc.asyncProperty(input, async ({ sources, claims }) => {
        const got = await citationScores(claims, sources, wordVerifier());
        const want = alceReference(claims, sources, (p, h) => (entailsByWords(p, h) ? 1 : 0));
        expect(got.recall).toBeCloseTo(want.recall, 12);
        expect(got.precision).toBeCloseTo(want.precision, 12);
      }),
      { numRuns: 300 },
    );
  });

  it('scores stay in [0, 1], are deterministic, and never take more than three verifier rounds', async () => {
    await fc.assert(
      fc.asyncProperty(input, async ({ sources, claims }) => {
        const verifier = wordVerifier();
        const a = await citationScores(claims, sources, verifier);
        const b = await citationScores(claims, sources, wordVerifier());
        expect(a).toEqual(b);
        expect(verifier.calls.length).toBeLessThanOrEqual(3);
        for (const x of [a.recall!, a.precision!]) expect(x >= 0 && x <= 1).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
