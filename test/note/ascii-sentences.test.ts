import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asciiSentenceEnds, setWideClasses } from '../../src/note/ascii-sentences.js';
import { sentencesOf } from '../../src/note/sentences.js';

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
/** The end offset of each of `Intl.Segmenter`'s sentences: what `asciiSentenceEnds` must give. */
const icuEnds = (text: string): number[] =>
  Array.from(segmenter.segment(text), ({ index, segment }) => index + segment.length);

// Pieces that exercise every rule: abbreviations (SB7, SB8), decimals (SB6), terminators after terminators (SB8a),
// quotes and brackets after them (SB9), spaces and every line ending (SB3, SB4, SB10), and every ASCII class.
const PIECES = [
  'a',
  'Z',
  'x',
  '7',
  '.',
  '!',
  '?',
  '?!',
  '...',
  ' ',
  '  ',
  '\t',
  '\v',
  '\f',
  '\n',
  '\r',
  '\r\n',
  '"',
  "'",
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ',',
  ';',
  ':',
  '-',
  '#',
  '&',
  '_',
  '\0',
  '\x7f',
  'U.S. Army',
  'etc. and',
  '3.14',
  'e.g. ',
  'Mr. Smith',
  'i.e.',
  '[cite:g1]',
  ' The',
  ' the',
  'A.',
  '\u2013',
  '\u2014',
  '\u2018',
  '\u2019',
  '\u201c',
  '\u201d',
  '\u00a0',
  '\u2026',
  '\u2022',
  '\u00b7',
  '\u2212',
  '\u00d7',
  '\u00f7',
  '\u00e9',
  '\u00c9',
  '\u00df',
  ' \u00c9t\u00e9',
];
const tricky = fc
  .array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 16 })
  .map((parts) => parts.join(''));

/** The texts of four characters over `alphabet` whose sentences `asciiSentenceEnds` and the segmenter read apart. */
function mismatchesOfFour(alphabet: readonly string[]): string[] {
  const mismatches: string[] = [];
  for (const a of alphabet)
    for (const b of alphabet)
      for (const c of alphabet)
        for (const d of alphabet) {
          const text = a + b + c + d;
          if (asciiSentenceEnds(text)?.join() !== icuEnds(text).join()) mismatches.push(JSON.stringify(text));
        }
  return mismatches;
}

