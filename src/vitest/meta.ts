import type {} from 'vitest';
import type { Check } from '../model/check.js';
import type { WorkupEnvironment } from '../workup/environment.js';

export type { Check, CheckMeta } from '../model/check.js';

declare module 'vitest' {
  interface TaskMeta {
    /** The check a needlework test decided, for the reporters (see `Check`). */
    needlework?: Check;
    /**
     * On the describe of one workup's tests (and so on its tests): the workup's folder or file, as its checks'
     * `workupPath` gives it. Reporters read it when the test module is collected, to start reading the workup before
     * its tests run.
     */
    needleworkWorkup?: string;
    /**
     * Beside `needleworkWorkup`: the model and agent version the workup's meta names (`workupEnvironment`; empty when
     * it names neither), so that the reporters tell what ran without reading every workup's meta again.
     */
    needleworkEnvironment?: WorkupEnvironment;
  }
}
