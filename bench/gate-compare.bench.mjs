// The run's end of the trend reporter on the main thread, after the last test (issue 43, item 7): building the run from
// its check records (`buildTrendRun`), its gate against its baseline (`gateOf` -> `compare` -> `compareRuns`) and
// the count of its failures the baseline did not know (`unknownFailures`). The input is the peer workload's real checks
// (bench/workload/report-input.mjs: `checkWorkup` on bench/workload/cases.mjs's specs and runs; 10,000 cases = 30,000
// checks, BENCH_GATE_CASES for another size), gated against a baseline of the same verdicts and against one with one
// case in ten flipped (half fixed since, half regressed). Each build is timed in a fresh process (workload/gate-time.mjs),
// three rounds: the first call (cold, as after a real run's last test) and the median of the five after it (warm).
// BENCH_GATE_BEFORE=<another checkout's dist> times that build too, interleaved with this one, and checks that both
// build the same run and the same gate (deep-equal). Target (issue 43): the gate and the build at most half of what
// main took (profiles of `needlework run` at 1,000 cases: gate 50 ms, build 15-19 ms; at 10,000: 0.33 s and 0.17 s).
import { execFileSync } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { reportInput } from './workload/report-input.mjs';

const here = new URL('.', import.meta.url).pathname;
const dist = join(here, '..', 'dist');
const cases = Number(process.env.BENCH_GATE_CASES ?? 10_000);
const before = process.env.BENCH_GATE_BEFORE;
const ROUNDS = 3;
const REPS = 5;

const input = await reportInput(cases);
const { buildTrendRun } = await import(pathToFileURL(join(dist, 'src/history/entry.js')).href);
const revision = { commit: 'c'.repeat(40), branch: 'main', source: 'git' };
const earlier = new Date(Date.parse('2026-11-20T09:00:00Z') - 3600_000);
const baselines = {
  unchanged: buildTrendRun(input.records, revision, earlier, { kind: 'full' }, input.root),
  flipped: input.baseline,
};
const file = join(input.root, 'gate-input.json');
await writeFile(file, JSON.stringify({ root: input.root, records: input.records, baselines }));
console.log(
  `${cases.toLocaleString('en-US')} cases: ${input.records.length.toLocaleString('en-US')} checks a run, baselines of the same size`,
);

if (before) await sameResults(before, dist);

const ways = [...(before ? [{ name: 'before', dist: before }] : []), { name: 'this build', dist }];
const rounds = Object.fromEntries(ways.map((way) => [way.name, []]));
for (let round = 0; round < ROUNDS; round++)
  for (const way of ways) {
    const out = execFileSync(
      process.execPath,
      ['--expose-gc', join(here, 'workload/gate-time.mjs'), way.dist, file, String(REPS)],
      { encoding: 'utf8', maxBuffer: 1 << 24 },
    );
    rounds[way.name].push(JSON.parse(out));
  }

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (x) => (x === undefined ? '-' : `${x.toFixed(1)} ms`);
const steps = [
  ['build', 'build the run (buildTrendRun)'],
  ['unchanged', 'gate, baseline unchanged (gateOf)'],
  ['flipped', 'gate, 1 case in 10 flipped (gateOf)'],
  ['unknown', 'unknownFailures'],
];
console.log('medians of 3 processes: first call (cold) / median of the 5 after it (warm)');
for (const [step, label] of steps) {
  const cells = ways.map(({ name }) => {
    const runs = rounds[name].filter((r) => r[step].length > 0);
    if (runs.length === 0) return `${name}: -`;
    const cold = median(runs.map((r) => r[step][0]));
    const warm = median(runs.map((r) => median(r[step].slice(1))));
    return `${name}: ${ms(cold)} / ${ms(warm)}`;
  });
  console.log(`  ${label.padEnd(38)} ${cells.join('   ')}`);
}
await rm(input.root, { recursive: true, force: true });

/**
 * Whether two builds make the same run and the same gates from this input (the run's random id set alike): deep-equal,
 * or the bench fails.
 */
async function sameResults(a, b) {
  const made = [];
  for (const build of [a, b]) {
    const load = (path) => import(pathToFileURL(join(build, path)).href);
    const entry = await load('src/history/entry.js');
    const { gateOf } = await load('src/report/run-history.js');
    const { unknownFailures } = await load('src/history/compare.js');
    const run = entry.buildTrendRun(
      input.records,
      revision,
      new Date('2026-11-20T09:00:00Z'),
      { kind: 'full' },
      input.root,
    );
    run.id = 'the-run';
    const gates = { unchanged: gateOf(run, baselines.unchanged), flipped: gateOf(run, baselines.flipped) };
    made.push({ run, gates, unknown: unknownFailures?.(input.records, gates.flipped.comparison) });
  }
  const [x, y] = made;
  const same = {
    run: isDeepStrictEqual(x.run, y.run),
    'gate (unchanged)': isDeepStrictEqual(x.gates.unchanged, y.gates.unchanged),
    'gate (flipped)': isDeepStrictEqual(x.gates.flipped, y.gates.flipped),
  };
  console.log(
    `same results as ${a}: ${Object.entries(same)
      .map(([what, ok]) => `${what} ${ok ? 'deep-equal' : 'DIFFERENT'}`)
      .join(', ')}${x.unknown === undefined ? '' : `; unknown failures ${x.unknown} / ${y.unknown}`}`,
  );
  if (Object.values(same).some((ok) => !ok) || (x.unknown !== undefined && x.unknown !== y.unknown))
    process.exitCode = 1;
}
