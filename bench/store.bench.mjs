// Results store (embedded engine, PGlite): a run of 10,000 checks appended to a store that already holds 1,000 such
// runs takes at most 1.2x the time of appending it to an empty store (appends stay flat); `needlework trend` over
// the last 20 runs of that store takes under 1 s (the CLI, from process start); the peak RSS of a process that opens
// the store and appends a run stays under 300 MB. The 1,000 runs are written by the database itself
// (generate_series), not by 1,000 appends, so filling the store takes minutes, not an hour. The appends are timed
// alternately on the empty and the full store, and their medians compared, since this machine is shared. Also what
// the indexes of checks by case cost an insert of 30,000 checks, on both stores.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openStore } from '../dist/src/history/store/open.js';
import { checkParams, INSERT_RUN, runParams } from '../dist/src/history/store/rows.js';

const CHECKS = 10_000;
const RUNS = 1_000;
const root = await mkdtemp(join(tmpdir(), 'needlework-bench-store-'));
const run = promisify(execFile);
const BIN = new URL('../dist/src/cli/bin.js', import.meta.url).pathname;

/** A run of `n` checks over 100 specs x criteria, made to look like real ones. */
function makeRun(k, n = CHECKS) {
  const time = new Date(Date.UTC(2026, 0, 1) + k * 60_000);
  const checks = Array.from({ length: n }, (_, i) => ({
    spec: `spec-${i % 20}`,
    case: `case-${i % 50}`,
    workup: `workup-${Math.floor(i / 10)}`,
    task: `task-${Math.floor(i / 50)}`,
    trial: (i % 5) + 1,
    criterion: `criterion-${i % 5}`,
    metric: 'recall',
    value: ((i * 7 + k) % 100) / 100,
    threshold: 0.8,
    comparator: '>=',
    verdict: ((i * 7 + k) % 100) / 100 >= 0.8 ? 'pass' : 'fail',
    state: 'passed',
    reason: `expected recall >= 0.8, found ${((i * 7 + k) % 100) / 100}`,
  }));
  const passed = checks.filter((c) => c.verdict === 'pass').length;
  return {
    id: `${time
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z')}-${randomBytes(4).toString('hex')}`,
    time: time.toISOString(),
    commit: 'a'.repeat(40),
    branch: 'main',
    scope: { kind: 'full' },
    summary: {
      checks: n,
      passed,
      failed: n - passed,
      notApplicable: 0,
      skipped: 0,
      passRate: passed / n,
    },
    checks,
    trials: [],
  };
}

const secs = (ms) => `${(ms / 1000).toFixed(3)} s`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const verdict = (ok) => (ok ? 'met' : 'MISSED');

const empty = join(root, 'empty');
// NEEDLEWORK_BENCH_FULL_STORE names a store this bench filled before (20 minutes on a loaded machine), to time the
// appends and the trend again without filling it again.
const reuse = process.env.NEEDLEWORK_BENCH_FULL_STORE;
const full = reuse || join(root, 'full');

