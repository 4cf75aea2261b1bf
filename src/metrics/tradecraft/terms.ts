/**
 * The estimative vocabulary of ICD 203 ("Analytic Standards", Intelligence Community Directive 203, 2015, section
 * D.6.e(2)(a)): seven likelihood bands, each with its two terms and the probability range they stand for. These
 * terms, and only these, are estimative language; seed 001, Thread 2 maps each to its band because language models
 * are miscalibrated on words of estimative probability (arXiv:2405.15185).
 */
export interface LikelihoodBand {
  /** 1 (least likely) to 7 (most likely). */
  band: 1 | 2 | 3 | 4 | 5 | 6 | 7;
  /** ICD 203's two terms for the band, as the directive writes them. */
  terms: readonly [string, string];
  /** The probability range, as fractions: [0.01, 0.05] for 1-5%. */
  range: readonly [number, number];
}

export const LIKELIHOOD_BANDS: readonly LikelihoodBand[] = [
  { band: 1, terms: ['almost no chance', 'remote'], range: [0.01, 0.05] },
  { band: 2, terms: ['very unlikely', 'highly improbable'], range: [0.05, 0.2] },
  { band: 3, terms: ['unlikely', 'improbable'], range: [0.2, 0.45] },
  { band: 4, terms: ['roughly even chance', 'roughly even odds'], range: [0.45, 0.55] },
  { band: 5, terms: ['likely', 'probable'], range: [0.55, 0.8] },
  { band: 6, terms: ['very likely', 'highly probable'], range: [0.8, 0.95] },
  { band: 7, terms: ['almost certain', 'nearly certain'], range: [0.95, 0.99] },
];

/**
 * The spellings recognised for each band: ICD 203's terms and their adverbs ("probably", "improbably", "almost
 * certainly", "nearly certainly"). "Remote" counts only in estimative use ("a remote chance", "the possibility is
 * remote"), so "remote access" is not read as 1-5%.
 */
export const BAND_PATTERNS: ReadonlyArray<{ band: LikelihoodBand['band']; pattern: string }> = [
  { band: 1, pattern: 'almost no chance' },
  { band: 1, pattern: 'remote(?= (?:chance|possibility|likelihood|prospect))' },
  { band: 1, pattern: '(?<=(?:is|are|was|were|remains|seems) )remote' },
  { band: 2, pattern: 'very unlikely' },
  { band: 2, pattern: 'highly improbabl[ey]' },
  { band: 3, pattern: 'unlikely' },
  { band: 3, pattern: 'improbabl[ey]' },
  { band: 4, pattern: 'roughly even (?:chance|odds)' },
  { band: 5, pattern: 'likely' },
  { band: 5, pattern: 'probabl[ey]' },
  { band: 6, pattern: 'very likely' },
  { band: 6, pattern: 'highly probabl[ey]' },
  { band: 7, pattern: '(?:almost|nearly) certain(?:ly)?' },
];

/**
 * Hedges that are not ICD 203 terms, with the standard wording to use instead. Modal verbs and hedging adverbs
 * carry no probability a reader can hold the analyst to ("could" spans 1% to 99%); intensified or invented
 * variants of the standard terms ("highly likely", "fairly likely", "more likely than not") blur the bands; and
 * words of absolute certainty claim more than the top band's 99%. "may" is matched only in lower case, so the
 * month ("seen in May") is left alone.
 */
