import { formatJudgeError } from '../judge/describe.js';
import type { Judge } from '../judge/types.js';
import type { CheckMeta, SpecPlace } from '../model/check.js';
import type { RubricSpec } from '../model/spec.js';
import type { Workup } from '../model/workup.js';
import type { ScoreRubricOptions } from '../rubric/score.js';
import type { CriterionScore, RubricScore, UsageTotals } from '../rubric/types.js';
import { type Measured, type SpecRef, toCheck, verdictOf } from './measure.js';

/** Why a rubric criterion was not scored, with what scores it. */
export const NO_JUDGE = 'not measured: no judge configured (needlework run --judge <url|replay:cassette>)';

/**
 * A rubric's verdict, or one criterion's: `pass` or `fail` against the threshold, `error` when there is no score (no
 * sample gave a verdict, a sample was missing from the cassette, or for the total, any criterion is unscored). The
 * one place it is decided: the checks (where `error` is a `fail`), `needlework judge`'s lines and exit code and
 * `toScoreRubric`'s lines all read it from here.
 */
export type RubricVerdict = 'pass' | 'fail' | 'error';

/**
 * One criterion's verdict (see `RubricVerdict`).
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { criterionVerdict, type Judge, loadSpec, loadWorkup, type RubricSpec, scoreRubric } from 'needlework';
 *
 * const rubric = (await loadSpec('needles/icd-203.rubric.yaml')) as RubricSpec;
 * const answer = { score: 2, rationale: 'Below the standard.' } as const;
 * const judge: Judge = {
 *   judge: async () => ({ ok: true, ...answer, raw: JSON.stringify(answer), model: 'fixed', usage: { cached: false, calls: 1 } }),
 * };
 * const result = await scoreRubric(await loadWorkup('fixtures/workups/grounded'), rubric, { judge, samples: 1 });
 * // Every criterion scored 2 against its threshold of 3:
 * assert.deepEqual(result.criteria.map(criterionVerdict), ['fail', 'fail', 'fail', 'fail']);
 * ```
 */
export function criterionVerdict(criterion: CriterionScore): RubricVerdict {
  return criterion.score === null ? 'error' : scoredVerdict(criterion.score, criterion.threshold);
}

/**
 * A rubric's verdict on its weighted total (see `RubricVerdict`).
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { type Judge, loadSpec, loadWorkup, type RubricSpec, rubricVerdict, scoreRubric } from 'needlework';
 *
 * const rubric = (await loadSpec('needles/icd-203.rubric.yaml')) as RubricSpec;
 * const answer = { score: 3, rationale: 'Meets the standard with gaps.' } as const;
 * const judge: Judge = {
 *   judge: async () => ({ ok: true, ...answer, raw: JSON.stringify(answer), model: 'fixed', usage: { cached: false, calls: 1 } }),
 * };
 * const result = await scoreRubric(await loadWorkup('fixtures/workups/grounded'), rubric, { judge, samples: 1 });
 * // A total of exactly the threshold (3) passes; a workup with no note would be an 'error'.
 * assert.equal(rubricVerdict(result), 'pass');
 * ```
 */
export function rubricVerdict(result: RubricScore): RubricVerdict {
  return result.total === null || !result.complete ? 'error' : scoredVerdict(result.total, result.threshold);
}

/** A score against its threshold (met at or above it), as every check compares with `>=`. */
function scoredVerdict(score: number, threshold: number): 'pass' | 'fail' {
  return verdictOf(score, threshold, '>=') === 'pass' ? 'pass' : 'fail';
}

/** A rubric verdict as a check's: no score is a `fail` (the judge was asked and did not answer). */
const asCheck = (verdict: RubricVerdict) => (verdict === 'error' ? 'fail' : verdict);

/** The judge and its settings for rubric criteria. */
export interface RubricCheckOptions extends Omit<ScoreRubricOptions, 'judge'> {
  judge: Judge;
}

/**
 * One rubric criterion scored by the judge (`scoreRubric` on that criterion alone), as its check; not applicable,
 * saying what scores it, without a judge or without a note. Returns the rubric's result too, for a matcher's message.
 */
export async function rubricCriterion(
  workup: Workup,
  rubric: RubricSpec,
  criterion: string,
  options: RubricCheckOptions | undefined,
  owner?: RubricOwner,
): Promise<{ check: CheckMeta; result?: RubricScore }> {
  const id = owner?.id ?? criterion;
  const place = owner ? owner.place : rubric.places?.[criterion];
  const spec: SpecRef = owner?.ref ?? {
    id: rubric.id,
    kind: 'rubric',
    ...(rubric.file !== undefined && { file: rubric.file }),
  };
  const base: Measured = {
    criterion: id,
    metric: 'rubric_score',
    value: null,
    unit: 'score-1-5',
    verdict: 'not-applicable',
  };
  if (!options) return { check: toCheck(spec, workup, { ...base, summary: NO_JUDGE }, place) };
  if (!workup.note)
    return { check: toCheck(spec, workup, { ...base, summary: 'the workup has no note' }, place) };
  const { scoreRubric } = await import('../rubric/score.js');
  const scoped = { ...rubric, criteria: rubric.criteria.filter((c) => c.id === criterion) };
  const result = await scoreRubric(workup, scoped, options);
  const measured = criterionMeasured(result, result.criteria[0]!);
  return { check: toCheck(spec, workup, { ...measured, criterion: id }, place), result };
}

