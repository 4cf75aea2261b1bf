import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

/** Every TypeScript file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * The writes that do not go through src/io/atomic.ts, each with why: the atomic writer itself, a build script that
 * writes a source file, and the GitHub step summary, which other tools of the step append to.
 */
const ALLOWED: Record<string, string> = {
  'src/io/atomic.ts': 'the atomic writer',
  'src/parse/compile-validators.ts': 'a build step writing a generated source file',
  'reporters/summary.ts': "appends to GitHub's step summary, a file other tools of the step append to",
};

describe('every file needlework writes', () => {
  it('is written through the atomic writer, but for the writes listed with their reasons', () => {
    const direct = [...sources(join(ROOT, 'src')), ...sources(join(ROOT, 'reporters'))]
      .filter((file) =>
        /\b(?:writeFile|writeFileSync|appendFile|appendFileSync|createWriteStream)\(/.test(
          readFileSync(file, 'utf8'),
        ),
      )
      .map((file) => relative(ROOT, file));
    expect(direct.sort()).toEqual(Object.keys(ALLOWED).sort());
  });
});
