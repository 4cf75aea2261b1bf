/** A claim split into what an NLI model should check and what the tradecraft lint should check. */
export interface HedgeReduction {
  /** The bare proposition, as the NLI model reads it. */
  proposition: string;
  /** The estimative and confidence phrases taken out, as written (their calibration is the tradecraft lint's job). */
  removed: string[];
  /**
   * Likelihood terms of ICD 203's lower bands left in place ("unlikely", "roughly even chance", "remote"): taking
   * them out would assert the very thing the claim doubts, so such a claim is checked as written.
   */
  kept: string[];
}

/** Marks where a lead-in was taken out, so the proposition's first word is capitalised there and only there. */
const LEAD = '\u0001';
const CONFIDENCE = '(?:low|moderate|medium|high)';
const HIGH_BAND =
  '(?:almost certain(?:ly)?|nearly certain(?:ly)?|very likely|highly likely|highly probabl[ey]|likely|probabl[ey])';

/**
 * Rewrites applied in order, each as often as it matches. Lead-ins that frame a judgment go first ("we assess with
 * moderate confidence that P" is P), then confidence qualifiers, then the high-band likelihood words around a verb
 * ("is likely to be" is "is"), then the bare adverbs and adjectives ("they likely share" is "they share").
 */
const REWRITES: ReadonlyArray<{ pattern: RegExp; replace: string }> = [
  {
    pattern: new RegExp(
      `\\b(?:we|i|analysts?|the analysts?|this (?:note|assessment)) (?:assess(?:es)?|judge[sd]?|estimate[sd]?|believe[sd]?|conclude[sd]?|think|assessed)(?:,? with ${CONFIDENCE} confidence,?)? that\\s+`,
      'giu',
    ),
    replace: LEAD,
  },
  {
    pattern: /\b(?:we|i) (?:are|am) (?:highly |moderately )?confident that\s+/giu,
    replace: LEAD,
  },
  {
    pattern: new RegExp(`\\b(?:we have|there is|i have) ${CONFIDENCE} confidence that\\s+`, 'giu'),
    replace: LEAD,
  },
  { pattern: new RegExp(`\\bit is ${HIGH_BAND} that\\s+`, 'giu'), replace: LEAD },
  { pattern: new RegExp(`,?\\s*\\bwith ${CONFIDENCE} confidence\\b,?`, 'giu'), replace: '' },
  { pattern: /\b(is|are|was|were) (?:very |highly )?(?:likely|probable) to be\b/giu, replace: '$1' },
  { pattern: /\b(?:is|are|was|were) (?:very |highly )?(?:likely|probable) to\s+/giu, replace: '' },
  { pattern: new RegExp(`,?\\s*\\b${HIGH_BAND}\\b,?`, 'giu'), replace: ' ' },
];

/** ICD 203 likelihood terms of bands 1-4: doubt, not assertion. */
const LOW_BAND =
  /\b(?:almost no chance|remote(?= (?:chance|possibility|likelihood|prospect))|very unlikely|highly improbabl[ey]|unlikely|improbabl[ey]|roughly even (?:chance|odds))\b/giu;

/**
 * Reduces a hedged claim to its proposition before NLI. Entailment models are trained on factual entailment and
 * misjudge estimative language (seed 001, Thread 1's caveat), so "We assess with moderate confidence that they likely
 * share access to the site" is checked as "They share access to the site", and the estimative part goes to the
 * tradecraft lint instead (seed 001's decision for Stage 2).
 */
export function reduceHedges(claim: string): HedgeReduction {
  const kept = [...claim.matchAll(LOW_BAND)].map((m) => m[0]);
  if (kept.length > 0) return { proposition: claim, removed: [], kept };
  const removed: string[] = [];
  let text = claim;
  for (const { pattern, replace } of REWRITES) {
    text = text.replace(pattern, (match, ...groups) => {
      removed.push(match.replace(/^[\s,]+|[\s,]+$/g, ''));
      return replace === '$1' ? String(groups[0]) : replace;
    });
  }
  if (removed.length === 0) return { proposition: claim, removed, kept };
  const proposition = text
    .replace(/\s+([,.;:!?])/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .replace(/^[\s,]+/, '')
    .replace(
      /(^|[.!?]\s+)\u0001\s*(\p{Ll})/gu,
      (_, lead: string, letter: string) => lead + letter.toUpperCase(),
    )
    .replaceAll(LEAD, '')
    .trim();
  return { proposition, removed, kept };
}
