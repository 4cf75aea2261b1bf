// `needlework/vitest`: the Vitest plugin, the matchers' types, and (as a setup file) the matchers' registration.
import './setup.js';

export {
  type Agent,
  type AgentFixtures,
  type AgentRun,
  type AgentTestOptions,
  agentTest,
  describeAgent,
  type RunAgent,
  type RunAgentOptions,
} from './agent.js';
export * as matchers from './matchers/index.js';
export type { CitationPrecisionMatcherOptions } from './matchers/to-have-citation-precision.js';
export type { RubricMatcherOptions } from './matchers/to-score-rubric.js';
export type { CheckMeta } from './meta.js';
export { type NeedleworkOptions, needlework } from './plugin.js';
export { type NeedleworkReportersOptions, needleworkReporters, type ReporterEntry } from './reporters.js';
export type { NeedleworkMatchers, PathArgument, ReferenceArgument } from './types.js';
