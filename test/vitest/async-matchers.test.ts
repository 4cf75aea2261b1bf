import { beforeAll, describe, expect, it } from 'vitest';
import type { EntailmentPair, EntailmentVerifier } from '../../src/model/entailment.js';
import type { Workup } from '../../src/model/workup.js';
import { criterion, rubric, scriptedJudge } from '../rubric/helpers.js';
import { asyncFailure, fixture } from './helpers.js';

/** Entails when the premise holds every word of the hypothesis longer than three letters: deterministic, no model. */
const wordVerifier: EntailmentVerifier = {
  async score(pairs: readonly EntailmentPair[]) {
    return pairs.map(({ premise, hypothesis }) => {
      const words = hypothesis.toLowerCase().match(/[a-z-]{4,}/g) ?? [];
      return words.length > 0 && words.every((w) => premise.toLowerCase().includes(w)) ? 0.9 : 0.1;
    });
  },
};

let grounded: Workup;
let unsupported: Workup;

beforeAll(async () => {
  grounded = (await fixture('grounded')) as Workup;
  unsupported = (await fixture('unsupported')) as Workup;
});

describe('toHaveCitationPrecision', () => {
  it('fails a citation whose source says something else, showing the claim, its citations and the score', async () => {
    const message = await asyncFailure(() =>
      expect(unsupported).toHaveCitationPrecision(1, { verifier: wordVerifier }),
    );
    expect(message).toMatch(
      /^expect\(workup\)\.toHaveCitationPrecision\(min, \{ verifier \}\)\n\nExpected citation precision of at least 1, but it is /,
    );
    expect(message).toContain(
      '"Kestrel Group owns the Compound-Alpha facility." cites g6: entailment 0.10 (threshold 0.5)',
    );
  });

  it('passes .not on the unsupported run and refuses a missing verifier', async () => {
    await expect(unsupported).not.toHaveCitationPrecision(1, { verifier: wordVerifier });
    await expect(() => expect(grounded).toHaveCitationPrecision(1, {} as never)).rejects.toThrow(
      'toHaveCitationPrecision: expected { verifier } with an EntailmentVerifier (score(pairs))',
    );
  });
});

describe('toScoreRubric', () => {
  const spec = rubric([criterion('alternatives'), criterion('accuracy', { weight: 2 })]);

  it('passes on the median verdicts and fails showing each criterion with agreement and rationale', async () => {
    await expect(grounded).toScoreRubric(spec, {
      judge: scriptedJudge({ alternatives: [4, 4, 3], accuracy: [5, 4, 4] }),
    });
    const message = await asyncFailure(() =>
      expect(grounded).toScoreRubric(spec, {
        judge: scriptedJudge({ alternatives: [1, 2, 1], accuracy: [2, 2, 2] }),
      }),
    );
    expect(message).toBe(
      [
        'expect(workup).toScoreRubric(rubric)',
        '',
        'Expected rubric test-rubric to score at least 3, but it scored 1.667.',
        '  ✗ alternatives: 1 of 5, 67% agree',
        '      alternatives sample 0 says 1',
        '  ✗ accuracy: 2 of 5, 100% agree',
        '      accuracy sample 0 says 2',
      ].join('\n'),
    );
  });

  it('scores one criterion alone, and reports a judge that never answered instead of NaN', async () => {
    await expect(grounded).toScoreRubric(spec, {
      judge: scriptedJudge({ accuracy: [4, 4, 4] }),
      criterion: 'accuracy',
    });
    const message = await asyncFailure(() =>
      expect(grounded).toScoreRubric(spec, {
        judge: scriptedJudge({ accuracy: ['prose', 'prose', 'prose'] }),
        criterion: 'accuracy',
      }),
    );
    expect(message).toContain('Expected criterion accuracy to score at least 3, but it scored n/a.');
    expect(message).toContain('✗ accuracy: no score: prose');
    expect(message).not.toContain('NaN');
  });
});

describe('what the matchers tell the reporters', () => {
  it('records a CheckMeta on the running test', async ({ task }) => {
    expect(grounded).toHavePivotBurdenAtMost({
      kind: 'needle',
      id: 'n',
      answer: 'x',
      aliases: [],
      required_path: { relations: ['MEMBER_OF', 'CO_LOCATED', 'CO_LOCATED'], directed: false },
      required_cites: [],
      stores: [],
      thresholds: { pivot_burden: 10 },
    });
    expect(task.meta.needlework).toEqual({
      schema: 1,
      spec: 'matcher',
      specKind: 'matcher',
      workup: 'grounded',
      workupPath: grounded.meta.path,
      task: 'Halberd and Wren',
      criterion: 'pivot-burden',
      metric: 'pivot_burden',
      value: 5,
      threshold: 10,
      comparator: '<=',
      unit: 'queries',
      verdict: 'pass',
      summary: 'path completed by g5 after 5 queries, 3 hops',
      evidence: { queries: 5, hops: 3, completedBy: 'g5' },
    });
  });

  it('records a failed assertion as a fail, for the reporters to agree with the test', ({ task }) => {
    expect(() => expect(grounded).toHaveRedundancyAtMost(0)).toThrow();
    expect(task.meta.needlework).toMatchObject({
      criterion: 'redundancy',
      value: 1 / 7,
      threshold: 0,
      verdict: 'fail',
    });
  });

  it('keeps the first failed check when a test goes on after it (expect.soft), not a later passing one', ({
    task,
  }) => {
    expect.soft(grounded).toHaveRedundancyAtMost(0);
    expect(grounded).toHaveRedundancyAtMost(1);
    expect(task.meta.needlework).toMatchObject({ criterion: 'redundancy', threshold: 0, verdict: 'fail' });
    // The soft failure is this test's own expectation: clear it so the test reports what it asserts.
    task.result!.state = 'pass';
    task.result!.errors = [];
  });

  it('records the assertion outcome under .not', ({ task }) => {
    expect(grounded).not.toHaveRedundancyAtMost(0);
    expect(task.meta.needlework).toMatchObject({ criterion: 'redundancy', value: 1 / 7, verdict: 'pass' });
  });
});
