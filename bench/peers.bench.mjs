// needlework beside its nearest peers on one workload (issue 24, part 2): N task cases, each one recorded run of 8 tool
// calls, checked in order, in any order, and for an exact answer (bench/workload/cases.mjs). Each tool runs it in its
// own idiomatic form: vitest-evals' describeEval + ToolCallJudge (bench/peers/vitest-evals.eval.test.mjs), agentevals'
// trajectory match in plain Vitest tests (bench/peers/agentevals.test.mjs), and `needlework run` with its default
// outputs in CI (JUnit, HTML, trend, summary) and on a developer's machine (the terminal and the trend), again with
// every spec parsed anew (`--no-spec-cache`), and with `--reporter default` alone. Every tool's verdicts are read from its own output and checked equal to the planted ones; the tools run
// interleaved 3 times and the table gives the median wall time and peak RSS of each. BENCH_PEERS_CASES=1000 picks the
// sizes (default 1000,10000); BENCH_PEERS_ROUNDS the rounds (default 3).
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectedVerdicts, makeCase, writeNeedleworkProject } from './workload/cases.mjs';
import { measure } from './workload/measure.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const NEEDLEWORK = join(ROOT, 'dist/src/cli/bin.js');
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs');
const SIZES = (process.env.BENCH_PEERS_CASES ?? '1000,10000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_PEERS_ROUNDS ?? 3);
const ENV = { ...process.env, CI: 'true', NO_COLOR: '1' };
// A developer's machine: no CI variable, so `needlework run` writes what it writes there (the terminal and the history).
const DEV_ENV = Object.fromEntries(Object.entries(ENV).filter(([key]) => key !== 'CI'));
// CPU time (user + sys of the process and the workers it waited for) is steadier than wall time on a loaded machine:
// measured through GNU time where it is installed, and shown beside the wall time.
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** Runs `node args` in `cwd` through `measure`, with its CPU time when GNU time is there. */
async function timed(args, cwd, dir, env = ENV) {
  if (!TIME) return { ...(await measure(process.execPath, args, { cwd, env })), cpuS: undefined };
  const file = join(dir, 'cpu.txt');
  const result = await measure(TIME, ['-f', '%U %S', '-o', file, process.execPath, ...args], { cwd, env });
  const [user, sys] = (await readFile(file, 'utf8')).trim().split('\n').at(-1).split(' ').map(Number);
  return { ...result, cpuS: user + sys };
}

/** Verdicts keyed `case-i strict|unordered|answer` → passed, compared with the planted ones: the count that differ. */
function wrongVerdicts(n, passed) {
  let wrong = 0;
  for (let i = 0; i < n; i++) {
    const want = expectedVerdicts(i);
    for (const kind of ['strict', 'unordered', 'answer'])
      if (passed.get(`case-${i} ${kind}`) !== want[kind]) wrong++;
  }
  return wrong;
}

/** The assertion results of a Vitest JSON report. */
async function vitestResults(file) {
  const report = JSON.parse(await readFile(file, 'utf8'));
  return report.testResults.flatMap((f) => f.assertionResults);
}

/**
 * needlework's verdicts, from the JUnit file its default reporters write: a failure element under a test case fails
 * it.
 */
async function needleworkVerdicts(p) {
  const xml = await readFile(join(p.needlework, 'needlework-report/junit.xml'), 'utf8');
  const passed = new Map();
  const names = {
    'bench tool-calls': 'strict',
    'bench-unordered tool-calls': 'unordered',
    'bench answer-equals': 'answer',
  };
  for (const m of xml.matchAll(
    /<testcase classname="(bench(?:-unordered)?)\.(case-\d+)\.case-\d+" name="([^"]*)"[^>]*?(\/>|>\s*(<failure)?)/g,
  )) {
    const kind = names[`${m[1]} ${m[3]}`];
    if (kind) passed.set(`${m[2]} ${kind}`, m[5] === undefined);
  }
  return passed;
}

