import { citationPrecision, type PrecisionCheckOptions } from '../../checks/citations.js';
import type { EntailmentVerifier } from '../../model/entailment.js';
import {
  formatValue,
  type MatcherResult,
  type MatcherState,
  message,
  record,
  requireNumber,
  requireWorkup,
} from './helpers.js';

export interface CitationPrecisionMatcherOptions extends PrecisionCheckOptions {
  /** Scores whether a cited source entails a claim: `OnnxNliVerifier`, or any `EntailmentVerifier`. */
  verifier: EntailmentVerifier;
}

/**
 * ALCE citation precision of the note against its ledger, with an entailment model (seed 001, Stage 2), is at least
 * `min`. A failure shows each unsupported claim, its citations and its score.
 */
export async function toHaveCitationPrecision(
  this: MatcherState,
  received: unknown,
  min: unknown,
  options: CitationPrecisionMatcherOptions,
): Promise<MatcherResult> {
  const workup = requireWorkup('toHaveCitationPrecision', received);
  const bound = requireNumber('toHaveCitationPrecision', 'min', min);
  if (!options || typeof options.verifier?.score !== 'function') {
    throw new TypeError(
      'toHaveCitationPrecision: expected { verifier } with an EntailmentVerifier (score(pairs))',
    );
  }
  const { verifier, ...rest } = options;
  const { measured, result, unsupported } = await citationPrecision(workup, verifier, bound, rest);
  const pass = record(this, workup, measured);
  const value = measured.value as number | null;
  return {
    pass,
    message: message(this, '.toHaveCitationPrecision', 'min, { verifier }', (negated) => {
      if (value === null) return [`Cannot measure citation precision: ${measured.summary}.`];
      if (negated)
        return [`Expected citation precision below ${formatValue(bound)}, but it is ${formatValue(value)}.`];
      return [
        `Expected citation precision of at least ${formatValue(bound)}, but it is ${formatValue(value)} (entailed recall ${formatValue(result?.recall)}).`,
        ...(unsupported.length > 0 ? ['Unsupported claims:', ...unsupported.map((u) => `  ${u}`)] : []),
      ];
    }),
    expected: bound,
    actual: value,
  };
}
