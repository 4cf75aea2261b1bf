import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeAnswer } from '../../src/metrics/hotpot.js';
import { normalizeAnswer as normalizeV1 } from '../reference/normalize-answer-v1.js';

// Pieces that exercise both paths: ASCII words, articles in every case, every ASCII punctuation and whitespace
// character, ASCII control characters that are neither (the general path), and characters past ASCII, including
// some that lower-case to ASCII (the Kelvin sign) or change length (İ), and Python-only whitespace.
const piece = fc.oneof(
  fc.constantFrom(
    'a',
    'A',
    'an',
    'An',
    'the',
    'THE',
    'The',
    'Wren',
    'Compound',
    'alpha',
    'x1',
    '42',
    'theend',
  ),
  fc.constantFrom(...'!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'),
  fc.constantFrom(' ', '  ', '\t', '\n', '\v', '\f', '\r', '\x1c', '\x1d', '\x1e', '\x1f'),
  fc.constantFrom('\x00', '\x08', '\x0e', '\x1b', '\x7f'),
  fc.constantFrom(
    '\u212a',
    '\u0130',
    '\u00e9',
    '\u00c0N',
    '\u00a0',
    '\u0085',
    '\u2003',
    '\ufeff',
    '\u0661',
    '\u{1f600}',
  ),
);
const text = fc.array(piece, { maxLength: 24 }).map((pieces) => pieces.join(''));

describe('normalizeAnswer against its previous implementation (test/reference/normalize-answer-v1.ts)', () => {
  it('gives the same text on 20,000 generated strings, ASCII-only and not', () => {
    fc.assert(
      fc.property(text, (s) => {
        expect(normalizeAnswer(s)).toBe(normalizeV1(s));
      }),
      { numRuns: 20_000, seed: 1 },
    );
  });

  it('gives the same text on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => {
        expect(normalizeAnswer(s)).toBe(normalizeV1(s));
      }),
      { numRuns: 5_000, seed: 2 },
    );
  });
});
