import {
  type CitationScores,
  type ClaimSupport,
  citationScores,
  citedClaims,
  ledgerSources,
} from '../../metrics/citations/index.js';
import type { EntailmentVerifier } from '../../model/entailment.js';
import type { LedgerEntry } from '../../model/ledger.js';
import type { Workup } from '../../model/workup.js';
import { reduceHedges } from './hedges.js';

/**
 * The premise an NLI model reads for a ledger entry: its facts as sentences ("Halberd member of Ash Cell.") and its
 * passage. The metrics' `ledgerSources` is the one definition, so the model and ALCE scoring read the same text.
 */
export function renderPremise(entry: LedgerEntry): string {
  return ledgerSources([entry])[entry.id] ?? '';
}

export interface CitationPrecisionOptions {
  /** An entailment probability at or above it supports the claim. @default 0.5 */
  threshold?: number;
  /** Look only at each claim's first N citations (ALCE's `--at_most_citations`). @default no limit */
  atMostCitations?: number;
  /**
   * Check hedged claims as their bare proposition ("we assess with moderate confidence that they likely share"
   * becomes "they share"), as seed 001 decides; false checks every claim as written. @default true
   */
  reduceHedges?: boolean;
}

/** A claim's result, with the claim as the note wrote it and what hedge reduction took out. */
export interface CheckedClaim extends ClaimSupport {
  /** The claim as written in the note; `claim.text` is what the model was asked about. */
  written: string;
  /** The estimative phrases taken out before NLI (empty when none, or when reduction is off). */
  estimative: string[];
}

export interface CitationPrecision extends Omit<CitationScores, 'claims'> {
  claims: CheckedClaim[];
  /** The claims the cited sources do not entail (or that cite nothing), for a failure message. */
  unsupported: CheckedClaim[];
}

/**
 * ALCE citation recall and precision of a workup's note against its own ledger, with an entailment verifier: the
 * claims are the note's claim units (a segment's trailing citation covers it, as Stage 1 defines; see
 * `citedClaims`), the sources the ledger entries rendered by `renderPremise`. A workup with no note has no claims,
 * and its recall and precision are null.
 */
export async function citationPrecision(
  workup: Workup,
  verifier: EntailmentVerifier,
  options: CitationPrecisionOptions = {},
): Promise<CitationPrecision> {
  const written = workup.note ? citedClaims(workup.note) : [];
  const reduce = options.reduceHedges !== false;
  const reductions = written.map((claim) => (reduce ? reduceHedges(claim.text) : undefined));
  const claims = written.map((claim, i) => ({ ...claim, text: reductions[i]?.proposition ?? claim.text }));
  const scores = await citationScores(claims, ledgerSources(workup.ledger), verifier, {
    ...(options.threshold !== undefined ? { threshold: options.threshold } : {}),
    ...(options.atMostCitations !== undefined ? { atMostCitations: options.atMostCitations } : {}),
  });
  const checked = scores.claims.map(
    (result, i): CheckedClaim => ({
      ...result,
      written: written[i]!.text,
      estimative: reductions[i]?.removed ?? [],
    }),
  );
  return { ...scores, claims: checked, unsupported: checked.filter((c) => !c.supported) };
}

/**
 * One line per unsupported claim: where it stands, the claim as written, what it cites and the score, e.g.
 * `12:3 "Kestrel Group owns the Compound-Alpha facility." cites g6: entailment 0.04 (threshold 0.5)`.
 */
/**
 * Each unsupported claim as evidence a report renders without parsing text back: where it stands in the note
 * (1-based, absent for a claim with no position), the claim as written, what it cites, and its score or the reason
 * it has none.
 */
export function unsupportedEvidence(result: CitationPrecision): UnsupportedClaimEvidence[] {
  return result.unsupported.map((claim) => ({
    ...(claim.claim.position && { line: claim.claim.position.line, column: claim.claim.position.column }),
    text: claim.written,
    ...(claim.claim.text !== claim.written && { checkedAs: claim.claim.text }),
    citations: [...claim.claim.citations],
    score: claim.score,
    ...(claim.reason !== undefined && { reason: claim.reason }),
  }));
}

/** One unsupported claim in a check's `evidence.unsupported`. */
export interface UnsupportedClaimEvidence {
  line?: number;
  column?: number;
  /** The claim as the note writes it. */
  text: string;
  /** The text the model was asked about, when hedges were taken out of it. */
  checkedAs?: string;
  /** The ledger ids it cites. */
  citations: string[];
  /** The entailment probability, or null when it was not scored. */
  score: number | null;
  reason?: string;
}

export function describeUnsupported(result: CitationPrecision, threshold = 0.5): string[] {
  return result.unsupported.map((claim) => {
    const at = claim.claim.position ? `${claim.claim.position.line}:${claim.claim.position.column} ` : '';
    const cites =
      claim.claim.citations.length > 0 ? `cites ${claim.claim.citations.join(', ')}` : 'cites nothing';
    const score =
      claim.score === null
        ? (claim.reason ?? 'not scored')
        : `entailment ${claim.score.toFixed(2)} (threshold ${threshold})`;
    const asked = claim.claim.text !== claim.written ? ` [checked as "${claim.claim.text}"]` : '';
    return `${at}"${claim.written}"${asked} ${cites}: ${score}`;
  });
}
