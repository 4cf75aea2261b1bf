import { createRequire } from 'node:module';
import type { Ajv, Options } from 'ajv';

const require = createRequire(import.meta.url);

/**
 * A new Ajv, its package loaded on the first call. The shipped schemas are compiled ahead of time
 * (`validators.generated.ts`); the few compiled at run time (a judge's verdict, a trend run being imported) are
 * needed by few runs, and loading Ajv cost every `needlework run` 20-30 ms in each of its two threads.
 */
export function newAjv(options: Options): Ajv {
  const { Ajv: AjvClass } = require('ajv') as typeof import('ajv');
  return new AjvClass(options);
}
