import { describe, expect, it } from 'vitest';
import { readVerdict } from '../../src/judge/verdict.js';

describe('readVerdict', () => {
  it('reads a verdict', () => {
    expect(readVerdict('{"rationale": "Weighs two hypotheses.", "score": 4}')).toEqual({
      ok: true,
      score: 4,
      rationale: 'Weighs two hypotheses.',
    });
  });

  it('accepts surrounding whitespace and one code fence, with or without a language', () => {
    expect(readVerdict('\n```json\n{"rationale": "r", "score": 1}\n```\n')).toMatchObject({
      ok: true,
      score: 1,
    });
    expect(readVerdict('```\n{"rationale": "r", "score": 5}\n```')).toMatchObject({ ok: true, score: 5 });
  });

  it('skips a leading <think> block that a reasoning model wrote into the answer', () => {
    expect(
      readVerdict('<think>\nThe note weighs Depot-Seven.\n</think>\n{"rationale": "r", "score": 4}'),
    ).toMatchObject({
      ok: true,
      score: 4,
    });
    expect(readVerdict('{"rationale": "r", "score": 4} <think>x</think>')).toEqual({
      ok: false,
      problem: 'the answer is not JSON',
    });
  });

  it.each([
    ['', 'the answer is empty'],
    ['Score: 4. The note is good.', 'the answer is not JSON'],
    ['Here it is: {"rationale": "r", "score": 4}', 'the answer is not JSON'],
    ['[4]', 'the answer is JSON but not an object'],
    ['4', 'the answer is JSON but not an object'],
    ['{"rationale": "r"}', 'score is missing'],
    ['{"score": 3}', 'rationale is missing'],
    ['{"rationale": "r", "score": 0}', 'score must be an integer from 1 to 5 (got 0)'],
    ['{"rationale": "r", "score": 6}', 'score must be an integer from 1 to 5 (got 6)'],
    ['{"rationale": "r", "score": 3.5}', 'score must be an integer from 1 to 5 (got 3.5)'],
    ['{"rationale": "r", "score": "4"}', 'score must be an integer from 1 to 5 (got "4")'],
    ['{"rationale": 4, "score": 4}', 'rationale must be a string'],
    ['{"rationale": "r", "score": 4, "confidence": "high"}', 'unexpected key "confidence"'],
  ])('rejects %j: %s', (text, problem) => {
    expect(readVerdict(text)).toEqual({ ok: false, problem });
  });

  it('never evaluates the answer: a string that looks like code is just not JSON', () => {
    expect(readVerdict('(() => { throw new Error("ran") })()')).toEqual({
      ok: false,
      problem: 'the answer is not JSON',
    });
  });
});
