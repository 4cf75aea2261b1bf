import { describe, expect, it } from 'vitest';
import { criterionCheckMeta, rubricTotalCheckMeta } from '../../src/checks/rubric.js';
import { scoreRubric } from '../../src/rubric/score.js';
import { criterion, rubric, scriptedJudge, workup } from './helpers.js';

async function scored() {
  const judge = scriptedJudge({ a: [4, 2, 4], b: ['prose', 'prose', 'no verdict twice'] });
  return scoreRubric(workup(), rubric([criterion('a'), criterion('b')], { file: 'r.rubric.yaml' }), {
    judge,
  });
}

describe('criterionCheckMeta', () => {
  it('carries the score, agreement, rationale, tokens and cost for the reporters', async () => {
    const result = await scored();
    const meta = criterionCheckMeta(result, result.criteria[0]!);
    expect(meta).toMatchObject({
      schema: 1,
      spec: 'test-rubric',
      specKind: 'rubric',
      specFile: 'r.rubric.yaml',
      workup: 'w1',
      criterion: 'a',
      metric: 'rubric_score',
      value: 4,
      threshold: 3,
      comparator: '>=',
      unit: 'score-1-5',
      verdict: 'pass',
      summary: 'a: 4 of 5 (threshold 3); 67% of 3 samples agree, spread 2; a sample 0 says 4',
      evidence: { rationale: 'a sample 0 says 4', model: 'scripted' },
      scores: {
        agreement: 2 / 3,
        spread: 2,
        samples_valid: 3,
        samples_requested: 3,
        requests: 3,
        cached: 0,
        calls: 3,
        input_tokens: 30,
        output_tokens: 6,
        cost_usd: expect.closeTo(0.003, 12),
      },
    });
    expect(JSON.parse(JSON.stringify(meta))).toEqual(meta);
  });

  it('makes an unscored criterion a failure showing the judge answers, with a null value', async () => {
    const result = await scored();
    const meta = criterionCheckMeta(result, result.criteria[1]!);
    expect(meta).toMatchObject({ value: null, verdict: 'fail' });
    expect(meta.summary).toBe('b: no score; no verdict twice\n  expected: json\n  answer 1: "prose"');
    expect(meta.scores).not.toHaveProperty('agreement');
  });
});

describe('rubricTotalCheckMeta', () => {
  it('reports the weighted total and which criteria have no score', async () => {
    const meta = rubricTotalCheckMeta(await scored());
    expect(meta).toMatchObject({
      criterion: 'total',
      metric: 'rubric_total',
      value: 4,
      verdict: 'fail',
      summary: 'total 4 of 5 (threshold 3); no score for b',
    });
  });
});
