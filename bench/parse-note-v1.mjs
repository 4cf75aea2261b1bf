// Loads the baseline parser, test/reference/parse-note-v1.ts (parseNote as at commit e2889b5), for the benchmarks:
// Node 20 cannot import TypeScript, and the reference stays out of dist/ (which ships), so it is transpiled here with
// the project's own TypeScript into a temporary module whose imports point at the built dist/src/ and at the
// installed mdast-util-from-markdown. Run `npm run build` first.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

const reference = new URL('../test/reference/parse-note-v1.ts', import.meta.url);
const { outputText } = ts.transpileModule(readFileSync(reference, 'utf8'), {
  compilerOptions: {
    module: ts.ModuleKind.ESNext,
    target: ts.ScriptTarget.ES2023,
    verbatimModuleSyntax: true,
  },
});
const code = outputText
  .replaceAll("'../../src/", `'${new URL('../dist/src/', import.meta.url).href}`)
  .replaceAll("'mdast-util-from-markdown'", `'${import.meta.resolve('mdast-util-from-markdown')}'`);
const dir = mkdtempSync(join(os.tmpdir(), 'needlework-bench-'));
const file = join(dir, 'parse-note-v1.mjs');
writeFileSync(file, code);

/** parseNote as it stood at commit e2889b5. */
export const { parseNote: parseNoteV1 } = await import(pathToFileURL(file).href);
// Once imported, the module is in memory: the temporary copy can go.
rmSync(dir, { recursive: true, force: true });