/**
 * Whose check a rubric criterion is when the rubric is not a spec of its own: a task case's judge, whose checks
 * belong to the data set and the case, under the criterion id `judge-<criterion>`, placed where the case names it.
 */
export interface RubricOwner {
  ref: SpecRef;
  id: string;
  place: SpecPlace | undefined;
}

/**
 * The `task.meta.needlework` of one rubric criterion's test, for the matcher and the YAML rubric tests to attach, so
 * the reporters show the score, the judge's agreement, its rationale, tokens and cost. A criterion with no score is
 * a `fail` whose summary carries the judge's failure (raw answers and what was expected), never a NaN value.
 */
export function criterionCheckMeta(result: RubricScore, criterion: CriterionScore): CheckMeta {
  return { ...identity(result), ...criterionMeasured(result, criterion) };
}

/** What one rubric criterion measured, its verdict decided here: the check without the fields that say whose it is. */
export function criterionMeasured(result: RubricScore, criterion: CriterionScore): Measured {
  const scored = criterion.score !== null && criterion.agreement !== null;
  const summary = scored
    ? `${criterion.criterion}: ${criterion.score} of 5 (threshold ${criterion.threshold}); ${Math.round(
        criterion.agreement!.agreement * 100,
      )}% of ${criterion.samplesValid} samples agree, spread ${criterion.agreement!.spread}${
        criterion.rationale ? `; ${criterion.rationale}` : ''
      }`
    : `${criterion.criterion}: no score; ${criterion.error ? formatJudgeError(criterion.error) : 'no sample answered'}`;
  return {
    criterion: criterion.criterion,
    metric: 'rubric_score',
    value: criterion.score,
    threshold: criterion.threshold,
    comparator: '>=',
    unit: 'score-1-5',
    verdict: asCheck(criterionVerdict(criterion)),
    summary,
    evidence: {
      title: criterion.title,
      question: criterion.question,
      rationale: criterion.rationale,
      ...(result.model !== undefined && { model: result.model }),
      samples: criterion.samples.map((s) =>
        s.ok
          ? {
              sample: s.sample,
              anchorOrder: s.anchorOrder,
              score: s.score,
              rationale: s.rationale,
              cached: s.cached,
            }
          : { sample: s.sample, anchorOrder: s.anchorOrder, error: s.error, cached: s.cached },
      ),
      ...(criterion.error && { error: criterion.error }),
    },
    scores: {
      ...(criterion.agreement && {
        agreement: criterion.agreement.agreement,
        spread: criterion.agreement.spread,
      }),
      samples_valid: criterion.samplesValid,
      samples_requested: criterion.samplesRequested,
      weight: criterion.weight,
      ...usageScores(criterion.usage),
    },
  };
}

/** The `task.meta.needlework` of a rubric's weighted total. */
export function rubricTotalCheckMeta(result: RubricScore): CheckMeta {
  return { ...identity(result), ...rubricTotalMeasured(result) };
}

/** What a rubric's weighted total measured, its verdict decided here. */
export function rubricTotalMeasured(result: RubricScore): Measured {
  const missing = result.criteria.filter((c) => c.score === null).map((c) => c.criterion);
  const total = result.total === null ? 'no total' : `total ${round(result.total)} of 5`;
  return {
    criterion: 'total',
    metric: 'rubric_total',
    value: result.total,
    threshold: result.threshold,
    comparator: '>=',
    unit: 'score-1-5',
    verdict: asCheck(rubricVerdict(result)),
    summary: `${total} (threshold ${result.threshold})${missing.length > 0 ? `; no score for ${missing.join(', ')}` : ''}`,
    evidence: {
      ...(result.model !== undefined && { model: result.model }),
      criteria: result.criteria.map((c) => ({ criterion: c.criterion, score: c.score, weight: c.weight })),
    },
    scores: usageScores(result.usage),
  };
}

/** Tokens, cost and cache counts as named numbers; unknown ones are left out rather than reported as 0. */
function usageScores(usage: UsageTotals): Record<string, number> {
  return {
    requests: usage.requests,
    cached: usage.cached,
    calls: usage.calls,
    ...(usage.tokens && { input_tokens: usage.tokens.input, output_tokens: usage.tokens.output }),
    ...(usage.costUsd !== undefined && { cost_usd: usage.costUsd }),
  };
}

function round(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(2);
}

/** The fields that say which rubric and workup a check belongs to. */
function identity(
  result: RubricScore,
): Pick<CheckMeta, 'schema' | 'spec' | 'specKind' | 'specFile' | 'workup' | 'workupPath'> {
  return {
    schema: 1,
    spec: result.rubric,
    specKind: 'rubric',
    ...(result.rubricFile !== undefined && { specFile: result.rubricFile }),
    workup: result.workup,
    ...(result.workupPath !== undefined && { workupPath: result.workupPath }),
  };
}
