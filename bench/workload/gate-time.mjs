// The run's end of the trend reporter, timed in a fresh process (its code as cold as after a real run's last test):
// building the run from its check records (`buildTrendRun`), its gate against a baseline (`gateOf`: the comparison
// and its text) and the count of its failures the baseline did not know (`unknownFailures`, where the build has it).
// `node gate-time.mjs <dist> <input> <reps>`, with the build in `dist` (this checkout's, or another's to compare
// with) and the input gate-compare.bench.mjs wrote: the records, and two baselines (the same verdicts, and one case in
// ten flipped). Prints JSON: each step's time in ms, the first (cold) and each of the `reps` after it.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const [dist, input, reps] = process.argv.slice(2);
const load = (path) => import(pathToFileURL(join(resolve(dist), path)).href);
const { buildTrendRun } = await load('src/history/entry.js');
const { gateOf } = await load('src/report/run-history.js');
const { unknownFailures } = await load('src/history/compare.js');
const { root, records, baselines } = JSON.parse(readFileSync(input, 'utf8'));
const revision = { commit: 'c'.repeat(40), branch: 'main', source: 'git' };
const now = new Date('2026-11-20T09:00:00Z');

const times = { build: [], unchanged: [], flipped: [], unknown: [] };
const timed = (name, step) => {
  const started = performance.now();
  const out = step();
  times[name].push(performance.now() - started);
  return out;
};
for (let i = 0; i <= Number(reps); i++) {
  // The last round's garbage is not this one's.
  globalThis.gc?.();
  const run = timed('build', () => buildTrendRun(records, revision, now, { kind: 'full' }, root));
  timed('unchanged', () => gateOf(run, baselines.unchanged));
  const gate = timed('flipped', () => gateOf(run, baselines.flipped));
  if (unknownFailures) timed('unknown', () => unknownFailures(records, gate.comparison));
}
console.log(JSON.stringify(times));
