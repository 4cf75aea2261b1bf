export type { BackoffOptions } from './backoff.js';
export { type CanonicalRequest, canonicalRequest, requestHash } from './canonical.js';
export { Cassette, type CassetteEntry, type CassetteFile, type RecordedVerdict } from './cassette.js';
export {
  CASSETTE_MODES,
  CassetteJudge,
  type CassetteJudgeOptions,
  type CassetteMode,
} from './cassette-judge.js';
export { describeContext, formatJudgeError } from './describe.js';
export { createJudgeFromSpec, type JudgeSpecOptions } from './from-spec.js';
export {
  DEFAULT_BASE_URL,
  DEFAULT_JUDGE_MODEL,
  OpenAICompatibleJudge,
  type OpenAICompatibleJudgeOptions,
} from './openai.js';
export { costUsd, type ModelPrice, type PriceTable } from './pricing.js';
export { redactServerText, secretForms } from './server-text.js';
export { type JudgeTimeoutOptions, judgeTestTimeout } from './test-timeout.js';
export type * from './types.js';
export {
  readVerdict,
  VERDICT_EXPECTED,
  VERDICT_SCHEMA,
  VERDICT_SCHEMA_NAME,
  type VerdictCheck,
} from './verdict.js';