export const HEDGES: ReadonlyArray<{ pattern: string; suggestion: string; caseSensitive?: boolean }> = [
  { pattern: 'highly likely', suggestion: 'very likely (80-95%)' },
  { pattern: 'highly unlikely', suggestion: 'very unlikely (5-20%)' },
  {
    pattern: '(?:fairly|quite|somewhat|rather|reasonably) (?:likely|unlikely|probable)',
    suggestion: 'an ICD 203 term',
  },
  { pattern: 'more likely than not', suggestion: 'likely (55-80%) or roughly even chance (45-55%)' },
  { pattern: 'even chance', suggestion: 'roughly even chance (45-55%)' },
  { pattern: 'might', suggestion: 'an ICD 203 likelihood term' },
  { pattern: 'could', suggestion: 'an ICD 203 likelihood term' },
  { pattern: 'may', suggestion: 'an ICD 203 likelihood term', caseSensitive: true },
  { pattern: 'possibl[ey]', suggestion: 'an ICD 203 likelihood term' },
  { pattern: 'perhaps', suggestion: 'an ICD 203 likelihood term' },
  { pattern: 'maybe', suggestion: 'an ICD 203 likelihood term' },
  { pattern: 'conceivabl[ey]', suggestion: 'an ICD 203 likelihood term' },
  { pattern: 'presumabl[ey]', suggestion: 'an ICD 203 likelihood term' },
  { pattern: 'potentially', suggestion: 'an ICD 203 likelihood term' },
  { pattern: 'plausibl[ey]', suggestion: 'an ICD 203 likelihood term' },
  { pattern: 'seemingly', suggestion: 'an ICD 203 likelihood term' },
  { pattern: 'apparently', suggestion: 'an ICD 203 likelihood term' },
  { pattern: 'chances are', suggestion: 'an ICD 203 likelihood term' },
  {
    pattern: '(?:certainly|definitely|undoubtedly|surely|without (?:a )?doubt)',
    suggestion: 'almost certainly (95-99%)',
  },
];

export type ConfidenceLevel = 'low' | 'moderate' | 'high';

/**
 * The analytic-confidence axis (ICD 203 D.6.e(2)(a): confidence in the sources and reasoning behind a judgment,
 * expressed as low, moderate or high, never as a likelihood): "moderate confidence", "high-confidence",
 * "confidence is low", "highly confident", "moderately confident".
 */
export const CONFIDENCE_PATTERNS: ReadonlyArray<{ pattern: string; level?: ConfidenceLevel }> = [
  { pattern: '(low|moderate|high)(?:-| )confidence' },
  { pattern: 'confidence (?:is|was|remains|level is) (low|moderate|high)' },
  { pattern: 'highly confident', level: 'high' },
  { pattern: 'moderately confident', level: 'moderate' },
];

export type ConfusionRule =
  | 'likelihood-as-confidence'
  | 'numeric-confidence'
  | 'confidence-scale-as-likelihood';

/**
 * Likelihood and confidence confused in one phrase. ICD 203 keeps the two apart: a judgment is "likely", and it is
 * held "with moderate confidence"; "likely, with high confidence" is correct. Flagged:
 * - `likelihood-as-confidence`: a likelihood term or likelihood word qualifies confidence ("probable confidence",
 *   "likely confidence", "high likelihood confidence");
 * - `numeric-confidence`: confidence given as a number or percentage, which is a probability ("confidence of
 *   80%", "90% confidence", "95 percent confident");
 * - `confidence-scale-as-likelihood`: the confidence scale applied to likelihood ("high likelihood", "low
 *   probability", "moderate chance").
 */
export const CONFUSIONS: ReadonlyArray<{ rule: ConfusionRule; pattern: string; message: string }> = [
  {
    rule: 'likelihood-as-confidence',
    pattern:
      '(?:(?:almost|nearly) certain(?:ly)?|very likely|highly probable|likely|probable|unlikely|improbable|very unlikely|(?:high|moderate|medium|low) (?:likelihood|probability)|likelihood|probability) (?:of )?confidence',
    message: 'a likelihood term qualifies confidence; state likelihood and confidence separately',
  },
  {
    rule: 'numeric-confidence',
    pattern: '\\d+(?:\\.\\d+)?(?: ?%| percent| per cent) (?:confidence|confident|certainty|certain)',
    message: 'confidence given as a probability; use low, moderate or high confidence',
  },
  {
    rule: 'numeric-confidence',
    pattern: 'confidence (?:level )?(?:of|at|is|was) \\d+(?:\\.\\d+)?(?: ?%| percent| per cent)?',
    message: 'confidence given as a probability; use low, moderate or high confidence',
  },
  {
    rule: 'confidence-scale-as-likelihood',
    pattern: '(?:high|moderate|medium|low) (?:likelihood|probability|chance|odds)',
    message: 'the confidence scale applied to likelihood; use an ICD 203 likelihood term',
  },
];
