import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { citationRecall, citedClaims, findUncitedClaims } from '../../src/metrics/citations/index.js';
import { claimUnits, uncoveredUnits } from '../../src/metrics/citations/units.js';
import { lintEstimativeLanguage } from '../../src/metrics/tradecraft/index.js';
import { parseNote } from '../../src/note/parse.js';

const word = fc.constantFrom(
  'Halberd',
  'Wren',
  'likely',
  'might',
  'cell',
  'moderate confidence',
  'very unlikely',
  'May',
);
const sentence = fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => `${w.join(' ')}.`);
const cite = fc.constantFrom('', ' [cite:g1]', ' [cite:g2,g3]');
const bullet = fc
  .tuple(fc.array(fc.tuple(sentence, cite), { minLength: 1, maxLength: 3 }))
  .map(([parts]) => `- ${parts.map(([s, c]) => `${s}${c}`).join(' ')}`);
const section = fc.tuple(
  fc.constantFrom('Findings', 'Summary', 'Gaps & caveats'),
  fc.array(bullet, { maxLength: 4 }),
);
const noteArb = fc
  .array(section, { maxLength: 3 })
  .map((sections) => sections.map(([title, bullets]) => `## ${title}\n\n${bullets.join('\n')}\n`).join('\n'));

describe('citation and tradecraft properties', () => {
  it('structural recall is covered/total in [0, 1], null exactly when there is no claim, and agrees with the uncited list', () => {
    fc.assert(
      fc.property(noteArb, (md) => {
        const note = parseNote(md);
        const r = citationRecall(note);
        expect(r.covered).toBeLessThanOrEqual(r.total);
        if (r.total === 0) expect(r.value).toBeNull();
        else expect(r.value).toBe(r.covered / r.total);
        expect(r.uncited).toEqual(findUncitedClaims(note));
        if (r.value === 1) expect(r.uncited).toEqual([]);
        for (const u of r.uncited) expect(u.section).not.toBe('Gaps & caveats');
        // Every uncited claim is a claim with no citation; every claim with one is covered.
        const claims = citedClaims(note);
        expect(claims.filter((c) => c.citations.length === 0).map((c) => c.text)).toEqual(
          r.uncited.map((u) => u.text),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('builds as uncovered units exactly the claim units no citation covers', () => {
    fc.assert(
      fc.property(noteArb, (md) => {
        const note = parseNote(md);
        expect(uncoveredUnits(note)).toEqual(claimUnits(note).filter((unit) => !unit.covered));
      }),
      { numRuns: 500 },
    );
  });

  it('every lint finding stands in a claim-making section, at a place in the source that holds it', () => {
    fc.assert(
      fc.property(noteArb, (md) => {
        const note = parseNote(md);
        const r = lintEstimativeLanguage(note);
        expect(lintEstimativeLanguage(note)).toEqual(r);
        for (const hit of [...r.likelihood, ...r.hedges, ...r.confidence, ...r.confusions]) {
          expect(hit.section).not.toBe('Gaps & caveats');
          expect(md.slice(hit.position.offset, hit.position.offset + hit.text.length)).toBe(hit.text);
        }
        for (const h of r.hedges) if (h.text.toLowerCase() === 'may') expect(h.text).toBe('may');
      }),
      { numRuns: 300 },
    );
  });
});
