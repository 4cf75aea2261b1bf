import type { EntailmentPair, EntailmentVerifier } from '../../model/entailment.js';
import type { SourcePosition } from '../../model/note.js';

/** A claim and the ids of the sources it cites. */
export interface CitedClaim {
  text: string;
  /**
   * The cited ids in the order written, repeats kept: as in ALCE (whose `re.findall` keeps a repeated `[1]`), a
   * repeated id is one more citation, joined into the premise again and counted again in precision's denominator.
   */
  citations: string[];
  position?: SourcePosition;
}

/**
 * What one citation of a claim counted for in citation precision:
 * - `relevant`: counted, and it supports the claim (numerator and denominator);
 * - `irrelevant`: counted, but it does not support the claim: the claim is unsupported, or (multi-citation) it
 *   alone does not entail the claim and the others without it still do, an over-citation;
 * - `uncounted`: the claim cites an id with no source, so ALCE leaves all of its citations out of the denominator;
 * - `truncated`: beyond `atMostCitations`, not looked at.
 */
export type CitationVerdict = 'relevant' | 'irrelevant' | 'uncounted' | 'truncated';

export interface CitationCheck {
  id: string;
  verdict: CitationVerdict;
  /** The verifier's score for this source alone; asked only for a supported claim with several citations. */
  alone?: number;
  /** The score for the other sources without this one; asked only when `alone` is below the threshold. */
  without?: number;
}

export interface ClaimSupport {
  claim: CitedClaim;
  /** Whether the newline-joined cited sources entail the claim. */
  supported: boolean;
  /** The verifier's score for the joined sources; null when it was not asked (see `reason`). */
  score: number | null;
  /** Why the verifier was not asked: the claim cites nothing, or cites an id with no source. */
  reason?: string;
  citations: CitationCheck[];
}

export interface CitationScores {
  /** Supported claims / claims; null when there are no claims (ALCE skips such an output). */
  recall: number | null;
  /** Relevant citations / counted citations, 0 when none was counted; null when there are no claims. */
  precision: number | null;
  /** Citations counted in precision's denominator. */
  citations: number;
  claims: ClaimSupport[];
}

export interface CitationScoreOptions {
  /** A score at or above it is entailment. @default 0.5 */
  threshold?: number;
  /** Look only at each claim's first N citations, as ALCE's `--at_most_citations` (its command line passes 3). @default no limit */
  atMostCitations?: number;
}

/**
 * ALCE's citation recall and precision (Gao et al., EMNLP 2023, arXiv:2305.14627), exactly as `compute_autoais` in
 * princeton-nlp/ALCE `eval.py` computes them with `citation=True`, for any `EntailmentVerifier`
 * (`entails` = `score >= threshold`).
 *
 * Recall: a claim is supported when the concatenation of its cited sources, joined with `\n`, entails it. A claim
 * with no citation, or with a citation that names no source, is unsupported without asking the verifier.
 *
 * Precision: the citations of claims whose citations all resolve are counted (those of a claim with a dangling id
 * are not, as in ALCE, where such a claim never adds to `total_citations`). A citation of an unsupported claim is
 * irrelevant. For a supported claim with one citation, it is relevant. For a supported claim with several, each
 * citation is relevant when it alone entails the claim (condition A) or when the others without it do not
 * (condition B); otherwise it is an over-citation, irrelevant. Precision = relevant / counted, and 0 when nothing
 * was counted. "Without it" is the citations looked at with the first occurrence of the judged id removed, joined
 * with `\n` in the order written: ALCE builds it with Python's `list.remove`, which drops the first copy, so for an id
 * cited twice the premise of either copy is the same (the second copy stays, in the first copy's stead).
 *
 * The verifier is called once per round, never once per pair: the joined sources of every claim, then each source
 * alone for every supported multi-citation claim, then the others-without-it for the citations that failed alone.
 * The sources are read with own-property lookups only, so an id such as `constructor` never finds anything.
 */
