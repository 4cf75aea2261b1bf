// needlework run over 1,000 workups and the 2 bundled needles (about 14,000 Vitest tests), against the pure scoring of
// the same work in one process, so the framework's overhead is visible as a ratio measured in the same run.
// Target: the whole run under 30 s wall on 2 cores. The workups are the 8 fixture runs copied 125 times.
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
      [join(ROOT, 'dist/src/cli/bin.js'), 'run', 'workups', '--reporter', 'dot'],
      {
        cwd: dir,
        stdio: 'ignore',
      },
    );
  } catch (error) {
    code = error.status;
  }
  const wall = performance.now() - started;

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
  console.log(`pure loading, in process:       ${((t1 - t0) / 1000).toFixed(2)} s`);
  console.log(`pure scoring, in process:       ${((t2 - t1) / 1000).toFixed(2)} s`);
  console.log(`run wall / (load + score):      ${(wall / (t2 - t0)).toFixed(1)}x`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
