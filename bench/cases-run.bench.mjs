// `needlework run` on N task cases (the peer workload of bench/workload/cases.mjs: 8 tool calls a run, calls checked
// in order and in any order, an exact answer), at 1,000, 10,000 and 100,000 cases, with the default reporters (JUnit,
// HTML, trend), and `needlework validate` of the same specs and runs. Prints the wall time and peak RSS of each, and
// each one's slope per case: it must stay flat from 1,000 to 100,000 (within 1.5x; issue 24). BENCH_CASES=1000,10000
// picks the sizes (100,000 takes minutes).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectedVerdicts, writeNeedleworkProject } from './workload/cases.mjs';
import { measure } from './workload/measure.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const BIN = join(ROOT, 'dist/src/cli/bin.js');
const SIZES = (process.env.BENCH_CASES ?? '1000,10000,100000').split(',').map(Number);

/** Each case's three verdicts from the JUnit file, checked against the workload's planted ones. */
async function checkVerdicts(dir, n) {
  const xml = await readFile(join(dir, 'needlework-report/junit.xml'), 'utf8');
  // A test case failed when a <failure> stands anywhere inside its element, whatever comes before it.
  const failed = new Set();
  for (const m of xml.matchAll(
    /<testcase classname="([^"]*)" name="([^"]*)"[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g,
  ))
    if (m[4]?.includes('<failure')) failed.add(`${m[1]} ${m[2]}`);
  let wrong = 0;
  for (let i = 0; i < n; i++) {
    const want = expectedVerdicts(i);
    const got = {
      strict: !failed.has(`bench.case-${i}.case-${i} tool-calls`),
      unordered: !failed.has(`bench-unordered.case-${i}.case-${i} tool-calls`),
      answer: !failed.has(`bench.case-${i}.case-${i} answer-equals`),
    };
    if (got.strict !== want.strict || got.unordered !== want.unordered || got.answer !== want.answer) wrong++;
  }
  return wrong;
}

const rows = [];
for (const n of SIZES) {
  const dir = await mkdtemp(join(tmpdir(), 'needlework-cases-bench-'));
  try {
    await writeNeedleworkProject(dir, n);
    const result = await measure(process.execPath, [BIN, 'run', 'workups', '--needles', 'needles'], {
      cwd: dir,
      env: { ...process.env, CI: 'true', NO_COLOR: '1' },
    });
    // A run that died (out of memory, killed) wrote no JUnit file: said, and every case counted as unchecked.
    const wrong = await checkVerdicts(dir, n).catch((error) => {
      if (error.code !== 'ENOENT') throw error;
      console.log(`${n} cases: needlework run exited ${result.code} without writing its JUnit file: MISSED`);
      return n;
    });
    // `needlework validate` of the same specs and runs: each case must find its runs (and name one with none).
    const validated = await measure(process.execPath, [BIN, 'validate', 'needles', 'workups'], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1' },
    });
    rows.push({ n, ...result, wrong, validate: validated });
    console.log(
      `${n} cases: ${result.wallS.toFixed(1)} s wall, peak RSS ${result.peakMb.toFixed(0)} MB, exit ${result.code}, ${((result.wallS / n) * 1000).toFixed(2)} ms per case, ${wrong} of ${n} cases with a wrong verdict; validate ${validated.wallS.toFixed(1)} s, ${validated.peakMb.toFixed(0)} MB, exit ${validated.code}`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
if (rows.length > 1) {
  for (const [what, wallS] of [
    ['run', (r) => r.wallS],
    ['validate', (r) => r.validate.wallS],
  ]) {
    const ratio = wallS(rows.at(-1)) / rows.at(-1).n / (wallS(rows[0]) / rows[0].n);
    console.log(
      `target ${what} slope flat from ${rows[0].n} to ${rows.at(-1).n} cases (within 1.5x): ${ratio <= 1.5 ? 'met' : 'MISSED'} (${ratio.toFixed(2)}x)`,
    );
  }
}
if (rows.some((r) => r.validate.code !== 0)) {
  console.log('validate: MISSED (it found a problem in specs and runs that have none)');
  process.exitCode = 1;
}
const ten = rows.find((r) => r.n === 10_000);
if (ten) {
  console.log(
    `target 10,000 cases under 15 s: ${ten.wallS < 15 ? 'met' : 'MISSED'} (${ten.wallS.toFixed(1)} s)`,
  );
  console.log(
    `target 10,000 cases under 800 MB: ${ten.peakMb < 800 ? 'met' : 'MISSED'} (${ten.peakMb.toFixed(0)} MB)`,
  );
}
if (rows.some((r) => r.wrong > 0)) {
  console.log('verdicts: MISSED (some case got a verdict other than the planted one)');
  process.exitCode = 1;
}
