import { afterEach, describe, expect, it } from 'vitest';
import { criterionVerdict, rubricVerdict } from '../../src/checks/rubric.js';
import { OpenAICompatibleJudge } from '../../src/judge/openai.js';
import type { Judge } from '../../src/judge/types.js';
import type { RubricSpec } from '../../src/model/spec.js';
import { anchorOrder } from '../../src/rubric/anchors.js';
import { scoreRubric } from '../../src/rubric/score.js';
import type { RubricScore } from '../../src/rubric/types.js';
import { loadSpec } from '../../src/specs/load.js';
import { loadWorkup } from '../../src/workup/load.js';
import { type FakeJudgeServer, startFakeJudge, verdict } from '../judge/fake-server.js';
import { criterion, rubric, scriptedJudge, workup } from './helpers.js';

/** A result with the verdicts the checks decide from it (src/checks/rubric.ts) beside its scores. */
const judged = (result: RubricScore) => ({
  ...result,
  verdict: rubricVerdict(result),
  criteria: result.criteria.map((c) => ({ ...c, verdict: criterionVerdict(c) })),
});

describe('scoreRubric: one call per criterion per sample', () => {
  it('asks each criterion once per sample, with the anchors in that sample order and reproducible parameters', async () => {
    const judge = scriptedJudge({ a: [3, 3, 3], b: [4, 4, 4] });
    await scoreRubric(workup(), rubric([criterion('a'), criterion('b')]), { judge, seed: 100 });
    expect(judge.requests).toHaveLength(6);
    for (const request of judge.requests) {
      const { criterion: id, sample } = request.context!;
      expect(request.context).toEqual({ rubric: 'test-rubric', criterion: id, sample, workup: 'w1' });
      expect(request.sample).toBe(sample);
      expect(request.temperature).toBe(0);
      expect(request.seed).toBe(100 + sample!);
      const anchors = anchorOrder(sample!)
        .map((level) => `- ${level}: ${id} ${['one', 'two', 'three', 'four', 'five'][level - 1]}`)
        .join('\n');
      expect(request.messages[1]!.content).toContain(anchors);
    }
    const aPrompts = judge.requests
      .filter((r) => r.context!.criterion === 'a')
      .map((r) => r.messages[1]!.content);
    expect(new Set(aPrompts).size).toBe(3);
  });

  it('sends no temperature when asked not to, and no seed unless one is given', async () => {
    const judge = scriptedJudge({ a: [3] });
    await scoreRubric(workup(), rubric([criterion('a')]), { judge, samples: 1, temperature: null });
    expect('temperature' in judge.requests[0]!).toBe(false);
    expect('seed' in judge.requests[0]!).toBe(false);
  });

  it('rejects a sample count that is not a positive whole number', async () => {
    await expect(
      scoreRubric(workup(), rubric([criterion('a')]), { judge: scriptedJudge({}), samples: 0 }),
    ).rejects.toThrow('scoreRubric: samples must be a positive whole number, got 0');
  });
});

