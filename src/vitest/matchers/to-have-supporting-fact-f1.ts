import { needleScore, supportingFacts } from '../../checks/needle.js';
import { formatFact } from '../../model/fact.js';
import {
  formatValue,
  type MatcherResult,
  type MatcherState,
  message,
  record,
  requireNeedle,
  requireNumber,
  requireWorkup,
} from './helpers.js';

/**
 * Supporting-fact F1 (HotpotQA's `update_sp`) of the facts the note cites against the needle's `required_cites` is
 * at least `min` (default: the needle's `thresholds.supporting_fact_f1`, else 1).
 */
export function toHaveSupportingFactF1(
  this: MatcherState,
  received: unknown,
  needle: unknown,
  min?: unknown,
): MatcherResult {
  const workup = requireWorkup('toHaveSupportingFactF1', received);
  const spec = requireNeedle('toHaveSupportingFactF1', needle);
  const threshold = requireNumber(
    'toHaveSupportingFactF1',
    'min',
    min ?? spec.thresholds.supporting_fact_f1 ?? 1,
  );
  const pass = record(this, workup, supportingFacts(workup, spec, threshold));
  const sf = needleScore(workup, spec).supportingFacts;
  const f1 = sf.value?.f1 ?? null;
  return {
    pass,
    message: message(this, '.toHaveSupportingFactF1', 'needle, min', (negated) => {
      if (f1 === null) return [`Cannot score supporting facts: ${sf.reason}.`];
      if (negated)
        return [`Expected supporting-fact F1 below ${formatValue(threshold)}, but it is ${formatValue(f1)}.`];
      return [
        `Expected supporting-fact F1 of at least ${formatValue(threshold)}, but it is ${formatValue(f1)} (precision ${formatValue(sf.value!.precision)}, recall ${formatValue(sf.value!.recall)}).`,
        ...(sf.missing.length > 0
          ? ['Required facts not cited:', ...sf.missing.map((f) => `  ${formatFact(f)}`)]
          : []),
        ...(sf.extra.length > 0
          ? ['Cited facts not required:', ...sf.extra.map((f) => `  ${formatFact(f)}`)]
          : []),
      ];
    }),
    expected: spec.required_cites.map(formatFact),
    actual: sf.predicted.map(formatFact),
  };
}
