import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = new URL('../../src/', import.meta.url).pathname;
const HISTORY = join(SRC, 'history');

/**
 * The folders the history may import from: below it in the layers of DESIGN.md (model, errors and the version; the sources,
 * metrics and I/O; checks and trials). Never the reports, the Vitest integration, the CLI or the UI above it.
 */
const BELOW = [
  'model',
  'errors',
  'version.js',
  'io',
  'parse',
  'schemas',
  'metrics',
  'checks',
  'trials',
  'history',
];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? files(join(dir, entry.name))
      : /\.(ts|js)$/.test(entry.name)
        ? [join(dir, entry.name)]
        : [],
  );
}

/** Each relative import of `text`, as the top folder of src/ it lands in (or `outside src` past it). */
function importedFolders(file: string, text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const target = relative(SRC, resolve(dirname(file), m[1]!));
    found.push(target.startsWith('..') ? 'outside src' : target.split('/')[0]!);
  }
  return found;
}

describe('the history is one layer', () => {
  it('imports only from the layers below it: no arrow up to the reports, Vitest, the CLI or the UI', () => {
    const upward: string[] = [];
    for (const file of files(HISTORY))
      for (const folder of importedFolders(file, readFileSync(file, 'utf8')))
        if (!BELOW.includes(folder)) upward.push(`${relative(SRC, file)} -> ${folder}`);
    expect(upward).toEqual([]);
  });

  it('would catch an import of the reports from the history', () => {
    const planted = join(HISTORY, 'compare.ts');
    expect(importedFolders(planted, "import { gateText } from '../report/gate-text.js';")).toEqual([
      'report',
    ]);
    expect(importedFolders(join(HISTORY, 'store/open.ts'), "import x from '../../vitest/meta.js';")).toEqual([
      'vitest',
    ]);
  });
});