// The full store: one real run appended, then 999 copies of its checks written by the database, run after run, so
// that each run's rows lie together as appends leave them.
const start = performance.now();
if (!reuse) {
  const store = await openStore(full);
  await store.append(makeRun(0));
  for (let from = 1; from < RUNS; from += 100) {
    await store.engine.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO needlework_runs (id, time, time_text, commit, branch, scope, scope_key, checks, passed, failed, not_applicable, skipped)
         SELECT 'filler-' || g, ts, to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), repeat('a', 40), 'main',
           '{"kind":"full"}'::jsonb, 'full', r.checks, r.passed, r.failed, 0, 0
         FROM generate_series($1::integer, $2::integer) g, needlework_runs r,
           LATERAL (SELECT timestamptz '2026-01-01 00:00:00+00' + g * interval '1 minute' AS ts) t
         WHERE r.id NOT LIKE 'filler-%'`,
        [from, Math.min(from + 99, RUNS - 1)],
      );
      await tx.query(
        `INSERT INTO needlework_checks
         SELECT n.seq, c.ord, c.spec, c."case", c.workup, c.task, c.trial_number, c.trial_label, c.criterion, c.metric,
           c.value, c.value_boolean, c.unit, c.threshold, c.comparator, c.verdict, c.state, c.reason
         FROM needlework_runs n, needlework_checks c
         WHERE n.id LIKE 'filler-%' AND substr(n.id, 8)::integer BETWEEN $1 AND $2
           AND c.run = (SELECT min(seq) FROM needlework_runs)
         ORDER BY n.seq, c.ord`,
        [from, Math.min(from + 99, RUNS - 1)],
      );
    });
    // The database's own maintenance, as a store that grew by appends would have had between them.
    await store.engine.exec('VACUUM ANALYZE needlework_runs');
  }
  await store.engine.exec('VACUUM ANALYZE');
  const [row] = await store.engine.query(
    'SELECT (SELECT count(*) FROM needlework_runs)::integer AS runs, (SELECT count(*) FROM needlework_checks)::integer AS checks',
  );
  console.log(
    `filled a store with ${row.runs} runs, ${row.checks} checks in ${secs(performance.now() - start)}`,
  );
  await store.close();
}
await (await openStore(empty)).close();

// Appends, alternating between the empty and the full store; each in the same process, timed around append().
const times = { empty: [], full: [] };
for (let i = 0; i < 5; i++) {
  for (const [name, location] of [
    ['empty', empty],
    ['full', full],
  ]) {
    const store = await openStore(location);
    const next = makeRun(RUNS + 10 * i + (name === 'full' ? 1 : 2));
    const t = performance.now();
    await store.append(next);
    times[name].push(performance.now() - t);
    await store.close();
  }
  // An empty store stays (nearly) empty: drop what was appended to it.
  const store = await openStore(empty);
  await store.prune({ keepLast: 1 });
  await store.close();
}
const emptyMs = median(times.empty);
const fullMs = median(times.full);

// What the indexes of checks by case (migration 4, for needlework ui's One case view) cost an append: a run of 30,000
// checks inserted into the empty and the full store with them and without them (dropped in the same transaction),
// each rolled back, so both are timed on the very same store; alternating, five times each.
const ROLLBACK = Symbol('rollback');
async function insertTimed(location, run, withIndex) {
  const store = await openStore(location);
  const params = [...runParams(run), ...checkParams(run.checks)];
  let ms = 0;
  try {
    await store.engine.transaction(async (tx) => {
      if (!withIndex) await tx.exec('DROP INDEX needlework_checks_case, needlework_checks_failing');
      const t = performance.now();
      await tx.query(INSERT_RUN, params);
      ms = performance.now() - t;
      throw ROLLBACK;
    });
  } catch (error) {
    if (error !== ROLLBACK) throw error;
  } finally {
    await store.close();
  }
  return ms;
}
const indexTimes = { 'empty with': [], 'empty without': [], 'full with': [], 'full without': [] };
for (let i = 0; i < 5; i++)
  for (const [name, location] of [
    ['empty', empty],
    ['full', full],
  ])
    for (const withIndex of i % 2 ? [false, true] : [true, false])
      indexTimes[`${name} ${withIndex ? 'with' : 'without'}`].push(
        await insertTimed(location, makeRun(RUNS + 500 + i, 30_000), withIndex),
      );

// `needlework trend --last 20` on the full store, as a user runs it: a new process, opening the store.
const trendMs = [];
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  await run(process.execPath, [BIN, 'trend', '--store', full, '--last', '20'], { maxBuffer: 1 << 26 });
  trendMs.push(performance.now() - t);
}

// Peak RSS of a process that opens the full store and appends one run of 10,000 checks.
const child = join(root, 'append.mjs');
await writeFile(
  child,
  `import { openStore } from ${JSON.stringify(new URL('../dist/src/history/store/open.js', import.meta.url).pathname)};
import { readFileSync } from 'node:fs';
const run = JSON.parse(readFileSync(process.argv[3], 'utf8'));
const store = await openStore(process.argv[2]);
await store.append(run);
await store.close();
console.log(process.resourceUsage().maxRSS);`,
);
const runFile = join(root, 'run.json');
await writeFile(runFile, JSON.stringify(makeRun(RUNS + 100)));
const { stdout } = await run(process.execPath, [child, full, runFile], {
  maxBuffer: 1 << 26,
});
const rssMb = Number(stdout.trim()) / 1024;

const rows = [
  ['append to an empty store (median of 5)', secs(emptyMs), '', ''],
  [
    `append to a store of ${RUNS} runs (median of 5)`,
    secs(fullMs),
    '<= 1.2x empty',
    verdict(fullMs <= 1.2 * emptyMs),
  ],
  ['ratio full / empty', `${(fullMs / emptyMs).toFixed(2)}x`, '', ''],
  [
    'needlework trend --last 20 (median of 3)',
    secs(median(trendMs)),
    '< 1 s',
    verdict(median(trendMs) < 1000),
  ],
  ['peak RSS of an append process', `${rssMb.toFixed(0)} MB`, '< 300 MB', verdict(rssMb < 300)],
  ...['empty', 'full'].map((name) => {
    const withMs = median(indexTimes[`${name} with`]);
    const withoutMs = median(indexTimes[`${name} without`]);
    return [
      `insert 30,000 checks, ${name} store: with the case indexes / without (median of 5)`,
      `${secs(withMs)} / ${secs(withoutMs)} = ${(withMs / withoutMs).toFixed(2)}x`,
      '',
      '',
    ];
  }),
];
console.log(
  `appends (ms): empty ${times.empty.map((t) => t.toFixed(0)).join(', ')}; full ${times.full.map((t) => t.toFixed(0)).join(', ')}`,
);
console.log(`trend (ms): ${trendMs.map((t) => t.toFixed(0)).join(', ')}`);
for (const [name, times] of Object.entries(indexTimes))
  console.log(
    `insert 30,000 checks, ${name} the case indexes (ms): ${times.map((t) => t.toFixed(0)).join(', ')}`,
  );
const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i].length)));
for (const r of rows) console.log(r.map((cell, i) => cell.padEnd(widths[i])).join('  '));
await rm(root, { recursive: true, force: true });
if (rows.some((r) => r[3] === 'MISSED')) process.exitCode = 1;
