export {
  type ConfidenceHit,
  type ConfusionHit,
  type HedgeHit,
  type LikelihoodHit,
  lintEstimativeLanguage,
  type PhraseHit,
  type TradecraftReport,
} from './lint.js';
export {
  BAND_PATTERNS,
  CONFIDENCE_PATTERNS,
  CONFUSIONS,
  type ConfidenceLevel,
  type ConfusionRule,
  HEDGES,
  LIKELIHOOD_BANDS,
  type LikelihoodBand,
} from './terms.js';
