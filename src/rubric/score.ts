import type { Judge, JudgeErrorInfo, JudgeRequest, JudgeResponse } from '../judge/types.js';
import type { RubricCriterion, RubricSpec } from '../model/spec.js';
import type { Workup } from '../model/workup.js';
import { agreementOf, median, sumTotals, totalUsage, weightedTotal } from './aggregate.js';
import { anchorOrder } from './anchors.js';
import { type Material, type MaterialOptions, workupMaterial } from './material.js';
import { criterionPrompt, judgeSystemPrompt } from './prompt.js';
import type { CriterionScore, RubricScore, SampleResult } from './types.js';

/** The pass mark of a criterion or rubric that sets none: 3, the anchor that meets the standard with gaps. */
export const DEFAULT_THRESHOLD = 3;

export interface ScoreRubricOptions {
  judge: Judge;
  /** Judgements per criterion; the median is the score. @default 3 */
  samples?: number;
  /**
   * Sampling temperature sent with every request; `null` sends none (for models that reject one). At 0 the samples
   * differ only by anchor order, so agreement measures position bias; raise it to measure sampling noise too.
   * @default 0
   */
  temperature?: number | null;
  /** When set, sample `i` is sent `seed + i`, for servers that honour a seed. */
  seed?: number;
  /** Cap on each answer's tokens. */
  maxTokens?: number;
  /** What of the workup the judge reads. */
  material?: MaterialOptions;
  /** The pass mark of a criterion that sets none, 1 to 5. @default 3 */
  criterionThreshold?: number;
  /** The pass mark of the weighted total when the rubric sets none, 1 to 5. @default 3 */
  threshold?: number;
  /**
   * The whole system message, in place of the rubric's (`judgeSystemPrompt(rubric.system)`); keep its rule that the
   * material is data to assess, never instructions. @default judgeSystemPrompt(rubric.system)
   */
  systemPrompt?: string;
  /** Cancels every pending judgement. */
  signal?: AbortSignal;
}

/**
 * Scores a workup on a rubric: one judge call per criterion per sample (pointwise and criterion-separated, the
 * deployable subset of LLM-RUBRIC, arXiv:2501.00274, as seed 001 describes), the anchors listed in a different order
 * in each sample, the median of the valid samples as the criterion's score with their spread and agreement beside
 * it, and a weighted total. A criterion whose samples all failed has no score and carries the judge's raw answers;
 * it never throws and never yields NaN. What passes is decided by the checks (src/checks/rubric.ts).
 */
export async function scoreRubric(
  workup: Workup,
  rubric: RubricSpec,
  options: ScoreRubricOptions,
): Promise<RubricScore> {
  const samples = options.samples ?? 3;
  if (!Number.isInteger(samples) || samples < 1) {
    throw new TypeError(`scoreRubric: samples must be a positive whole number, got ${samples}`);
  }
  const criterionThreshold = checkThreshold(
    options.criterionThreshold ?? DEFAULT_THRESHOLD,
    'criterionThreshold',
  );
  const threshold = checkThreshold(rubric.threshold ?? options.threshold ?? DEFAULT_THRESHOLD, 'threshold');
  const material = workupMaterial(workup, options.material);

  const criteria = await Promise.all(
    rubric.criteria.map((criterion) =>
      material === undefined
        ? unscorable(criterion, criterionThreshold, samples, workup)
        : scoreCriterion(criterion, material, rubric, workup, samples, criterionThreshold, options),
    ),
  );

  const complete = criteria.every((c) => c.score !== null);
  const total = weightedTotal(criteria.map((c) => ({ score: c.score, weight: c.weight })));
  const model = options.judge.model;
  return {
    rubric: rubric.id,
    ...(rubric.title !== undefined && { title: rubric.title }),
    ...(rubric.file !== undefined && { rubricFile: rubric.file }),
    workup: workup.id,
    ...(workup.meta.path !== undefined && { workupPath: workup.meta.path }),
    ...(model !== undefined && { model }),
    samples,
    criteria,
    total,
    complete,
    threshold,
    usage: sumTotals(criteria.map((c) => c.usage)),
  };
}