describe('scoreRubric: median, agreement and verdicts', () => {
  it('scores each criterion with the median and reports spread, agreement and the median sample rationale', async () => {
    const judge = scriptedJudge({ a: [2, 4, 4], b: [5, 1, 3] });
    const result = judged(
      await scoreRubric(workup(), rubric([criterion('a'), criterion('b', { threshold: 4 })]), { judge }),
    );
    const [a, b] = result.criteria;
    expect(a).toMatchObject({
      criterion: 'a',
      score: 4,
      agreement: { scores: [2, 4, 4], spread: 2, agreement: 2 / 3 },
      rationale: 'a sample 1 says 4',
      threshold: 3,
      verdict: 'pass',
      samplesRequested: 3,
      samplesValid: 3,
    });
    expect(a!.samples.map((s) => s.anchorOrder)).toEqual([anchorOrder(0), anchorOrder(1), anchorOrder(2)]);
    expect(b).toMatchObject({
      score: 3,
      agreement: { scores: [5, 1, 3], spread: 4, agreement: 1 / 3 },
      rationale: 'b sample 2 says 3',
      threshold: 4,
      verdict: 'fail',
    });
  });

  it('totals the medians by weight and passes the rubric against its threshold', async () => {
    const judge = scriptedJudge({ a: [5, 5, 5], b: [2, 2, 2] });
    const criteria = [criterion('a', { weight: 3 }), criterion('b', { weight: 1 })];
    const passing = judged(await scoreRubric(workup(), rubric(criteria, { threshold: 4 }), { judge }));
    expect(passing).toMatchObject({ total: 4.25, complete: true, threshold: 4, verdict: 'pass' });
    const failing = judged(await scoreRubric(workup(), rubric(criteria, { threshold: 4.5 }), { judge }));
    expect(failing).toMatchObject({ total: 4.25, verdict: 'fail' });
    const defaulted = judged(await scoreRubric(workup(), rubric(criteria), { judge, threshold: 4.3 }));
    expect(defaulted).toMatchObject({ threshold: 4.3, verdict: 'fail' });
  });

  it('scores from the samples that answered when some failed, and says how many did', async () => {
    const judge = scriptedJudge({ a: [4, 'prose', 2] });
    const [a] = judged(await scoreRubric(workup(), rubric([criterion('a')]), { judge })).criteria;
    expect(a).toMatchObject({
      score: 3,
      samplesValid: 2,
      verdict: 'pass',
      agreement: { scores: [4, 2], agreement: 0 },
    });
    expect(a!.samples[1]).toMatchObject({ ok: false, error: { kind: 'malformed', message: 'prose' } });
    expect('error' in a!).toBe(false);
  });

  it('reports a criterion whose every sample failed as an error with the judge failure, never NaN', async () => {
    const judge = scriptedJudge({
      a: ['first', 'second', 'the judge answered 2 times without a valid verdict'],
      b: [4, 4, 4],
    });
    const result = judged(await scoreRubric(workup(), rubric([criterion('a'), criterion('b')]), { judge }));
    expect(result.criteria[0]).toMatchObject({
      verdict: 'error',
      score: null,
      agreement: null,
      rationale: null,
      samplesValid: 0,
      error: {
        kind: 'malformed',
        message: 'the judge answered 2 times without a valid verdict',
        answers: ['prose'],
        expected: 'json',
      },
    });
    expect(result).toMatchObject({ total: 4, complete: false, verdict: 'error' });
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it('reports every criterion as an error, asking nothing, when the workup has no note', async () => {
    const judge = scriptedJudge({});
    const result = judged(
      await scoreRubric({ ...workup(), note: undefined }, rubric([criterion('a')]), { judge }),
    );
    expect(judge.requests).toHaveLength(0);
    expect(result.criteria[0]).toMatchObject({
      verdict: 'error',
      score: null,
      error: { kind: 'input', message: 'workup "w1" has no note to judge' },
    });
    expect(result).toMatchObject({ total: null, verdict: 'error' });
  });

  it('turns a judge that throws into a failed sample, not a failed run', async () => {
    const judge: Judge = {
      model: 'broken',
      judge: async () => {
        throw new Error('disk full');
      },
    };
    const result = await scoreRubric(workup(), rubric([criterion('a')]), { judge, samples: 1 });
    expect(result.criteria[0]!.error).toEqual({ kind: 'internal', message: 'the judge failed: disk full' });
  });

  it('sums tokens and cost over criteria and samples', async () => {
    const judge = scriptedJudge({ a: [3, 3, 3], b: [3, 'x', 3] });
    const result = await scoreRubric(workup(), rubric([criterion('a'), criterion('b')]), { judge });
    expect(result.usage).toEqual({
      requests: 6,
      cached: 0,
      calls: 7,
      tokens: { input: 60, output: 12 },
      costUsd: expect.closeTo(0.006, 12),
    });
    expect(result.criteria[1]!.usage.calls).toBe(4);
  });
});

describe('scoreRubric over HTTP: the ICD-203 rubric on a fixture workup', () => {
  let server: FakeJudgeServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it('scores all four standards through the real client, varying the anchor order the server sees', async () => {
    const icd = (await loadSpec('needles/icd-203.rubric.yaml')) as RubricSpec;
    const grounded = await loadWorkup('fixtures/workups/grounded');
    const scores: Record<string, number[]> = {
      'Incorporates analysis of alternatives': [4, 4, 5],
      'Uses clear and logical argumentation': [3, 4, 3],
      'Relevant to the question asked': [5, 5, 5],
      'Makes accurate judgments and assessments': [4, 2, 4],
    };
    const orders: Record<string, string[]> = {};
    const counts: Record<string, number> = {};
    server = await startFakeJudge((request) => {
      const text = request.body.messages[1]!.content;
      const title = /^Criterion: (.*)$/m.exec(text)![1]!;
      orders[title] = [...(orders[title] ?? []), [...text.matchAll(/^- (\d): /gm)].map((m) => m[1]).join('')];
      // The server cannot see the sample index; it answers in arrival order per criterion.
      const i = (counts[title] ?? -1) + 1;
      counts[title] = i;
      return {
        content: verdict(scores[title]![i], `${title}: ${i}`),
        usage: { prompt_tokens: 1000, completion_tokens: 50 },
      };
    });
    const judge = new OpenAICompatibleJudge({
      baseUrl: server.url,
      model: 'm',
      env: {},
      concurrency: 1,
      prices: { m: { input: 1, output: 4 } },
    });
    const result = judged(await scoreRubric(grounded, icd, { judge }));

    expect(server.received).toHaveLength(12);
    for (const seen of Object.values(orders)) expect(seen).toEqual(['12345', '54321', '23451']);
    expect(server.received[0]!.body.messages[1]!.content).toContain('Alternatives considered');
    expect(result.criteria.map((c) => [c.criterion, c.score, c.agreement?.agreement])).toEqual([
      ['alternatives', 4, 2 / 3],
      ['argumentation', 3, 2 / 3],
      ['relevance', 5, 1],
      ['accuracy', 4, 2 / 3],
    ]);
    expect(result).toMatchObject({
      rubric: 'icd-203',
      workup: 'grounded',
      model: 'm',
      total: 4,
      verdict: 'pass',
    });
    expect(result.usage).toEqual({
      requests: 12,
      cached: 0,
      calls: 12,
      tokens: { input: 12_000, output: 600 },
      costUsd: expect.closeTo((12_000 * 1 + 600 * 4) / 1e6, 12),
    });
  });
});
