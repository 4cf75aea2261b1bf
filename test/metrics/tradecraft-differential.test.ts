import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lintEstimativeLanguage } from '../../src/metrics/tradecraft/index.js';
import { parseNote } from '../../src/note/parse.js';
import { lintEstimativeLanguage as lintV1 } from '../reference/lint-v1.js';

// Words and phrases of every rule kind, in several cases, with near misses ("likelihoods", "remote access", "May",
// words sharing a rule's opening: "with", "probability", "possession"), phrases glued to letters, digits or an
// underscore on either side (ASCII or not), numbers, characters that fold to ASCII under case folding (ſ, the Kelvin
// sign), markup and plain words.
const words = fc.constantFrom(
  'likely',
  'Likely',
  'LIKELY',
  'very likely',
  'very unlikely',
  'highly probable',
  'highly likely',
  'unlikely',
  'probably',
  'improbable',
  'almost certainly',
  'nearly certain',
  'almost no chance',
  'a remote chance',
  'is remote',
  'remote access',
  'roughly even odds',
  'even chance',
  'more likely than not',
  'fairly likely',
  'might',
  'could',
  'may',
  'May',
  'possibly',
  'perhaps',
  'without a doubt',
  'certainly',
  'moderate confidence',
  'High-confidence',
  'confidence is low',
  'highly confident',
  'probable confidence',
  'high likelihood',
  'low probability',
  '90% confidence',
  'confidence of 80 percent',
  'likelihoods',
  'with',
  'without',
  'probability',
  'possession',
  'highly',
  'very',
  'élikely',
  'likelyé',
  '_could',
  'could9',
  '9could',
  'x\u0301likely',
  '\u{1D400}likely',
  'ſurely',
  '\u212aestrel',
  'Wren',
  'Compound-Alpha',
  '*likely*',
  '**very** unlikely',
  'met',
  'at',
  'the',
  '12',
  'é',
);
const sentence = fc
  .array(words, { minLength: 1, maxLength: 12 })
  .map((ws) => `${ws.join(' ')}.`)
  .chain((s) =>
    fc.constantFrom(
      s,
      `${s} [cite:g1]`,
      s.replace(/^./, (c) => c.toUpperCase()),
    ),
  );
const note = fc
  .tuple(
    fc.array(fc.array(sentence, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 8 }),
    fc.array(sentence, { maxLength: 3 }),
  )
  .map(
    ([bullets, gaps]) =>
      `# Workup\n\n## Findings\n\n${bullets.map((b) => `- ${b.join(' ')}`).join('\n')}\n\n## Gaps & caveats\n\n${gaps.join(' ')}\n`,
  );

describe('lintEstimativeLanguage against its previous implementation (test/reference/lint-v1.ts)', () => {
  it('gives the same report, field order included, on 2,000 generated notes', () => {
    fc.assert(
      fc.property(note, (markdown) => {
        const parsed = parseNote(markdown);
        const now = lintEstimativeLanguage(parsed);
        const before = lintV1(parsed);
        expect(now).toEqual(before);
        expect(JSON.stringify(now)).toBe(JSON.stringify(before));
      }),
      { numRuns: 2000, seed: 203 },
    );
  });
});
