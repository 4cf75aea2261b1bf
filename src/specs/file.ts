import { readFile } from 'node:fs/promises';
import { UserError } from '../errors/index.js';
import type { Spec } from '../model/spec.js';

// What a spec file is from outside: its kind by name, and its text. Apart from the parser (load.ts), so that a test
// worker reading its specs from the spec cache (cache.ts) never loads the YAML parser.

/**
 * Which kind a spec file holds, from its name.
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { specKind } from 'needlework';
 *
 * assert.equal(specKind('needles/compound-alpha.needle.yaml'), 'needle');
 * assert.equal(specKind('support.cases.yaml'), 'cases');
 * assert.equal(specKind('notes.md'), undefined);
 * ```
 */
export function specKind(file: string): Spec['kind'] | undefined {
  if (/\.needle\.ya?ml$/.test(file)) return 'needle';
  if (/\.rubric\.ya?ml$/.test(file)) return 'rubric';
  if (/\.cases\.ya?ml$/.test(file)) return 'cases';
  return undefined;
}

/** A spec file's text; a file that cannot be read is a `UserError` naming it. */
export async function readSpecText(file: string): Promise<string> {
  return await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new UserError({
      file,
      message: error.code === 'ENOENT' ? 'no such file' : `cannot read: ${error.code}`,
    });
  });
}
