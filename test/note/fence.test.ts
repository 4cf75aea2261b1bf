// The note parser is fenced like vendored code (src/note/README.md): the rest of src imports it from its index only,
// and the micromark versions its differential tests hold it to are pinned exactly.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

/** Every TypeScript file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** The modules of src/note a file outside it imports, other than the index. */
function intoNote(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/from '((?:\.\.?\/)+(?:[\w-]+\/)*note\/([\w-]+)\.js)'/g)]
    .filter((m) => m[2] !== 'index')
    .map((m) => m[1]!);
}

describe('the note parser is fenced', () => {
  it('is imported by the rest of src through src/note/index.ts only', () => {
    const outside = sources(SRC).filter((f) => !relative(SRC, f).startsWith('note/'));
    const crossings = outside.flatMap((f) => intoNote(f).map((m) => `${relative(ROOT, f)} -> ${m}`));
    expect(crossings).toEqual([]);
    // What the check catches: an import of a module inside the folder.
    expect(intoNote(join(ROOT, 'test/note/fixtures/imports-note-internals.ts.txt'))).toEqual([
      '../note/parse.js',
    ]);
  });

  it('pins the micromark versions its differential tests hold it to exactly', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const pins = {
      micromark: pkg.devDependencies.micromark,
      'mdast-util-from-markdown': pkg.devDependencies['mdast-util-from-markdown'],
    };
    expect(pins).toEqual({ micromark: '4.0.3', 'mdast-util-from-markdown': '2.1.0' });
    for (const name of Object.keys(pins)) {
      const installed = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8'));
      expect(installed.version, name).toBe(pins[name as keyof typeof pins]);
    }
  });
});
