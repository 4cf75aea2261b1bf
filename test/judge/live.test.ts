import { describe, expect, it } from 'vitest';
import { OpenAICompatibleJudge } from '../../src/judge/openai.js';
import type { RubricSpec } from '../../src/model/spec.js';
import { scoreRubric } from '../../src/rubric/score.js';
import { loadSpec } from '../../src/specs/load.js';
import { loadWorkup } from '../../src/workup/load.js';

/**
 * The one test that leaves the machine: it runs only when OPENAI_API_KEY is set, against OPENAI_BASE_URL (default
 * the OpenAI API) and NEEDLEWORK_JUDGE_MODEL (default gpt-4o-mini), and checks that a real server accepts our
 * structured-output request and answers a valid verdict.
 */
describe.skipIf(!process.env.OPENAI_API_KEY)('live judge (OPENAI_API_KEY)', () => {
  it('scores the relevance of the grounded fixture with a real model', async () => {
    const rubric = (await loadSpec('needles/icd-203.rubric.yaml')) as RubricSpec;
    const relevance = { ...rubric, criteria: rubric.criteria.filter((c) => c.id === 'relevance') };
    const judge = new OpenAICompatibleJudge({ timeoutMs: 60_000, maxRetries: 2 });
    const result = await scoreRubric(await loadWorkup('fixtures/workups/grounded'), relevance, {
      judge,
      samples: 1,
    });
    const [criterion] = result.criteria;
    expect(criterion!.error).toBeUndefined();
    expect([1, 2, 3, 4, 5]).toContain(criterion!.score);
    expect(criterion!.rationale!.length).toBeGreaterThan(0);
    expect(result.usage.tokens!.input).toBeGreaterThan(0);
  }, 180_000);
});
