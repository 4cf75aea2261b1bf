import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerScores, normalizeAnswer, supportingFactScores } from '../../src/metrics/hotpot.js';

// [prediction, gold, normalize(prediction), normalize(gold), em, f1, precision, recall], each row as the official
// hotpot_evaluate_v1.py computes it (produced by test/reference/hotpot.py under CPython 3.11; pinned here so the
// numbers are checked where python3 is absent). One row per normalization rule or special case.
const ANSWER_TABLE: [string, string, string, string, number, number, number, number][] = [
  ['The Quick, Brown Fox!', 'quick brown fox', 'quick brown fox', 'quick brown fox', 1, 1.0, 1.0, 1.0],
  // punctuation is removed before articles, without a space: "the-end" is one word
  ['the-end', 'end', 'theend', 'end', 0, 0, 0, 0],
  // both normalize to nothing: em 1 but f1 0 (no shared token)
  ['a.', 'the', '', '', 1, 0, 0, 0],
  ['An  apple\ta day', 'apple day', 'apple day', 'apple day', 1, 1.0, 1.0, 1.0],
  // "àn" is not an article; \b is Unicode-aware
  ['\u00c0N Apple', 'an apple', '\u00e0n apple', 'apple', 0, 0.6666666666666666, 0.5, 1.0],
  ['a\u00e9 the', 'a\u00e9', 'a\u00e9', 'a\u00e9', 1, 1.0, 1.0, 1.0],
  // NBSP and EM SPACE are whitespace for str.split()
  ['x\u00a0the\u2003y', 'x y', 'x y', 'x y', 1, 1.0, 1.0, 1.0],
  // U+FEFF is neither whitespace (unlike JavaScript's \s) nor a word character
  ['\ufeffthe', '\ufeff', '\ufeff', '\ufeff', 1, 1.0, 1.0, 1.0],
  ['the_cat', 'thecat', 'thecat', 'thecat', 1, 1.0, 1.0, 1.0],
  ['U.S.A.', 'usa', 'usa', 'usa', 1, 1.0, 1.0, 1.0],
  ['Yes.', 'yes', 'yes', 'yes', 1, 1.0, 1.0, 1.0],
  ['yes', 'no', 'yes', 'no', 0, 0, 0, 0],
  ['noanswer', 'no answer', 'noanswer', 'no answer', 0, 0, 0, 0],
  // the gold is "yes" and they differ: no partial credit although "yes" is shared
  ['yes it is', 'yes', 'yes it is', 'yes', 0, 0, 0, 0],
  ['', '', '', '', 1, 0, 0, 0],
  ['the', 'a', '', '', 1, 0, 0, 0],
  // tokens are a multiset: min counts
  [
    'cat cat dog',
    'cat dog dog',
    'cat cat dog',
    'cat dog dog',
    0,
    0.6666666666666666,
    0.6666666666666666,
    0.6666666666666666,
  ],
  // final sigma lower-cases to ς
  [
    '\u039f\u0394\u039f\u03a3 \u03a3\u03af\u03c3\u03c5\u03c6\u03bf\u03c2',
    '\u03bf\u03b4\u03bf\u03c2',
    '\u03bf\u03b4\u03bf\u03c2 \u03c3\u03af\u03c3\u03c5\u03c6\u03bf\u03c2',
    '\u03bf\u03b4\u03bf\u03c2',
    0,
    0.6666666666666666,
    0.5,
    1.0,
  ],
  ['Barack Obama', 'Obama', 'barack obama', 'obama', 0, 0.6666666666666666, 0.5, 1.0],
  // a combining mark is not a word character, so "a" before it is a whole word; "the١" and "²a" are single words
  ['a\u0301n the\u0661 \u00b2a', 'n', '\u0301n the\u0661 \u00b2a', 'n', 0, 0, 0, 0],
  // U+001C and U+0085 split words in Python; U+200B does not
  ['x\u001cthe\u0085y\u200bz', 'x y z', 'x y\u200bz', 'x y z', 0, 0.4, 0.5, 0.3333333333333333],
];

