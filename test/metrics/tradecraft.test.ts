import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { LIKELIHOOD_BANDS, lintEstimativeLanguage } from '../../src/metrics/tradecraft/index.js';
import { parseNote } from '../../src/note/parse.js';

const FIXTURES = new URL('../../fixtures/workups/', import.meta.url).pathname;
const lint = (md: string) => lintEstimativeLanguage(parseNote(md));
const terms = (md: string) => lint(md).likelihood.map((h) => [h.text, h.band.band]);

describe('lintEstimativeLanguage: ICD 203 likelihood bands', () => {
  it('has the seven bands of ICD 203 with their ranges', () => {
    expect(LIKELIHOOD_BANDS.map((b) => [b.terms.join(' / '), b.range])).toEqual([
      ['almost no chance / remote', [0.01, 0.05]],
      ['very unlikely / highly improbable', [0.05, 0.2]],
      ['unlikely / improbable', [0.2, 0.45]],
      ['roughly even chance / roughly even odds', [0.45, 0.55]],
      ['likely / probable', [0.55, 0.8]],
      ['very likely / highly probable', [0.8, 0.95]],
      ['almost certain / nearly certain', [0.95, 0.99]],
    ]);
  });

  it('maps every term and synonym to its band, the longest phrase winning', () => {
    expect(
      terms(
        '- There is almost no chance of it. A remote possibility. The risk is remote. Very unlikely. Highly improbable. Unlikely. Improbable. Roughly even chance. Roughly even odds. Likely. Probably. Very likely. Highly probable. Almost certainly. Nearly certain. [cite:g1]\n',
      ),
    ).toEqual([
      ['almost no chance', 1],
      ['remote', 1],
      ['remote', 1],
      ['Very unlikely', 2],
      ['Highly improbable', 2],
      ['Unlikely', 3],
      ['Improbable', 3],
      ['Roughly even chance', 4],
      ['Roughly even odds', 4],
      ['Likely', 5],
      ['Probably', 5],
      ['Very likely', 6],
      ['Highly probable', 6],
      ['Almost certainly', 7],
      ['Nearly certain', 7],
    ]);
  });

  it('reads "remote" only in estimative use', () => {
    expect(terms('- They had remote access to the depot. [cite:g1]\n')).toEqual([]);
  });

  it('lints only the sections that make claims', () => {
    expect(lint('## Gaps & caveats\n\n- It might be likely.\n')).toMatchObject({
      likelihood: [],
      hedges: [],
      likelihoodStated: false,
    });
  });
});

describe('lintEstimativeLanguage: hedges, confidence, confusions', () => {
  it('flags non-standard hedges with line, column and what to use instead; leaves the month May alone', () => {
    const r = lint(
      '# N\n\n- Wren might know Halberd, or could perhaps be a courier. [cite:g1]\n- Seen in May; it may recur. It is highly likely. [cite:g2]\n',
    );
    expect(r.hedges.map((h) => [h.text, h.line, h.column])).toEqual([
      ['might', 3, 8],
      ['could', 3, 31],
      ['perhaps', 3, 37],
      ['may', 4, 19],
      ['highly likely', 4, 36],
    ]);
    expect(r.hedges[4]!.suggestion).toBe('very likely (80-95%)');
    expect(r.likelihood).toEqual([]);
  });

  it('detects the analytic-confidence axis', () => {
    const r = lint(
      '- We assess with moderate confidence that it is likely; high-confidence reporting; confidence is low. [cite:g1]\n',
    );
    expect(r.confidence.map((h) => [h.text, h.level])).toEqual([
      ['moderate confidence', 'moderate'],
      ['high-confidence', 'high'],
      ['confidence is low', 'low'],
    ]);
    expect([r.confidenceStated, r.likelihoodStated]).toEqual([true, true]);
  });

  it('"likely, with high confidence" is fine; likelihood and confidence in one phrase are confusions', () => {
    expect(lint('- It is likely, with high confidence. [cite:g1]\n').confusions).toEqual([]);
    const r = lint(
      '- We have probable confidence. A high likelihood confidence. Confidence of 80%. 90% confidence. A low probability. [cite:g1]\n',
    );
    expect(r.confusions.map((h) => [h.text, h.rule])).toEqual([
      ['probable confidence', 'likelihood-as-confidence'],
      ['high likelihood confidence', 'likelihood-as-confidence'],
      ['Confidence of 80%', 'numeric-confidence'],
      ['90% confidence', 'numeric-confidence'],
      ['low probability', 'confidence-scale-as-likelihood'],
    ]);
    // A phrase inside a confusion is not also counted as a likelihood term or a confidence statement.
    expect([r.likelihood, r.confidence]).toEqual([[], []]);
  });

  it('on the fixtures: grounded states both axes; guessed states likelihood but no confidence', async () => {
    const note = async (name: string) => parseNote(await readFile(`${FIXTURES}${name}/note.md`, 'utf8'));
    const grounded = lintEstimativeLanguage(await note('grounded'));
    expect(grounded.likelihood.map((h) => [h.text, h.band.band, h.line, h.column])).toEqual([
      ['likely', 5, 5, 111],
      ['unlikely', 3, 16, 112],
    ]);
    expect(grounded.confidence.map((h) => [h.level, h.line, h.column])).toEqual([['moderate', 5, 81]]);
    expect(grounded.hedges).toEqual([]);
    const guessed = lintEstimativeLanguage(await note('guessed'));
    expect(guessed.likelihood.map((h) => [h.text, h.band.range])).toEqual([
      ['almost certainly', [0.95, 0.99]],
    ]);
    expect(guessed.confidenceStated).toBe(false);
  });

  it('finds the phrase in the source even when emphasis splits it', () => {
    const r = lint('- It is *very* likely. [cite:g1]\n');
    expect(r.likelihood.map((h) => [h.text, h.band.band, h.column])).toEqual([['very likely', 6, 10]]);
  });
});
