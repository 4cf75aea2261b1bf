export { plain } from './plain.js';
export { createRecorder } from './recorder.js';
export type { RecordedCall, Recorder, RecorderOptions, StepTiming, Usage } from './types.js';
