import { criterionMeasured, criterionVerdict, rubricTotalMeasured } from '../../checks/rubric.js';
import type { Judge } from '../../judge/types.js';
import type { RubricSpec } from '../../model/spec.js';
import { type ScoreRubricOptions, scoreRubric } from '../../rubric/score.js';
import {
  formatValue,
  type MatcherResult,
  type MatcherState,
  message,
  record,
  requireWorkup,
} from './helpers.js';

export interface RubricMatcherOptions extends Omit<ScoreRubricOptions, 'judge'> {
  judge: Judge;
  /** The lowest passing weighted total, 1 to 5. @default the rubric's threshold, else 3 */
  min?: number;
  /** Score one criterion of the rubric only (the YAML rubric tests give each criterion its own test). */
  criterion?: string;
}

/**
 * An LLM judge scores the note on a rubric (anchored 1-5 criteria, one call per criterion and sample, median as the
 * score; see `scoreRubric`), and the weighted total (or the one `criterion`) reaches its mark. A failure shows each
 * criterion's score, the judge's agreement and rationale, or the judge's raw answer when it gave no verdict.
 */
export async function toScoreRubric(
  this: MatcherState,
  received: unknown,
  rubric: unknown,
  options: RubricMatcherOptions,
): Promise<MatcherResult> {
  const workup = requireWorkup('toScoreRubric', received);
  const spec = rubric as RubricSpec | null;
  if (spec === null || typeof spec !== 'object' || spec.kind !== 'rubric' || !Array.isArray(spec.criteria)) {
    throw new TypeError(
      `toScoreRubric: expected a rubric spec (from loadSpec or loadSpecs), got ${JSON.stringify(rubric)?.slice(0, 80)}`,
    );
  }
  if (!options || typeof options.judge?.judge !== 'function') {
    throw new TypeError('toScoreRubric: expected { judge } with a Judge (judge(request))');
  }
  const { judge, min, criterion, ...rest } = options;
  const scoped =
    criterion === undefined ? spec : { ...spec, criteria: spec.criteria.filter((c) => c.id === criterion) };
  if (scoped.criteria.length === 0) {
    throw new TypeError(`toScoreRubric: rubric ${spec.id} has no criterion "${criterion}"`);
  }
  const result = await scoreRubric(
    workup,
    { ...scoped, ...(min !== undefined && { threshold: min }) },
    { ...rest, judge },
  );
  const one = criterion === undefined ? undefined : result.criteria[0]!;
  // The verdict is the check's (src/checks/rubric), recorded as every matcher records its check.
  const pass = record(this, workup, one ? criterionMeasured(result, one) : rubricTotalMeasured(result));
  const lines = result.criteria.map((c) => {
    const agreement = c.agreement ? `, ${Math.round(c.agreement.agreement * 100)}% agree` : '';
    const detail =
      c.score === null
        ? `no score: ${c.error?.message ?? 'no sample answered'}`
        : `${c.score} of 5${agreement}`;
    return `  ${criterionVerdict(c) === 'pass' ? '✓' : '✗'} ${c.criterion}: ${detail}${c.rationale ? `\n      ${c.rationale}` : ''}`;
  });
  return {
    pass,
    message: message(this, '.toScoreRubric', 'rubric', (negated) => {
      const subject = one ? `criterion ${one.criterion}` : `rubric ${spec.id}`;
      const got = one ? one.score : result.total;
      const mark = one ? one.threshold : result.threshold;
      if (negated)
        return [`Expected ${subject} to score below ${mark}, but it scored ${formatValue(got)}.`, ...lines];
      return [`Expected ${subject} to score at least ${mark}, but it scored ${formatValue(got)}.`, ...lines];
    }),
    expected: one ? one.threshold : result.threshold,
    actual: one ? one.score : result.total,
  };
}
