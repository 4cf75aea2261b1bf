import { citationPrecision, describeUnsupported } from '../../entailment/citations/precision.js';
import type { EntailmentVerifier } from '../../model/entailment.js';
import {
  fmt,
  type MatcherResult,
  type MatcherState,
  message,
  record,
  requireNumber,
  requireWorkup,
} from './helpers.js';

export interface CitationPrecisionMatcherOptions {
  /** Scores whether a cited source entails a claim: `OnnxNliVerifier`, or any `EntailmentVerifier`. */
  verifier: EntailmentVerifier;
  /** An entailment probability at or above it supports a claim. @default 0.5 */
  threshold?: number;
  /** Check hedged claims as their bare proposition (seed 001). @default true */
  reduceHedges?: boolean;
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
  const threshold = options.threshold ?? 0.5;
  const result = await citationPrecision(workup, options.verifier, {
    threshold,
    ...(options.reduceHedges !== undefined && { reduceHedges: options.reduceHedges }),
  });
  const value = workup.note ? result.precision : null;
  const pass = value !== null && value >= bound;
  const unsupported = describeUnsupported(result, threshold);
  record(this, workup, {
    criterion: 'citation-precision',
    metric: 'citation_precision',
    value,
    threshold: bound,
    comparator: '>=',
    met: pass,
    summary: `precision ${fmt(value)}, recall ${fmt(result.recall)}; ${result.unsupported.length} unsupported claims`,
    evidence: { unsupported },
    ...(result.recall !== null && { scores: { entailed_recall: result.recall } }),
  });
  return {
    pass,
    message: message(this, '.toHaveCitationPrecision', 'min, { verifier }', (negated) => {
      if (value === null) return ['Cannot measure citation precision: the workup has no note.'];
      if (negated) return [`Expected citation precision below ${fmt(bound)}, but it is ${fmt(value)}.`];
      return [
        `Expected citation precision of at least ${fmt(bound)}, but it is ${fmt(value)} (entailed recall ${fmt(result.recall)}).`,
        ...(unsupported.length > 0 ? ['Unsupported claims:', ...unsupported.map((u) => `  ${u}`)] : []),
      ];
    }),
    expected: bound,
    actual: value,
  };
}