export async function citationScores(
  claims: readonly CitedClaim[],
  sources: Readonly<Record<string, string>>,
  verifier: EntailmentVerifier,
  options: CitationScoreOptions = {},
): Promise<CitationScores> {
  const threshold = options.threshold ?? 0.5;
  if (!(threshold >= 0 && threshold <= 1))
    throw new RangeError(`threshold must be in [0, 1], got ${threshold}`);
  const limit = options.atMostCitations;
  if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) {
    throw new RangeError(`atMostCitations must be a positive integer, got ${limit}`);
  }
  const source = (id: string): string | undefined => (Object.hasOwn(sources, id) ? sources[id] : undefined);
  const join = (ids: readonly string[]): string => ids.map((id) => source(id)!).join('\n');
  const entails = (score: number): boolean => score >= threshold;

  const results: ClaimSupport[] = [];
  /** The citations looked at, per claim: ALCE's `ref` after the range check and truncation. */
  const refs: string[][] = [];
  const joint: Array<{ claim: number; pair: EntailmentPair }> = [];
  claims.forEach((claim, index) => {
    const hypothesis = claim.text.trim();
    const result: ClaimSupport = { claim, supported: false, score: null, citations: [] };
    results.push(result);
    refs.push([]);
    if (claim.citations.length === 0) {
      result.reason = 'no citation';
      return;
    }
    if (claim.citations.some((id) => source(id) === undefined)) {
      const missing = claim.citations.filter((id) => source(id) === undefined);
      result.reason = `cites ${[...new Set(missing)].join(', ')}, which no source has`;
      result.citations = claim.citations.map((id) => ({ id, verdict: 'uncounted' }));
      return;
    }
    const ref = limit === undefined ? [...claim.citations] : claim.citations.slice(0, limit);
    refs[index] = ref;
    result.citations = claim.citations.map((id, i) => ({
      id,
      verdict: i < ref.length ? 'irrelevant' : 'truncated',
    }));
    joint.push({ claim: index, pair: { premise: join(ref), hypothesis } });
  });

  const jointScores = await ask(verifier, joint);
  const alone: Array<{ claim: number; at: number; pair: EntailmentPair }> = [];
  joint.forEach(({ claim, pair }, i) => {
    const result = results[claim]!;
    result.score = jointScores[i]!;
    result.supported = entails(result.score);
    if (!result.supported) return;
    const ref = refs[claim]!;
    if (ref.length === 1) {
      result.citations[0]!.verdict = 'relevant';
      return;
    }
    ref.forEach((id, at) => {
      alone.push({ claim, at, pair: { premise: join([id]), hypothesis: pair.hypothesis } });
    });
  });

  const aloneScores = await ask(verifier, alone);
  const without: Array<{ claim: number; at: number; pair: EntailmentPair }> = [];
  alone.forEach(({ claim, at, pair }, i) => {
    const check = results[claim]!.citations[at]!;
    check.alone = aloneScores[i]!;
    if (entails(check.alone)) {
      check.verdict = 'relevant';
      return;
    }
    // ALCE's `subset_exclude.remove(psgs_id)`: Python's `list.remove` drops the first copy of the id, which is not
    // the one judged when the id is repeated; the rest keep their order.
    const others = [...refs[claim]!];
    others.splice(others.indexOf(others[at]!), 1);
    without.push({ claim, at, pair: { premise: join(others), hypothesis: pair.hypothesis } });
  });

  const withoutScores = await ask(verifier, without);
  without.forEach(({ claim, at }, i) => {
    const check = results[claim]!.citations[at]!;
    check.without = withoutScores[i]!;
    check.verdict = entails(check.without) ? 'irrelevant' : 'relevant';
  });

  if (claims.length === 0) return { recall: null, precision: null, citations: 0, claims: results };
  let counted = 0;
  let relevant = 0;
  for (const result of results) {
    for (const check of result.citations) {
      if (check.verdict === 'relevant' || check.verdict === 'irrelevant') counted++;
      if (check.verdict === 'relevant') relevant++;
    }
  }
  const supported = results.filter((r) => r.supported).length;
  return {
    recall: supported / claims.length,
    precision: counted > 0 ? relevant / counted : 0,
    citations: counted,
    claims: results,
  };
}

/** One verifier round; skipped when there is nothing to ask. */
async function ask<T extends { pair: EntailmentPair }>(
  verifier: EntailmentVerifier,
  items: readonly T[],
): Promise<number[]> {
  if (items.length === 0) return [];
  const scores = await verifier.score(items.map((item) => item.pair));
  if (!Array.isArray(scores) || scores.length !== items.length || scores.some((s) => typeof s !== 'number')) {
    throw new TypeError(
      `EntailmentVerifier.score returned ${Array.isArray(scores) ? `${scores.length} scores` : typeof scores} for ${items.length} pairs`,
    );
  }
  return scores;
}
