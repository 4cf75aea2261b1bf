import { lintEstimativeLanguage } from '../metrics/tradecraft/lint.js';
import type { Workup } from '../model/workup.js';
import type { Measured } from './measure.js';

/**
 * The note follows ICD-203 tradecraft (seed 001, Thread 2): likelihood in the standard estimative terms, a stated
 * analytic confidence, no non-standard hedge, no likelihood confused with confidence. The evidence lists each
 * problem with its line.
 */
export function estimativeLanguage(workup: Workup): Measured {
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
  const value = report ? problems.length === 0 : null;
  return {
    criterion: 'estimative-language',
    metric: 'tradecraft',
    value,
    verdict: value === null ? 'not-applicable' : value ? 'pass' : 'fail',
    summary: !report
      ? 'the workup has no note'
      : value
        ? 'ICD-203 estimative language and confidence stated'
        : problems.join('; '),
    evidence: report
      ? {
          likelihood: report.likelihood.map((l) => ({ text: l.text, line: l.line, band: l.band })),
          confidence: report.confidence.map((c) => ({ text: c.text, line: c.line, level: c.level })),
          problems,
        }
      : {},
  };
}
