// `needlework/harness/ai-sdk`: record a Vercel AI SDK (`ai`) agent run as a workup. Imports nothing from `ai`.

export { type AiSdkModel, cassetteModel, cassetteTools } from './cassette.js';
export { type AiSdkOptions, type AiSdkRecording, fromAiSdkResult, recordAiSdk } from './record.js';
export { type NoteOption, recordStep } from './step.js';
export type { AiSdkContentPart, AiSdkResult, AiSdkStep, AiSdkUsage } from './types.js';
