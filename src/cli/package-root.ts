import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/**
 * needlework's own package folder: the one holding its package.json and, in the published package, `dist`,
 * `needles` and `fixtures/workups/grounded`. Built, this file is dist/src/cli/package-root.js; run from source (the
 * tests), src/cli/package-root.ts: take the first package.json up the tree that is needlework's.
 */
export function packageRoot(): string {
  if (root) return root;
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (
      existsSync(file) &&
      (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === 'needlework'
    ) {
      root = dir;
      return root;
    }
  }
  throw new Error(`needlework's package.json not found above ${fileURLToPath(import.meta.url)}`);
}
