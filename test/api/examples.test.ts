// Every public entry point carries an `@example` (test/api/examples.ts says which), and every example type-checks
// against this checkout's source and runs: each is written out as a module and imported while this file's tests are
// collected, so an example may declare tests (`describeAgent`) as a user's test file does.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { type Example, entryPoints, examplesOf, ROOT } from './examples.js';

const DIR = join(ROOT, 'test/api/.examples');
rmSync(DIR, { recursive: true, force: true });
mkdirSync(DIR, { recursive: true });
const documented = entryPoints();
const examples: Array<Example & { path: string }> = documented.flatMap((d) =>
  examplesOf(d, DIR).map((e, i) => {
    const path = join(DIR, `${e.name}-${i + 1}.ts`);
    writeFileSync(path, `// ${e.file}: the @example of ${e.name}\n${e.code}`);
    return { ...e, path };
  }),
);

describe('the public entry points', () => {
  it('each carry an @example', () => {
    expect(documented.length).toBeGreaterThan(40);
    const missing = documented
      .filter((d) => examplesOf(d, DIR).length === 0)
      .map((d) => `${d.file}: ${d.name}`);
    expect(missing).toEqual([]);
  });

  it('have examples that type-check against the source', () => {
    const config = ts.getParsedCommandLineOfConfigFile(
      join(ROOT, 'tsconfig.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: () => undefined,
      },
    )!;
    const program = ts.createProgram(
      examples.map((e) => e.path),
      { ...config.options, noEmit: true },
    );
    const problems = examples.flatMap((e) =>
      ts.getPreEmitDiagnostics(program, program.getSourceFile(e.path)).map((d) => {
        const at =
          d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
        return `${relative(ROOT, e.path)}${at ? `:${at.line + 1}` : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      }),
    );
    expect(problems).toEqual([]);
  });
});

// Each example runs as its own suite, imported while the suite is collected (so that it may declare tests): one that
// throws fails its test, named.
for (const example of examples)
  describe(`${relative(ROOT, example.path)} (${example.file})`, async () => {
    let failure: unknown;
    try {
      await import(example.path);
    } catch (error) {
      failure = error;
    }
    it('runs without throwing', () => {
      if (failure !== undefined) throw failure;
    });
  });
