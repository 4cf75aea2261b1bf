import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Reporter } from 'vitest/node';
import { startVitest } from 'vitest/node';
import type { CheckMeta } from '../../src/vitest/meta.js';

const repoRoot = resolve(import.meta.dirname, '../..');

/** One generated test: its describe path, name, the meta it attaches and how it ends. */
export interface GeneratedTest {
  describe: string[];
  name: string;
  meta?: CheckMeta;
  outcome: 'pass' | 'fail' | 'skip';
  /** The message a failing test throws, or the note a skipped one gives. */
  error?: string;
}

/**
 * The source of a test file whose tests attach the given meta and pass, fail or skip, the way the needlework plugin's
 * generated tests do. Files end in `.check.mjs` so the project's own Vitest run never collects a leftover one.
 */
export function testFileSource(tests: readonly GeneratedTest[]): string {
  const lines = [`import { describe, expect, it } from 'vitest';`];
  for (const test of tests) {
    let code: string;
    if (test.outcome === 'skip') {
      // A skipped test never runs its body, so its meta comes with its options, as a collected-but-skipped check's does.
      const options = test.meta ? `{ meta: { needlework: ${JSON.stringify(test.meta)} } }, ` : '';
      code = `it(${JSON.stringify(test.name)}, ${options}(ctx) => ctx.skip(${JSON.stringify(test.error ?? 'not applicable')}));`;
    } else {
      let body = '';
      if (test.meta) body += `task.meta.needlework = ${JSON.stringify(test.meta)};\n`;
      if (test.outcome === 'fail')
        body += `throw new Error(${JSON.stringify(test.error ?? 'check failed')});\n`;
      else body += 'expect(1).toBe(1);\n';
      code = `it(${JSON.stringify(test.name)}, ({ task }) => {\n${body}});`;
    }
    for (const name of [...test.describe].reverse())
      code = `describe(${JSON.stringify(name)}, () => {\n${code}\n});`;
    lines.push(code);
  }
  return `${lines.join('\n')}\n`;
}

/** A temporary project (outside the repository, with this repository's node_modules linked in) holding the files. */
export async function makeProject(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'needlework-reporters-'));
  await symlink(join(repoRoot, 'node_modules'), join(root, 'node_modules'), 'dir');
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, name)), { recursive: true });
    await writeFile(join(root, name), text);
  }
  return root;
}

export async function removeProject(root: string): Promise<void> {
  await rm(root, { recursive: true, force: true });
}

export interface RunOptions {
  shard?: string;
  mergeReports?: string;
}

/** Runs Vitest on a generated project through its Node API, with the given reporters, and waits for it to end. */
export async function runVitest(
  root: string,
  reporters: Array<Reporter | [string, Record<string, unknown>]>,
  options: RunOptions = {},
): Promise<void> {
  const vitest = await startVitest(
    'test',
    [],
    {
      root,
      config: false,
      watch: false,
      include: ['**/*.check.mjs'],
      reporters: reporters as never,
      ...(options.shard ? { shard: options.shard } : {}),
      ...(options.mergeReports ? { mergeReports: options.mergeReports } : {}),
    },
    { logLevel: 'silent' },
  );
  await vitest.close();
  process.exitCode = 0; // a failing generated test must not fail the run that generated it
}

/** A needlework check meta with sensible defaults. */
export function checkMeta(
  overrides: Partial<CheckMeta> & Pick<CheckMeta, 'spec' | 'workup' | 'criterion'>,
): CheckMeta {
  return {
    schema: 1,
    specKind: 'needle',
    metric: 'recall',
    value: 1,
    threshold: 0.8,
    comparator: '>=',
    verdict: 'pass',
    ...overrides,
  };
}

/** Times, timestamps, stack frames and the temporary root change from run to run; everything else must not. */
export function normalizeJUnit(xml: string, root: string): string {
  return xml
    .replaceAll(root, '<root>')
    .replace(/ time="[\d.]+"/g, ' time="<t>"')
    .replace(/ timestamp="[^"]*"/g, ' timestamp="<ts>"')
    .replace(/\n {4}at [^\n]*?(?=\]\]>|\n)/g, '');
}
