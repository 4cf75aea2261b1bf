import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { literalPrefixes } from '../../src/metrics/tradecraft/prefixes.js';
import {
  BAND_PATTERNS,
  CONFIDENCE_PATTERNS,
  CONFUSIONS,
  HEDGES,
} from '../../src/metrics/tradecraft/terms.js';

const TERMS = [
  ...BAND_PATTERNS.map((b) => b.pattern),
  ...HEDGES.map((h) => h.pattern),
  ...CONFIDENCE_PATTERNS.map((c) => c.pattern),
  ...CONFUSIONS.map((c) => c.pattern),
];

describe('literalPrefixes: how a phrase of a pattern must open (the lint tries a rule only where its text does)', () => {
  it.each([
    ['likely', ['likely']],
    ['probabl[ey]', ['probable', 'probably']],
    ['(?:almost|nearly) certain(?:ly)?', ['almost c', 'nearly c']],
    ['Could', ['could']],
    ['a|b', ['a', 'b']],
    ['(?:a|b)?c', ['c', 'ac', 'bc']],
    ['x{0,2}y', ['y', 'x']],
    ['(?:ab)*c', ['c', 'ab']],
    ['a+b', ['a']],
    ['(?<n>ab)c', ['abc']],
    ['\\bfoo', ['foo']],
    ['^ab$', ['ab']],
    ['a\\.b', ['a.b']],
    ['a.b', ['a']],
    ['\\d%', [...'0123456789'].map((d) => `${d}%`)],
    ['(?<=(?:is|are) )remote', ['remote']],
    ['remote(?= chance)', ['remote']],
    ['(low|high)(?:-| )confidence', ['low-conf', 'low conf', 'high-con', 'high con']],
    // An escaped ] or ( inside a class neither closes it nor opens a group: the | after it is still top-level.
    ['ab[\\](]|cd', ['ab', 'cd']],
    ['(?:x[)]|y)z', ['x', 'yz']],
    // Not a valid pattern (every lint term is compiled first), but read to its end rather than scanned forever.
    ['ab[cd', ['ab']],
    ['ab{2', ['ab']],
  ])('%s opens with %j', (pattern, prefixes) => {
    expect(literalPrefixes(pattern)).toEqual(prefixes);
  });

  it.each([
    ['a class it does not list', '[^a]b'],
    ['a class escape', '\\w+ly'],
    ['a non-ASCII character', 'éclair'],
    ['a modifier group', '(?i:ab)'],
    ['an optional opening with nothing listable after it', '(?:ab)?\\w'],
    ['more than 64 openings', '[ab][ab][ab][ab][ab][ab][ab]'],
  ])('is undefined (the rule is tried at every word start) for %s', (_, pattern) => {
    expect(literalPrefixes(pattern)).toBeUndefined();
  });

  it('lists every term of the lint', () => {
    for (const pattern of TERMS) expect(literalPrefixes(pattern), pattern).toBeDefined();
  });

  // fast-check cannot generate text for lookarounds: those patterns are pinned in the table above.
  const generable = [
    ...TERMS.filter((p) => !p.includes('(?=') && !p.includes('(?<')),
    '(?:ab)*c',
    'x{0,2}y',
    '(?:a|b)?c[de]+',
    '\\d+(?:\\.\\d+)? ?%',
  ];
  it.each(generable)('every phrase of %s starts with one of its prefixes, in any case', (pattern) => {
    const prefixes = literalPrefixes(pattern)!;
    const phrase = fc
      .tuple(fc.stringMatching(new RegExp(`^(?:${pattern})$`)), fc.array(fc.boolean(), { maxLength: 40 }))
      .map(([text, upper]) => [...text].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''));
    fc.assert(
      fc.property(phrase, (text) => {
        expect(prefixes.some((p) => text.toLowerCase().startsWith(p))).toBe(true);
      }),
      { numRuns: 200, seed: 12 },
    );
  });
});
