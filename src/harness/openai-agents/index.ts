// needlework/harness/openai-agents: records OpenAI Agents SDK runs (`@openai/agents`, an optional peer) as workups.

export type { HarnessOptions } from '../runs.js';
export { cassetteModel } from './cassette.js';
export { type AgentsRun, WorkupProcessor, type WorkupProcessorOptions } from './processor.js';
export { traceModel } from './traced-model.js';
