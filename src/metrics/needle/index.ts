export { traversePath } from './path.js';
export { scoreNeedle } from './score.js';
export type * from './types.js';