// [predicted, gold, em, f1, precision, recall] as update_sp computes them.
const SP_TABLE: [unknown[], unknown[], number, number, number, number][] = [
  [[], [], 1.0, 0.0, 0.0, 0.0],
  [[], [['A', 0]], 0.0, 0.0, 0.0, 0.0],
  [[['A', 0]], [], 0.0, 0.0, 0.0, 0.0],
  // duplicates count once
  [
    [
      ['A', 0],
      ['A', 0],
      ['B', 1],
    ],
    [
      ['A', 0],
      ['C', 2],
    ],
    0.0,
    0.5,
    0.5,
    0.5,
  ],
  [
    [
      ['A', 0],
      ['B', 1],
    ],
    [
      ['B', 1],
      ['A', 0],
    ],
    1.0,
    1.0,
    1.0,
    1.0,
  ],
];

describe('normalizeAnswer and answerScores', () => {
  it.each(ANSWER_TABLE)(
    '%j against %j scores as hotpot_evaluate_v1.py does',
    (p, g, np, ng, em, f1, prec, rec) => {
      expect(normalizeAnswer(p)).toBe(np);
      expect(normalizeAnswer(g)).toBe(ng);
      expect(answerScores(p, g)).toEqual({ em, f1, precision: prec, recall: rec });
    },
  );

  it('removes exactly the 32 characters of string.punctuation', () => {
    const punctuation = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
    expect(normalizeAnswer(`x${punctuation}y`)).toBe('xy');
    expect(normalizeAnswer('x\u2019y\u00bfz\u2014w')).toBe('x\u2019y\u00bfz\u2014w');
  });

  it('replaces every article occurrence, adjacent ones included', () => {
    expect(normalizeAnswer('a an the a')).toBe('');
    expect(normalizeAnswer('theatre and ant')).toBe('theatre and ant');
  });
});

describe('supportingFactScores', () => {
  it.each(SP_TABLE)('%j against %j scores as update_sp does', (pred, gold, em, f1, prec, rec) => {
    expect(supportingFactScores(pred, gold)).toEqual({ em, f1, precision: prec, recall: rec });
  });

  it('compares object items by value whatever their key order', () => {
    const fact = { subject: 'Halberd', relation: 'MEMBER_OF', object: 'Ash Cell' };
    const reordered = { object: 'Ash Cell', relation: 'MEMBER_OF', subject: 'Halberd' };
    expect(supportingFactScores([reordered], [fact]).em).toBe(1);
    expect(supportingFactScores([{ ...fact, object: 'Oak Cell' }], [fact])).toEqual({
      em: 0,
      f1: 0,
      precision: 0,
      recall: 0,
    });
  });
});

describe('properties', () => {
  const words = fc.array(fc.constantFrom('a', 'an', 'the', 'cat', 'dog', 'yes', 'no', 'Cat.', 'x-y', ' '), {
    maxLength: 8,
  });
  const text = words.map((w) => w.join(' '));

  it('keeps every score in [0, 1], F1 the harmonic mean of precision and recall', () => {
    fc.assert(
      fc.property(text, text, (p, g) => {
        const s = answerScores(p, g);
        for (const v of Object.values(s)) expect(v >= 0 && v <= 1).toBe(true);
        if (s.precision + s.recall > 0) {
          expect(s.f1).toBe((2 * s.precision * s.recall) / (s.precision + s.recall));
        } else {
          expect(s.f1).toBe(0);
        }
      }),
    );
  });

  it('is idempotent and yields no article, punctuation or double space', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), (s) => {
        const n = normalizeAnswer(s);
        expect(normalizeAnswer(n)).toBe(n);
        expect(n).not.toMatch(/(^| )(a|an|the)( |$)|[!-/:-@[-`{-~]| {2}|^ | $/);
      }),
    );
  });

  it('scores supporting facts in [0, 1], em 1 exactly when the sets are equal', () => {
    const item = fc.tuple(fc.constantFrom('A', 'B', 'C'), fc.integer({ min: 0, max: 2 }));
    fc.assert(
      fc.property(fc.array(item, { maxLength: 6 }), fc.array(item, { maxLength: 6 }), (p, g) => {
        const s = supportingFactScores(p, g);
        for (const v of Object.values(s)) expect(v >= 0 && v <= 1).toBe(true);
        const set = (xs: [string, number][]) => [...new Set(xs.map((x) => x.join()))].sort().join('|');
        expect(s.em).toBe(set(p) === set(g) ? 1 : 0);
      }),
    );
  });
});
