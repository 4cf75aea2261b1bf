import type {} from 'vitest';
import type { Check } from '../model/check.js';

export type { Check, CheckMeta } from '../model/check.js';

declare module 'vitest' {
  interface TaskMeta {
    /** The check a needlework test decided, for the reporters (see `Check`). */
    needlework?: Check;
  }
}
