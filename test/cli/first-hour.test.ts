import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useTmpDir } from '../helpers/tmp.js';

// A new user's first hour, fast: `npm init -y`, this package (as built) linked in as node_modules/needlework beside
// Vitest, `needlework init`, runs imported from other agents' logs, then plain `npx vitest run`. The packed install
// from the registry is test/install/packed-install.test.ts; this one needs no network.
const ROOT = new URL('../../', import.meta.url).pathname;
const tmp = useTmpDir();

/** The environment a user's shell would have: none of the npm, Vitest or test settings this process runs under. */
const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) => !/^(npm_|NPM_|VITEST|NODE_OPTIONS$|NODE_ENV$|TEST$|FORCE_COLOR$)/.test(key),
  ),
);

async function sh(cwd: string, file: string, ...args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(file, args, { cwd, env: { ...env, NO_COLOR: '1' } });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code: number | string; stdout?: string; stderr?: string; message: string };
    return {
      code: typeof e.code === 'number' ? e.code : 1,
      output: `${e.stdout ?? ''}${e.stderr ?? e.message}`,
    };
  }
}

interface JsonReport {
  testResults: Array<{ name: string; assertionResults: Array<{ fullName: string; status: string }> }>;
}

describe('a fresh project: npm init -y, needlework init, npx vitest run', () => {
  it('is green on the example run and on imported chat logs and traces, and runs the task cases file', async () => {
    expect(existsSync(join(ROOT, 'dist/src/cli/bin.js')), 'run `npm run build` first').toBe(true);
    const dir = await tmp();
    expect((await sh(dir, 'npm', 'init', '-y')).code).toBe(0);
    await mkdir(join(dir, 'node_modules/.bin'), { recursive: true });
    await symlink(ROOT, join(dir, 'node_modules/needlework'));
    await symlink(join(ROOT, 'node_modules/vitest'), join(dir, 'node_modules/vitest'));
    await symlink('../vitest/vitest.mjs', join(dir, 'node_modules/.bin/vitest'));
    const bin = join(dir, 'node_modules/needlework/dist/src/cli/bin.js');

    const init = await sh(dir, process.execPath, bin, 'init');
    expect(init.code, init.output).toBe(0);
    expect(init.output).toContain('created needles/example.cases.yaml');
    expect(await readFile(join(dir, 'vitest.config.mts'), 'utf8')).toContain(
      "needles: ['needles/**/*.needle.yaml', 'needles/**/*.rubric.yaml', 'needles/**/*.cases.yaml']",
    );
    // Runs of agents that write no cited note: a chat log (its answer becomes a note with nothing to cite) and a
    // trace whose answer is only beside its spans.
    for (const [file, name] of [
      ['openai-chat.json', 'chat'],
      ['tau-bench-airline-error.json', 'tau'],
      ['swe-agent-edit-errors.traj', 'swe'],
    ]) {
      const imported = await sh(
        dir,
        process.execPath,
        bin,
        'import',
        join(ROOT, 'fixtures/imports', file!),
        '--out',
        `workups/${name}`,
      );
      expect(imported.code, imported.output).toBe(0);
    }

    const run = await sh(dir, 'npx', '--no', 'vitest', 'run', '--reporter=json', '--outputFile=results.json');
    expect(run.code, run.output).toBe(0);
    const report = JSON.parse(await readFile(join(dir, 'results.json'), 'utf8')) as JsonReport;
    const outcomes = report.testResults
      .filter((file) => file.name.endsWith('example.cases.yaml'))
      .flatMap((file) => file.assertionResults.map((t) => `${t.fullName}: ${t.status}`));
    expect(outcomes).toEqual([
      'example-tasks link-halberd-wren › example-grounded calls graph.neighbors, docs.search: passed',
      'example-tasks link-halberd-wren › example-grounded answer contains "Compound-Alpha": passed',
      'example-tasks link-halberd-wren › example-grounded error recovery >= 1: passed',
      'example-tasks link-halberd-wren › example-grounded at most 12 tool calls: passed',
    ]);
    // The scaffolded test: citation checks apply to the cited example run only; recovery to every run with steps.
    const scaffold = report.testResults
      .filter((file) => /agent\.test\.mts$/.test(file.name))
      .flatMap((file) => file.assertionResults.map((t) => `${t.fullName}: ${t.status}`))
      .sort();
    expect(scaffold).toEqual([
      'agent runs chat cites every claim: skipped',
      'agent runs chat cites only ledger entries that exist: skipped',
      'agent runs chat recovers from every tool error: passed',
      'agent runs example-grounded cites every claim: passed',
      'agent runs example-grounded cites only ledger entries that exist: passed',
      'agent runs example-grounded recovers from every tool error: passed',
      'agent runs swe cites every claim: skipped',
      'agent runs swe cites only ledger entries that exist: skipped',
      'agent runs swe recovers from every tool error: passed',
      'agent runs task-7-trial-1 cites every claim: skipped',
      'agent runs task-7-trial-1 cites only ledger entries that exist: skipped',
      'agent runs task-7-trial-1 recovers from every tool error: passed',
    ]);
  }, 120_000);
});