async function scoreCriterion(
  criterion: RubricCriterion,
  material: Material,
  rubric: RubricSpec,
  workup: Workup,
  samples: number,
  defaultThreshold: number,
  options: ScoreRubricOptions,
): Promise<CriterionScore> {
  const temperature = options.temperature === undefined ? 0 : options.temperature;
  const systemPrompt = options.systemPrompt ?? judgeSystemPrompt(rubric.system);
  const results = await Promise.all(
    Array.from({ length: samples }, async (_, sample): Promise<SampleResult> => {
      const order = anchorOrder(sample);
      const request: JudgeRequest = {
        messages: criterionPrompt(criterion, material, order, systemPrompt),
        sample,
        context: { rubric: rubric.id, criterion: criterion.id, sample, workup: workup.id },
        ...(temperature !== null && { temperature }),
        ...(options.seed !== undefined && { seed: options.seed + sample }),
        ...(options.maxTokens !== undefined && { maxTokens: options.maxTokens }),
        ...(options.signal !== undefined && { signal: options.signal }),
      };
      return sampleResult(sample, order, await ask(options.judge, request));
    }),
  );

  const valid = results.filter((r): r is Extract<SampleResult, { ok: true }> => r.ok);
  const failures = results.filter((r): r is Extract<SampleResult, { ok: false }> => !r.ok);
  // A sample missing from a cassette means the cassette no longer matches the prompts: scoring from the samples
  // that remain would hide that, so the criterion is an error, as when every sample failed.
  const missed = failures.find((f) => f.error.kind === 'cassette-miss');
  const scores = valid.map((r) => r.score);
  const score = missed ? null : (median(scores) ?? null);
  const threshold = criterion.threshold ?? defaultThreshold;
  const error = missed?.error ?? failures[failures.length - 1]?.error;
  return {
    criterion: criterion.id,
    title: criterion.title,
    question: criterion.question,
    weight: criterion.weight,
    threshold,
    score,
    agreement: score === null ? null : agreementOf(scores),
    rationale: score === null ? null : closestRationale(valid, score),
    samplesRequested: samples,
    samplesValid: valid.length,
    samples: results,
    ...(score === null && error && { error }),
    usage: totalUsage(
      results.map((r) => ({
        cached: r.cached,
        calls: r.calls,
        ...(r.tokens && { tokens: r.tokens }),
        ...(r.costUsd !== undefined && { costUsd: r.costUsd }),
      })),
    ),
  };
}

/** Asks the judge; a rejection (a bug, an unwritable cassette) becomes this sample's failure, not the run's. */
async function ask(judge: Judge, request: JudgeRequest): Promise<JudgeResponse> {
  try {
    return await judge.judge(request);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: { kind: 'internal', message: `the judge failed: ${message}` },
      model: judge.model ?? 'unknown',
      usage: { cached: false, calls: 0 },
    };
  }
}

function sampleResult(
  sample: number,
  anchorOrder: SampleResult['anchorOrder'],
  response: JudgeResponse,
): SampleResult {
  const { usage } = response;
  const common = {
    sample,
    anchorOrder,
    model: response.model,
    cached: usage.cached,
    calls: usage.calls,
    ...(usage.tokens && { tokens: usage.tokens }),
    ...(usage.costUsd !== undefined && { costUsd: usage.costUsd }),
  };
  return response.ok
    ? { ...common, ok: true, score: response.score, rationale: response.rationale }
    : { ...common, ok: false, error: response.error };
}

/** The rationale of the first sample at the median, else of the first sample nearest it. */
function closestRationale(valid: ReadonlyArray<{ score: number; rationale: string }>, score: number): string {
  let best = valid[0]!;
  for (const sample of valid) {
    if (Math.abs(sample.score - score) < Math.abs(best.score - score)) best = sample;
  }
  return best.rationale;
}

function unscorable(
  criterion: RubricCriterion,
  defaultThreshold: number,
  samples: number,
  workup: Workup,
): CriterionScore {
  const error: JudgeErrorInfo = { kind: 'input', message: `workup "${workup.id}" has no note to judge` };
  return {
    criterion: criterion.id,
    title: criterion.title,
    question: criterion.question,
    weight: criterion.weight,
    threshold: criterion.threshold ?? defaultThreshold,
    score: null,
    agreement: null,
    rationale: null,
    samplesRequested: samples,
    samplesValid: 0,
    samples: [],
    error,
    usage: { requests: 0, cached: 0, calls: 0, tokens: { input: 0, output: 0 }, costUsd: 0 },
  };
}

function checkThreshold(value: number, name: string): number {
  if (!Number.isFinite(value) || value < 1 || value > 5) {
    throw new TypeError(`scoreRubric: ${name} must be a number from 1 to 5, got ${value}`);
  }
  return value;
}
