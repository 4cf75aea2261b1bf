import { lintEstimativeLanguage } from '../../metrics/tradecraft/lint.js';
import { type MatcherResult, type MatcherState, message, record, requireWorkup } from './helpers.js';

/**
 * The note follows ICD-203 tradecraft (seed 001, Thread 2): it states likelihood in the standard estimative terms
 * and its analytic confidence, uses no non-standard hedge, and never confuses likelihood with confidence.
 */
export function toUseEstimativeLanguage(this: MatcherState, received: unknown): MatcherResult {
  const workup = requireWorkup('toUseEstimativeLanguage', received);
  const report = workup.note ? lintEstimativeLanguage(workup.note) : undefined;
  const problems = report
    ? [
        ...(report.likelihoodStated ? [] : ['no likelihood stated in ICD-203 estimative terms']),
        ...(report.confidenceStated
          ? []
          : ['no analytic confidence stated (low, moderate or high confidence)']),
        ...report.hedges.map(
          (h) => `line ${h.line}:${h.column}: non-standard hedge "${h.text}" (use ${h.suggestion})`,
        ),
        ...report.confusions.map((c) => `line ${c.line}:${c.column}: ${c.message}`),
      ]
    : [];
  const pass = report !== undefined && problems.length === 0;
  record(this, workup, {
    criterion: 'estimative-language',
    metric: 'tradecraft',
    value: report ? problems.length === 0 : null,
    met: pass,
    summary: pass ? 'ICD-203 estimative language and confidence stated' : problems.join('; '),
    evidence: report
      ? {
          likelihood: report.likelihood.map((l) => ({ text: l.text, line: l.line, band: l.band })),
          confidence: report.confidence.map((c) => ({ text: c.text, line: c.line, level: c.level })),
          problems,
        }
      : {},
  });
  return {
    pass,
    message: message(this, '.toUseEstimativeLanguage', '', (negated) => {
      if (!report) return ['Cannot lint the note: the workup has no note.'];
      if (negated) return ['Expected the note to break ICD-203 tradecraft, but it follows it.'];
      return ['Expected the note to follow ICD-203 estimative language:', ...problems.map((p) => `  ${p}`)];
    }),
  };
}
