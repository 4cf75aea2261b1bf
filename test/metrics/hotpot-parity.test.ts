import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerScores, normalizeAnswer, supportingFactScores } from '../../src/metrics/hotpot.js';
import { pythonUnavailable, runReference } from '../reference/python.js';

interface PyOutput {
  answers: { normalized: [string, string]; em: number; f1: number; prec: number; recall: number }[];
  sp: { em: number; f1: number; prec: number; recall: number }[];
}

// Pieces chosen to hit every rule: articles in every case, punctuation, Python-only whitespace (U+001C, U+0085),
// JavaScript-only whitespace (U+FEFF), non-ASCII letters, digits and combining marks next to articles, yes/no.
const PIECES = [
  'a',
  'an',
  'the',
  'A',
  'An',
  'THE',
  'The',
  'yes',
  'no',
  'noanswer',
  'Yes',
  'NO',
  'cat',
  'Cat',
  'dog',
  'x',
  ' ',
  '  ',
  '\t',
  '\n',
  '\u00a0',
  '\u2003',
  '\u3000',
  '\u001c',
  '\u0085',
  '\ufeff',
  '\u200b',
  '.',
  ',',
  '-',
  '_',
  "'",
  '"',
  '!',
  '(',
  ')',
  '\u2019',
  '\u00bf',
  '\u00e9',
  '\u00c0',
  '\u0301',
  '\u0661',
  '\u00b2',
  '\u03a3',
  '\u039f',
  '\u00df',
  '\u0130',
  '1',
  '42',
];

const answer = fc.array(fc.constantFrom(...PIECES), { maxLength: 10 }).map((xs) => xs.join(''));
const spItem = fc.tuple(fc.constantFrom('A', 'B', 'C', 'Wren'), fc.integer({ min: 0, max: 3 }));

describe('parity with hotpot_evaluate_v1.py (live python3)', () => {
  it('gives the official normalization and scores on 3,000 generated answer pairs and 1,000 fact sets', (ctx) => {
    if (pythonUnavailable) return ctx.skip(pythonUnavailable);
    const answers = fc.sample(fc.tuple(answer, answer), { numRuns: 3000, seed: 20261122 });
    const sp = fc.sample(fc.tuple(fc.array(spItem, { maxLength: 6 }), fc.array(spItem, { maxLength: 6 })), {
      numRuns: 1000,
      seed: 7,
    });
    const py = runReference<PyOutput>('hotpot.py', { answers, sp });
    answers.forEach(([p, g], i) => {
      const ref = py.answers[i];
      expect([normalizeAnswer(p), normalizeAnswer(g)], JSON.stringify([p, g])).toEqual(ref?.normalized);
      expect(answerScores(p, g), JSON.stringify([p, g])).toEqual({
        em: ref?.em,
        f1: ref?.f1,
        precision: ref?.prec,
        recall: ref?.recall,
      });
    });
    sp.forEach(([p, g], i) => {
      const ref = py.sp[i];
      expect(supportingFactScores(p, g)).toEqual({
        em: ref?.em,
        f1: ref?.f1,
        precision: ref?.prec,
        recall: ref?.recall,
      });
    });
  });
});