// needlework keeps each spec as read (src/specs/cache.ts): after a tool's first run on a project its specs are read
// back, not parsed, as in a user's runs against unchanged specs. The row `--no-spec-cache` parses them every run, as
// a run right after a spec was edited (or a CI job without the cache) does.
const tools = [
  {
    // In CI (the CI variable): the terminal, the history, the JUnit file, the HTML report and the job summary.
    name: 'needlework',
    args: () => [NEEDLEWORK, 'run', 'workups', '--needles', 'needles'],
    cwd: (p) => p.needlework,
    verdicts: needleworkVerdicts,
  },
  {
    // On a developer's machine: the terminal (with the gate's story) and the history. Its verdicts are the same tests',
    // read from the JUnit run above.
    name: 'needlework on a developer machine',
    args: () => [NEEDLEWORK, 'run', 'workups', '--needles', 'needles'],
    cwd: (p) => p.needlework,
    env: DEV_ENV,
  },
  {
    name: 'needlework --no-spec-cache',
    args: () => [NEEDLEWORK, 'run', 'workups', '--needles', 'needles', '--no-spec-cache'],
    cwd: (p) => p.needlework,
    verdicts: needleworkVerdicts,
  },
  {
    name: 'needlework --reporter default',
    // The default reporter writes no file: its verdicts are the same tests', read from the JUnit run above.
    args: () => [NEEDLEWORK, 'run', 'workups', '--needles', 'needles', '--reporter', 'default'],
    cwd: (p) => p.needlework,
  },
  {
    name: 'vitest-evals',
    args: () => [
      VITEST,
      'run',
      'vitest-evals.eval.test.mjs',
      '--reporter=vitest-evals/reporter',
      '--reporter=json',
      '--outputFile.json=vitest-evals.json',
    ],
    cwd: (p) => p.peers,
    // One test a case (Vitest quotes the `$id` string in its name); the two ToolCallJudge scores in the order asserted, the answer's `toBe` as a failure message.
    verdicts: async (p) => {
      const passed = new Map();
      for (const r of await vitestResults(join(p.peers, 'vitest-evals.json'))) {
        const id = r.title.replaceAll("'", '');
        const [inOrder, anyOrder] = r.meta?.eval?.scores ?? [];
        passed.set(`${id} strict`, inOrder?.score === 1);
        passed.set(`${id} unordered`, anyOrder?.score === 1);
        passed.set(`${id} answer`, !r.failureMessages.some((m) => /to be 'Booked/.test(m)));
      }
      return passed;
    },
  },
  {
    name: 'agentevals in Vitest',
    args: () => [
      VITEST,
      'run',
      'agentevals.test.mjs',
      '--reporter=default',
      '--reporter=json',
      '--outputFile.json=agentevals.json',
    ],
    cwd: (p) => p.peers,
    verdicts: async (p) => {
      const passed = new Map();
      const kinds = { 'in order': 'strict', 'any order': 'unordered', answer: 'answer' };
      // Vitest quotes the `$id` string in each test's name.
      for (const r of await vitestResults(join(p.peers, 'agentevals.json'))) {
        const [, id, kind] = r.title.match(/^'(case-\d+)' (in order|any order|answer)$/) ?? [];
        if (id) passed.set(`${id} ${kinds[kind]}`, r.status === 'passed');
      }
      return passed;
    },
  },
];

/** One workload of n cases, written for every tool: a needlework project, and a Vitest project for the peers. */
async function prepare(n) {
  const dir = await mkdtemp(join(tmpdir(), 'needlework-peers-bench-'));
  const project = { dir, needlework: join(dir, 'needlework'), peers: join(dir, 'peers') };
  await writeNeedleworkProject(project.needlework, n);
  await mkdir(project.peers);
  // The peers resolve vitest, vitest-evals and agentevals from this repository's devDependencies.
  await symlink(join(ROOT, 'node_modules'), join(project.peers, 'node_modules'), 'dir');
  await writeFile(
    join(project.peers, 'cases.json'),
    JSON.stringify(Array.from({ length: n }, (_, i) => makeCase(i))),
  );
  for (const file of ['vitest-evals.eval.test.mjs', 'agentevals.test.mjs'])
    await copyFile(join(ROOT, 'bench/peers', file), join(project.peers, file));
  return project;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const started = new Date();
const loadBefore = loadavg();
const table = [];
for (const n of SIZES) {
  const project = await prepare(n);
  try {
    const runs = new Map(tools.map((t) => [t.name, []]));
    const wrong = new Map();
    for (let round = 0; round < ROUNDS; round++) {
      // Interleaved, and each round starts with the next tool, so no tool always runs first on a cold cache.
      for (let k = 0; k < tools.length; k++) {
        const tool = tools[(round + k) % tools.length];
        await rm(join(project.needlework, 'needlework-report'), { recursive: true, force: true });
        const result = await timed(tool.args(), tool.cwd(project), project.dir, tool.env);
        runs.get(tool.name).push(result);
        if (tool.verdicts) {
          const count = wrongVerdicts(n, await tool.verdicts(project).catch(() => new Map()));
          wrong.set(tool.name, Math.max(wrong.get(tool.name) ?? 0, count));
        }
        console.log(
          `  ${n} cases, round ${round + 1}: ${tool.name} ${result.wallS.toFixed(2)} s, CPU ${result.cpuS?.toFixed(2) ?? '-'} s, ${result.peakMb.toFixed(0)} MB, exit ${result.code}`,
        );
      }
    }
    wrong.set('needlework --reporter default', wrong.get('needlework'));
    wrong.set('needlework on a developer machine', wrong.get('needlework'));
    for (const tool of tools) {
      const rs = runs.get(tool.name);
      table.push({
        n,
        tool: tool.name,
        wallS: median(rs.map((r) => r.wallS)),
        cpuS: TIME ? median(rs.map((r) => r.cpuS)) : undefined,
        peakMb: median(rs.map((r) => r.peakMb)),
        wrong: wrong.get(tool.name),
      });
    }
  } finally {
    await rm(project.dir, { recursive: true, force: true });
  }
}

const loadAfter = loadavg();
console.log(
  `\n${started.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${ROUNDS} interleaved rounds, load average ${loadBefore.map((l) => l.toFixed(1)).join(' ')} before, ${loadAfter.map((l) => l.toFixed(1)).join(' ')} after (2 cores)`,
);
console.log(
  '| cases | tool | wall (median) | CPU user+sys (median) | peak RSS (median) | verdicts equal to the planted ones |',
);
console.log('|---|---|---|---|---|---|');
for (const r of table)
  console.log(
    `| ${r.n.toLocaleString('en-US')} | ${r.tool} | ${r.wallS.toFixed(2)} s | ${r.cpuS === undefined ? 'not measured (no /usr/bin/time)' : `${r.cpuS.toFixed(2)} s`} | ${r.peakMb.toFixed(0)} MB | ${r.wrong === 0 ? `${r.n * 3} of ${r.n * 3}` : `${r.n * 3 - r.wrong} of ${r.n * 3}`} |`,
  );

const row = (n, tool) => table.find((r) => r.n === n && r.tool === tool);
const fastestPeer = (n) =>
  Math.min(...table.filter((r) => r.n === n && !r.tool.startsWith('needlework')).map((r) => r.wallS));
const fastestPeerCpu = (n) =>
  Math.min(...table.filter((r) => r.n === n && !r.tool.startsWith('needlework')).map((r) => r.cpuS));
const target = (label, ok, detail) => console.log(`target ${label}: ${ok ? 'met' : 'MISSED'} (${detail})`);
for (const n of SIZES) {
  const ratio = row(n, 'needlework').wallS / fastestPeer(n);
  const dev = row(n, 'needlework on a developer machine').wallS / fastestPeer(n);
  const alone = row(n, 'needlework --reporter default').wallS / fastestPeer(n);
  if (TIME)
    console.log(
      `${n.toLocaleString('en-US')} cases, CPU against the fastest peer's: needlework in CI ${(row(n, 'needlework').cpuS / fastestPeerCpu(n)).toFixed(2)}x, on a developer machine ${(row(n, 'needlework on a developer machine').cpuS / fastestPeerCpu(n)).toFixed(2)}x, --reporter default alone ${(row(n, 'needlework --reporter default').cpuS / fastestPeerCpu(n)).toFixed(2)}x`,
    );
  console.log(
    `${n.toLocaleString('en-US')} cases, every spec parsed (--no-spec-cache): ${(row(n, 'needlework --no-spec-cache').wallS / fastestPeer(n)).toFixed(2)}x the fastest peer`,
  );
  // Issue 43: the default outputs of a developer's machine at most 0.9x the fastest peer, every output (CI) at most 1.2x.
  target(
    `${n.toLocaleString('en-US')} cases, on a developer machine: at most 0.9x the fastest peer`,
    dev <= 0.9,
    `${dev.toFixed(2)}x`,
  );
  target(
    `${n.toLocaleString('en-US')} cases, in CI (every output): at most 1.2x the fastest peer`,
    ratio <= 1.2,
    `${ratio.toFixed(2)}x`,
  );
  console.log(
    `${n.toLocaleString('en-US')} cases, --reporter default alone: ${alone.toFixed(2)}x the fastest peer`,
  );
  if (n === 10_000) {
    const r = row(n, 'needlework');
    target('10,000 cases under 15 s', r.wallS < 15, `${r.wallS.toFixed(1)} s`);
    target('10,000 cases under 800 MB', r.peakMb < 800, `${r.peakMb.toFixed(0)} MB`);
  }
}

// The cost per case: the slope of wall time from the smallest size to the largest, against the fastest peer's.
if (SIZES.length > 1) {
  const [small, large] = [Math.min(...SIZES), Math.max(...SIZES)];
  const slope = (tool) => (row(large, tool).wallS - row(small, tool).wallS) / (large - small);
  const peers = tools.filter((t) => !t.name.startsWith('needlework')).map((t) => t.name);
  const peerSlope = Math.min(...peers.map(slope));
  const devSlope = slope('needlework on a developer machine');
  target(
    "cost per case on a developer machine at most the fastest peer's",
    devSlope <= peerSlope,
    `${(devSlope * 1000).toFixed(3)} ms against ${(peerSlope * 1000).toFixed(3)} ms`,
  );
}
