export {
  type CitationCheck,
  type CitationScoreOptions,
  type CitationScores,
  type CitationVerdict,
  type CitedClaim,
  type ClaimSupport,
  citationScores,
} from './alce.js';
export { type CitationRecall, citationRecall, sentenceCitation } from './recall.js';
export { type CitationReference, type CitationResolution, resolveCitations } from './resolve.js';
export { citedClaims, ledgerSources } from './sources.js';
export { findUncitedClaims, type UncitedClaim } from './uncited.js';
export { type ClaimUnit, claimUnits } from './units.js';
