// Citation criteria for any note that cites its ledger (seed 001, Stages 1 and 2; ALCE).

import type { CitationPrecision } from '../entailment/citations/precision.js';
import { plural } from '../io/plural.js';
import { citationRecall as structuralRecall } from '../metrics/citations/recall.js';
import { resolveCitations } from '../metrics/citations/resolve.js';
import { claimUnits } from '../metrics/citations/units.js';
import { asserts, indexUnits } from '../metrics/needle/cited-facts.js';
import type { EntailmentVerifier } from '../model/entailment.js';
import { type Fact, factKey, formatFact } from '../model/fact.js';
import type { Workup } from '../model/workup.js';
import { formatValue } from './format.js';
import { type Measured, verdictOf } from './measure.js';

/** Why citation precision was not measured, with what measures it. */
export const PRECISION_NOT_MEASURED =
  'not measured: citation precision needs an NLI model (needlework run --entail, score --entail, or the plugin’s entail option)';

/** Every `[cite:gN]` names a ledger entry (seed 001's Phase 1 gate: no invented source). */
export function citationsResolve(workup: Workup): Measured {
  const result = resolveCitations(workup);
  return {
    criterion: 'citations-resolve',
    metric: 'citations_resolved',
    value: result.value,
    verdict: verdictOf(result.value),
    summary:
      result.value === null
        ? (result.reason ?? 'not measured')
        : result.value
          ? `all ${plural(result.resolved.length, 'citation')} resolve`
          : `${result.dangling.length} dangling: ${result.dangling
              .map((d) => `${d.id} at line ${d.position.line}:${d.position.column}`)
              .join(', ')}`,
    evidence: { resolved: result.resolved.length, dangling: result.dangling },
  };
}

/** Structural citation recall (seed 001, Stage 1): the share of claim sentences that carry a citation. */
export function citationRecall(workup: Workup, min = 1): Measured {
  const recall = workup.note ? structuralRecall(workup.note) : undefined;
  const value = recall?.value ?? null;
  const uncited = recall?.uncited ?? [];
  return {
    criterion: 'citation-recall',
    metric: 'citation_recall',
    value,
    threshold: min,
    comparator: '>=',
    verdict: verdictOf(value, min),
    summary: !recall
      ? 'the workup has no note'
      : value === null
        ? (recall.reason ?? 'not measured')
        : `${recall.covered} of ${recall.total} claim sentences cited (${formatValue(value)}, at least ${formatValue(min)} required)${
            uncited.length > 0
              ? `; uncited: ${uncited.map((u) => `line ${u.line} "${u.text.trim()}"`).join('; ')}`
              : ''
          }`,
    evidence: {
      covered: recall?.covered ?? 0,
      total: recall?.total ?? 0,
      uncited: uncited.map((u) => ({
        line: u.line,
        column: u.column,
        section: u.section,
        text: u.text.trim(),
      })),
    },
  };
}

export interface PrecisionCheckOptions {
  /** An entailment probability at or above it supports a claim. @default 0.5 */
  threshold?: number;
  /** Check hedged claims as their bare proposition (seed 001). @default true */
  reduceHedges?: boolean;
}

/**
 * ALCE citation precision with an entailment model (seed 001, Stage 2) is at least `min`. Without a verifier the
 * criterion is not measured, and says what measures it. Returns the model's result too, for a matcher's message.
 */
export async function citationPrecision(
  workup: Workup,
  verifier: EntailmentVerifier | undefined,
  min = 1,
  options: PrecisionCheckOptions = {},
): Promise<{ measured: Measured; result?: CitationPrecision; unsupported: string[] }> {
  const base = {
    criterion: 'citation-precision',
    metric: 'citation_precision',
    threshold: min,
    comparator: '>=' as const,
  };
  if (!verifier) {
    return {
      measured: { ...base, value: null, verdict: 'not-applicable', summary: PRECISION_NOT_MEASURED },
      unsupported: [],
    };
  }
  const threshold = options.threshold ?? 0.5;
  // Loaded only when a verifier is given: the entailment code is an optional part of the install.
  const {
    citationPrecision: measure,
    describeUnsupported,
    unsupportedEvidence,
  } = await import('../entailment/citations/precision.js');
  const result = await measure(workup, verifier, {
    threshold,
    ...(options.reduceHedges !== undefined && { reduceHedges: options.reduceHedges }),
  });
  const value = workup.note ? result.precision : null;
  const unsupported = describeUnsupported(result, threshold);
  return {
    measured: {
      ...base,
      value,
      verdict: verdictOf(value, min),
      summary: !workup.note
        ? 'the workup has no note'
        : value === null
          ? 'no claim cites a source'
          : `precision ${formatValue(value)}, recall ${formatValue(result.recall)}; ${result.unsupported.length} unsupported claims`,
      evidence: { unsupported: unsupportedEvidence(result) },
      ...(result.recall !== null && { scores: { entailed_recall: result.recall } }),
    },
    result,
    unsupported,
  };
}

/**
 * With a ledger id: some claim of the note cites that entry, and the entry exists. With a fact: a claim asserts it
 * (names its subject and object) and cites a ledger entry whose results hold it, as a needle's `required_cites`
 * demands. The evidence gives the lines that cite it.
 */
export function cites(
  workup: Workup,
  target: string | Pick<Fact, 'subject' | 'relation' | 'object'>,
): Measured {
  let pass: boolean;
  let what: string;
  let lines: number[];
  if (typeof target === 'string') {
    what = `ledger entry ${target}`;
    const exists = workup.ledger.some((e) => e.id === target);
    lines = (workup.note?.citations ?? []).filter((c) => c.id === target).map((c) => c.position.line);
    pass = exists && lines.length > 0;
  } else {
    what = formatFact(target);
    const key = factKey(target);
    const holders = new Set(
      workup.ledger.filter((e) => e.results.some((f) => factKey(f) === key)).map((e) => e.id),
    );
    const units = workup.note ? indexUnits(claimUnits(workup.note)) : [];
    lines = units
      .filter((u) => u.unit.citations.some((id) => holders.has(id)) && asserts(u, target))
      .map((u) => u.unit.position.line);
    pass = lines.length > 0;
  }
  return {
    criterion: 'cites',
    metric: 'cites',
    value: workup.note ? pass : null,
    verdict: workup.note ? (pass ? 'pass' : 'fail') : 'not-applicable',
    summary: !workup.note
      ? 'the workup has no note'
      : pass
        ? `cites ${what} on line ${lines.join(', ')}`
        : `never cites ${what}`,
    evidence: { target, lines },
  };
}
