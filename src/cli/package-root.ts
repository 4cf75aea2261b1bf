import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What `packageRoot` reads of needlework's own package.json. */
export interface OwnPackage {
  /** The folder holding needlework's package.json (and, in the published package, `dist`, `needles`, `fixtures`). */
  root: string;
  version: string;
}

let own: OwnPackage | undefined;

/**
 * needlework's own package folder. Built, this file is dist/src/cli/package-root.js; run from source (the tests),
 * src/cli/package-root.ts: take the first package.json up the tree that is needlework's.
 */
export function ownPackage(): OwnPackage {
  if (own) return own;
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === 'needlework') {
      own = { root: dir, version: pkg.version ?? '0.0.0' };
      return own;
    }
  }
  throw new Error(`needlework's package.json not found above ${fileURLToPath(import.meta.url)}`);
}
