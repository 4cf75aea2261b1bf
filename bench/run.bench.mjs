// needlework run over 1,000 workups and the 2 bundled needles (about 18,000 Vitest tests), against (a) bare Vitest
// running the same number of trivial tests in the same file and describe shape, and (b) the pure scoring of the same
// work in one process, so the overhead is visible as ratios measured in the same run. Targets: the whole run under
// 30 s wall on 2 cores (issue 4), at most 2.0x bare Vitest (issue 12). The workups are the 8 fixture runs copied 125
// times.
import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { citationRecall, resolveCitations, scoreNeedle } from '../dist/src/metrics/index.js';
import { loadSpecs } from '../dist/src/specs/load.js';
import { loadWorkups } from '../dist/src/workup/load.js';

const ROOT = new URL('..', import.meta.url).pathname;
const COPIES = Number(process.env.BENCH_COPIES ?? 125);
const dir = await mkdtemp(join(tmpdir(), 'needlework-run-bench-'));
try {
  await mkdir(join(dir, 'needles'));
  for (const name of ['compound-alpha.needle.yaml', 'wren-tie.needle.yaml']) {
    // Unscoped, so every needle meets every workup.
    const text = (await readFile(join(ROOT, 'needles', name), 'utf8')).replace(/^workups:.*$/m, '');
    await writeFile(join(dir, 'needles', name), text);
  }
  const fixtures = join(ROOT, 'fixtures/workups');
  const names = await readdir(fixtures);
  for (let i = 0; i < COPIES; i++) {
    const n = String(i).padStart(3, '0');
    for (const name of names) {
      const copy = name.endsWith('.workup.json')
        ? name.replace('.workup.json', `-${n}.workup.json`)
        : `${name}-${n}`;
      await cp(join(fixtures, name), join(dir, 'workups', copy), { recursive: true });
    }
  }
  const count = COPIES * names.length;

  const started = performance.now();
  let code = 0;
  try {
    execFileSync(
      process.execPath,
      [join(ROOT, 'dist/src/cli/bin.js'), 'run', 'workups', '--reporter', 'json'],
      {
        cwd: dir,
        stdio: 'ignore',
      },
    );
  } catch (error) {
    code = error.status;
  }
  const wall = performance.now() - started;

  // The bare project: per spec file one test file, per workup one describe, per criterion one empty it. It lives
  // under the repository so that `vitest` resolves from its node_modules.
  const report = JSON.parse(await readFile(join(dir, 'needlework-report/results.json'), 'utf8'));
  const bare = await mkdtemp(join(ROOT, '.bench-bare-'));
  let bareWall = 0;
  try {
    let tests = 0;
    for (const [i, file] of report.testResults.entries()) {
      const byDescribe = new Map();
      for (const t of file.assertionResults) {
        const name = t.ancestorTitles.join(' > ');
        byDescribe.set(name, [...(byDescribe.get(name) ?? []), t.title]);
        tests++;
      }
      const body = [...byDescribe]
        .map(
          ([name, its]) =>
            `describe(${JSON.stringify(name)}, () => {\n${its.map((t) => `  it(${JSON.stringify(t)}, () => {});`).join('\n')}\n});`,
        )
        .join('\n');
      await writeFile(join(bare, `spec-${i}.test.ts`), `import { describe, it } from 'vitest';\n${body}\n`);
    }
    await writeFile(
      join(bare, 'vitest.config.mjs'),
      'export default { test: { include: ["*.test.ts"] } };\n',
    );
    const bareStarted = performance.now();
    execFileSync(
      process.execPath,
      [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter', 'dot'],
      {
        cwd: bare,
        stdio: 'ignore',
      },
    );
    bareWall = performance.now() - bareStarted;
    console.log(`bare Vitest: ${tests} trivial tests in ${report.testResults.length} files, same describes`);
  } finally {
    await rm(bare, { recursive: true, force: true });
  }

  const t0 = performance.now();
  const { needles } = await loadSpecs(join(dir, 'needles'));
  const { workups } = await loadWorkups(join(dir, 'workups'));
  const t1 = performance.now();
  let checks = 0;
  for (const needle of needles) {
    for (const workup of workups) {
      scoreNeedle(workup, needle);
      resolveCitations(workup);
      if (workup.note) citationRecall(workup.note);
      checks++;
    }
  }
  const t2 = performance.now();

  console.log(
    `workups: ${count}, needles: ${needles.length}, needle x workup pairs: ${checks} (exit ${code}: planted failures)`,
  );
  console.log(`needlework run, wall:           ${(wall / 1000).toFixed(2)} s   (target < 30 s)`);
  console.log(`bare Vitest, same shape, wall:  ${(bareWall / 1000).toFixed(2)} s`);
  console.log(
    `target run <= 2.0x bare Vitest: ${wall / bareWall <= 2 ? 'met' : 'MISSED'} (${(wall / bareWall).toFixed(2)}x)`,
  );
  console.log(`pure loading, in process:       ${((t1 - t0) / 1000).toFixed(2)} s`);
  console.log(`pure scoring, in process:       ${((t2 - t1) / 1000).toFixed(2)} s`);
  console.log(`run wall / (load + score):      ${(wall / (t2 - t0)).toFixed(1)}x`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
