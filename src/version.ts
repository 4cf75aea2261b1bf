import { createRequire } from 'node:module';

/**
 * needlework's own version. Built, this file is dist/src/version.js; run from source (the tests), src/version.ts:
 * the first package.json up the tree that is needlework's own names it.
 */
export const version: string = ['../../package.json', '../package.json']
  .map((path) => {
    try {
      return createRequire(import.meta.url)(path) as { name?: string; version: string };
    } catch {
      return undefined;
    }
  })
  .find((pkg) => pkg?.name === 'needlework')!.version;
