export { plain } from '../workup/plain.js';
export { createRecorder } from './recorder.js';
export type { RecordedCall, Recorder, RecorderOptions, StepTiming, Usage } from './types.js';