describe('asciiSentenceEnds gives the sentences of Intl.Segmenter', () => {
  it('on a few sentences', () => {
    // UAX #29 breaks after "U.S." before a capital, and not after "etc." before a lower-case word.
    const text =
      'The U.S. Army left at 3.14 p.m. today. "Why?!" he asked... (Nobody knew.) Next, etc. and so on';
    expect(asciiSentenceEnds(text)).toEqual(icuEnds(text));
    expect(asciiSentenceEnds(text)).toEqual([9, 39, 47, 59, 74, 94]);
  });

  it('on no text, and not on text past ASCII and the typographic marks and Latin-1 letters it reads', () => {
    expect(asciiSentenceEnds('')).toEqual([]);
    expect(asciiSentenceEnds('Łódź. Next.')).toBeUndefined();
    expect(asciiSentenceEnds('Cafe\u0301. Next.')).toBeUndefined();
    expect(asciiSentenceEnds('One. Two\u2029three.')).toBeUndefined();
    expect(asciiSentenceEnds('Café. Next.')).toEqual([6, 11]);
  });

  it('leaves every character past ASCII to the segmenter on a runtime whose segmenter reads one of them otherwise', () => {
    const text = 'Caf\u00e9\u2014ok. \u201cNext.\u201d';
    expect(asciiSentenceEnds(text)).toEqual(icuEnds(text));
    setWideClasses(false);
    try {
      expect(asciiSentenceEnds(text)).toBeUndefined();
      expect(asciiSentenceEnds('Cafe--ok. "Next."')).toEqual([10, 17]);
    } finally {
      setWideClasses(true);
    }
  });

  it('reads dashes, curly quotes, the no-break space, the ellipsis, bullets and Latin-1 letters as the segmenter does', () => {
    const text =
      'He said \u201cno.\u201d Then\u2014Wren left. \u00c9t\u00e9 ends\u2026 \u2022 It\u2019s 3.\u00a0Next.';
    expect(asciiSentenceEnds(text)).toEqual(icuEnds(text));
    const alphabet = [
      'a',
      'A',
      '.',
      '!',
      ' ',
      '\n',
      '"',
      ',',
      '#',
      '\u2014',
      '\u2019',
      '\u00a0',
      '\u2026',
      '\u00e9',
      '\u00c9',
      '\u00d7',
    ];
    expect(mismatchesOfFour(alphabet)).toEqual([]);
  });

  it('on every ASCII text of two characters', () => {
    const mismatches: string[] = [];
    for (let a = 0; a < 128; a++) {
      for (let b = 0; b < 128; b++) {
        const text = String.fromCharCode(a, b);
        if (asciiSentenceEnds(text)?.join() !== icuEnds(text).join()) mismatches.push(JSON.stringify(text));
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('on every text of four characters over one character of each class', () => {
    const alphabet = ['a', 'A', '1', '.', '!', ' ', '\n', '\r', '"', ',', ';', '#'];
    expect(mismatchesOfFour(alphabet)).toEqual([]);
  });

  it('on 50,000 generated texts of abbreviations, decimals, quotes, brackets, terminators and line ends', () => {
    fc.assert(
      fc.property(tricky, (text) => {
        expect(asciiSentenceEnds(text)).toEqual(icuEnds(text));
      }),
      { numRuns: 50_000, seed: 29 },
    );
  }, 120_000);
});

describe('sentencesOf', () => {
  const alone = (text: string) =>
    Array.from(segmenter.segment(text), ({ index, segment }) => ({ index, segment }));

  it('gives each text its own sentences, ASCII or not, as Intl.Segmenter does alone', () => {
    const texts = ['One. Two.', 'Café au lait. Oui.', 'No end', 'Line one\nline two. Three', 'Ωmega. Alpha.'];
    expect(sentencesOf(texts)).toEqual(texts.map(alone));
  });

  // Not ASCII (`ę` is past the characters `asciiSentenceEnds` reads), so read by the segmenter, whose time grows with a text's length times its sentences: a long text is
  // segmented in pieces, cut where a break is certain, and many texts in batches. Pieces near every cut: sentence ends
  // before capitals, with closing marks (ASCII and not) and spaces (ASCII and not), abbreviations, a lower-case word
  // or a number after an end (no break, SB8), combining marks, and every paragraph separator.
  const NON_ASCII = [
    'Café au lait',
    ' Ωmega',
    'a',
    'Wren',
    ' ',
    '  ',
    '\t',
    '\u00a0',
    '.',
    '!',
    '?',
    '。',
    '"',
    "'",
    ')',
    ']',
    '”',
    '»',
    ' B',
    ' É',
    ' b',
    ' 12',
    'U.S. Army',
    'etc. and',
    '\u0301',
    '\n',
    '\r\n',
    '\r',
    '\u2029',
    '\u0085',
  ];
  const long = fc
    .array(fc.constantFrom(...NON_ASCII), { minLength: 3_000, maxLength: 6_000 })
    .map((pieces) => `ę ${pieces.join('')}`);

  it('segments a long text in pieces with the breaks Intl.Segmenter gives the whole', () => {
    fc.assert(
      fc.property(long, (text) => {
        expect(sentencesOf([text])).toEqual([alone(text)]);
      }),
      { numRuns: 60, seed: 34 },
    );
  }, 120_000);

  it('segments many texts in batches, each with its own sentences', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...NON_ASCII), { minLength: 1, maxLength: 40 }), (pieces) => {
        const texts = Array.from({ length: 300 }, (_, i) => `${i}ę ${pieces.slice(i % 7).join('')}`);
        expect(sentencesOf(texts)).toEqual(texts.map(alone));
      }),
      { numRuns: 30, seed: 35 },
    );
  }, 120_000);
});
