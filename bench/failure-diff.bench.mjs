// The failure diff (issue 43, item 7): what Vitest's test worker spends on a failed check's error before it sends it
// to the main process. Vitest's `processError` (@vitest/utils) computes the diff of an error that has `expected` and
// `actual` (`showDiff`) and serialises it. The workload's failing checks (bench/workload/cases.mjs: at 10,000 cases,
// 4,000 of 30,000 checks fail, 3,000 of them tool_calls checks that carry the run's calls) are made into errors by
// `checkFailure`, as `needlework run` does, then processed by `processError`, 5 rounds in this one process; the median
// and the diff text's size are printed. Measured when the diff's two sides became texts of a call a line (they were
// lists of calls, which Vitest pretty-prints before it diffs them): medians 200-227 ms -> 71-84 ms, interleaved.
import { performance } from 'node:perf_hooks';
import { processError } from '@vitest/utils/error';
import { checkWorkup } from '../dist/src/checks/check-workup.js';
import { makeTrajectory } from '../dist/src/model/trajectory.js';
import { parseSpec } from '../dist/src/specs/load.js';
import { checkFailure } from '../dist/src/vitest/check-failure.js';
import { makeCase, needleworkSpecs, trajectoryJson } from './workload/cases.mjs';

const CASES = 10_000;
const ROUNDS = 5;

const specs = Object.entries(needleworkSpecs(CASES)).map(([name, text]) => parseSpec(text, name));
const failed = [];
for (let i = 0; i < CASES; i++) {
  const c = makeCase(i);
  const workup = {
    id: c.id,
    ledger: [],
    trajectory: makeTrajectory(trajectoryJson(c)),
    meta: { task: c.id },
  };
  for (const check of await checkWorkup(workup, specs)) if (check.verdict === 'fail') failed.push(check);
}
const withDiff = failed.filter((check) => check.evidence?.actual !== undefined).length;
console.log(`${failed.length} failed checks of ${CASES} cases, ${withDiff} with the run's calls to diff`);

const times = [];
let chars = 0;
for (let round = 0; round < ROUNDS; round++) {
  const errors = failed.map((check) => checkFailure(check));
  const start = performance.now();
  chars = 0;
  for (const error of errors) chars += processError(error).diff?.length ?? 0;
  times.push(performance.now() - start);
}
const sorted = [...times].sort((a, b) => a - b);
console.log(
  `processError of ${failed.length} errors: median ${sorted[ROUNDS >> 1].toFixed(0)} ms ` +
    `(rounds ${times.map((t) => t.toFixed(0)).join(', ')}); ${chars} characters of diff`,
);
