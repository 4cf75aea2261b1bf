export type { EntailmentPair, EntailmentVerifier } from '../model/entailment.js';
export { DEFAULT_CACHE_ROOT, ScoreCache } from './cache/score-cache.js';
export { type HedgeReduction, reduceHedges } from './citations/hedges.js';
export {
  type CheckedClaim,
  type CitationPrecision,
  type CitationPrecisionOptions,
  citationPrecision,
  describeUnsupported,
  renderPremise,
} from './citations/precision.js';
export { createVerifierFromOptions, type VerifierOptions } from './create.js';
export type { ScoreHead } from './onnx/head.js';
export {
  type LabelScores,
  type OnnxNliOptions,
  OnnxNliVerifier,
  type VerifierStats,
} from './onnx/verifier.js';
export { MODEL_ENV, modelCacheDir, type ResolveModelOptions, resolveModel } from './resolve.js';
