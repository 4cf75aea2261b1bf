// needlework/harness/langchain: records LangChain.js / LangGraph.js runs (`@langchain/core`, an optional peer) as
// workups.

export type { HarnessOptions } from '../runs.js';
export { cassetteChatModel } from './cassette.js';
export { type LangChainRun, WorkupCallbackHandler, type WorkupCallbackHandlerOptions } from './handler.js';
