// Reporter speed: JUnit, trend and HTML for 1,000 workups x 10 criteria, synthetic results fed straight to the
// report-building functions (no Vitest run). Targets: JUnit < 2 s, trend < 2 s (building the entry and appending it to
// a history that already holds 49 runs of the same size, the bounded worst case), HTML < 5 s and < 20 MB, and the page
// interactive in Chromium < 2 s (navigation start until the page has drawn itself and flagged ready), plus how long a
// search takes to redraw. Chromium is skipped, with the reason, when /usr/bin/chromium is absent.
//
// JUnit also on a real run's checks: `needlework run` over the peer workload (bench/workload/cases.mjs; 1,000 cases,
// 3,000 checks, a tenth of them failing; BENCH_JUNIT_CASES for another size) captured once, then the file written from
// them in fresh processes, as cold as after a run's last test: with every test case written after the last test, and
// with each written as its test ends (what the reporter does; the cases' time is spent while the tests run, when the
// main thread mostly waits). Three rounds, medians of the main thread's busy time. BENCH_JUNIT_BEFORE=<another
// checkout's dist> also writes the file all after the last test with that build, interleaved with these. Target (issue
// 43): after the last test, at most half of the main thread's time that build took (main before the cases were
// written ahead: 1,000 cases 72-88 ms, 10,000 cases about 0.4 s in profiles of `CI=true needlework run`).
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compare } from '../dist/src/history/compare.js';
import { buildTrendRun } from '../dist/src/history/entry.js';
import { readHistory, serializeHistory } from '../dist/src/history/history.js';
import { metricMeans } from '../dist/src/history/means.js';
import { parseNote } from '../dist/src/note/parse.js';
import { buildJUnitXml } from '../dist/src/report/junit/build.js';
import { reportAnswers, reportHome } from '../dist/src/ui/report/answers.js';
import { renderHtmlPage } from '../dist/src/ui/report/page.js';
import { loadedWorkupAnswer } from '../dist/src/ui/report/workups.js';
import { hasChromium, launchChromium, NO_CHROMIUM } from '../test/reporters/browser.mjs';
import { writeNeedleworkProject } from './workload/cases.mjs';

const WORKUPS = 1000;
const CRITERIA = [
  'surfaced',
  'traversed',
  'grounded',
  'citations-resolve',
  'citation-recall',
  'citation-precision',
  'pivot-burden',
  'supporting-f1',
  'confidence',
  'sourcing',
];
const root = await mkdtemp(join(tmpdir(), 'needlework-bench-reporters-'));

let seed = 7;
const rand = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};

const NOTE = (i) => `# Workup ${i}

## Summary

Halberd and Wren are linked through the Compound-Alpha facility. We assess with moderate confidence that they likely share access to the site. [cite:g4,g5]

## Findings

- Halberd is a member of Ash Cell. [cite:g1]
- Ash Cell is co-located at Compound-Alpha. [cite:g4]
- Wren is co-located at Compound-Alpha. [cite:g5] Wren visited the site twice in March.
- Halberd and Wren probably know each other personally.
- A courier for Ash Cell was seen at Compound-Alpha in May. [cite:g99]

## Gaps & caveats

- We did not query the document store about Halberd.
`;

function workup(i) {
  const ledger = Array.from({ length: 7 }, (_, k) => ({
    id: `g${k + 1}`,
    store: k === 5 ? 'docs' : 'graph',
    query: `neighbors("Entity ${i}-${k}")`,
    results: [{ subject: `E${k}`, relation: 'CO_LOCATED', object: `E${k + 1}`, store: 'graph' }],
    ...(k === 2 ? { error: 'timeout after 5000 ms' } : {}),
  }));
  const steps = Array.from({ length: 14 }, (_, k) => ({
    step_id: k + 1,
    step_type: ['thought', 'tool_call', 'observation'][k % 3] ?? 'thought',
    content: k % 3 === 2 ? JSON.stringify(ledger[k % 7].results) : `step ${k} of workup ${i}`,
    tool_name: k % 3 === 1 ? 'graph.neighbors' : null,
    tool_input: k % 3 === 1 ? { entity: `E${k % 4}` } : null,
    tool_output: null,
    timestamp: null,
    latency_ms: Math.round(rand() * 800),
    tokens_used: Math.round(rand() * 200),
    error: k === 8 ? 'timeout' : null,
  }));
  return {
    id: `workup-${String(i).padStart(4, '0')}`,
    note: parseNote(NOTE(i)),
    ledger,
    trajectory: {
      task_id: `w${i}`,
      task_input: 'who?',
      steps,
      final_answer: 'x',
      succeeded: true,
      total_tokens: 1400,
      total_latency_ms: 5000,
      metadata: {},
    },
    meta: { path: `workups/workup-${i}` },
  };
}

const workups = new Map();
const checks = [];
for (let i = 0; i < WORKUPS; i++) {
  const w = workup(i);
  workups.set(`workups/${w.id}`, { workup: w });
  for (const criterion of CRITERIA) {
    const value = Number(rand().toFixed(3));
    const pass = value >= 0.3;
    checks.push({
      name: criterion,
      suitePath: ['compound-alpha', w.id],
      fullName: `compound-alpha > ${w.id} > ${criterion}`,
      file: 'needles/compound-alpha.needle.yaml',
      state: pass ? 'passed' : 'failed',
      durationMs: rand() * 20,
      errors: pass
        ? []
        : [
            {
              name: 'AssertionError',
              message: `expected ${value} to be >= 0.3`,
              stack: 'AssertionError: x\n    at y',
            },
          ],
      meta: {
        schema: 1,
        spec: 'compound-alpha',
        specKind: 'needle',
        workup: w.id,
        workupPath: `workups/${w.id}`,
        criterion,
        metric: criterion.replace(/-/g, '_'),
        value,
        threshold: 0.3,
        comparator: '>=',
        verdict: pass ? 'pass' : 'fail',
        summary: pass ? undefined : `the ledger reached ${Math.round(value * 3)} of 3 hops`,
        evidence:
          criterion === 'traversed'
            ? { required_path: ['MEMBER_OF', 'CO_LOCATED', 'CO_LOCATED'], traversed: ['MEMBER_OF'] }
            : undefined,
        scores: { tokens: 1400, cost: 0.0042 },
      },
    });
  }
}

const now = () => process.hrtime.bigint();
const secs = (start) => Number(process.hrtime.bigint() - start) / 1e9;
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);
const verdict = (ok) => (ok ? 'ok' : 'OVER TARGET');
const rows = [];

// JUnit
let start = now();
const xml = await buildJUnitXml(checks, { name: 'needlework', timestamp: new Date() });
const junitS = secs(start);
rows.push([
  'JUnit XML (synthetic, in-process)',
  `${junitS.toFixed(3)} s`,
  `${mb(Buffer.byteLength(xml))} MB`,
  '< 2 s',
  verdict(junitS < 2),
]);

// JUnit on a real run's checks, each way written in a fresh process.
const here = new URL('.', import.meta.url).pathname;
const cases = Number(process.env.BENCH_JUNIT_CASES ?? 1000);
const project = join(root, 'peer-workload');
await writeNeedleworkProject(project, cases);
const records = join(root, 'records.json');
try {
  execFileSync(
    process.execPath,
    [
      join(here, '../dist/src/cli/bin.js'),
      'run',
      'workups',
      '--needles',
      'needles',
      '--reporter',
      join(here, 'workload/junit-capture.mjs'),
    ],
    { cwd: project, stdio: 'ignore', env: { ...process.env, NEEDLEWORK_BENCH_RECORDS: records } },
  );
} catch (error) {
  if (error.status !== 1) throw error; // 1: the workload's planted failures
}
const dist = join(here, '../dist');
const before = process.env.BENCH_JUNIT_BEFORE;
const ways = [
  ...(before ? [{ name: 'before', dist: before, when: 'end' }] : []),
  { name: 'end', dist, when: 'end' },
  { name: 'ahead', dist, when: 'ahead' },
];
const junitRuns = Object.fromEntries(ways.map((way) => [way.name, []]));
for (let round = 0; round < 3; round++) {
  for (const way of ways) {
    const out = join(root, `junit-${way.name}.xml`);
    const result = execFileSync(
      process.execPath,
      ['--expose-gc', join(here, 'workload/junit-write.mjs'), way.dist, records, out, way.when],
      { encoding: 'utf8' },
    );
    junitRuns[way.name].push(JSON.parse(result));
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const endMs = median(junitRuns.end.map((r) => r.endMs));
const aheadEndMs = median(junitRuns.ahead.map((r) => r.endMs));
const aheadMs = median(junitRuns.ahead.map((r) => r.aheadMs));
const beforeMs = before ? median(junitRuns.before.map((r) => r.endMs)) : undefined;
const files = await Promise.all(ways.map((way) => readFile(join(root, `junit-${way.name}.xml`))));
const same = files.every((file) => file.equals(files[0]));
const real = `JUnit, ${cases.toLocaleString('en-US')} peer cases`;
if (beforeMs !== undefined)
  rows.push([
    `${real}: before (${before}), all after the last test`,
    `${beforeMs.toFixed(0)} ms`,
    'main thread',
    '',
    '',
  ]);
rows.push([`${real}: all after the last test`, `${endMs.toFixed(0)} ms`, 'main thread', '', '']);
rows.push([
  `${real}: cases as tests end`,
  `${aheadMs.toFixed(0)} ms`,
  'main thread, during the tests',
  '',
  '',
]);
rows.push([
  `${real}: the rest after the last test`,
  `${aheadEndMs.toFixed(0)} ms`,
  same ? 'main thread; the same file each way' : 'main thread; THE FILES DIFFER',
  beforeMs === undefined ? '' : '<= half of before',
  beforeMs === undefined ? (same ? '' : 'FILES DIFFER') : verdict(same && aheadEndMs <= beforeMs / 2),
]);

// Trend: one entry, appended to a history already holding 49 runs of the same size.
const history = join(root, 'trend.json');
const prior = buildTrendRun(checks, { commit: 'a'.repeat(40), branch: 'main', source: 'git' });
await writeFile(
  history,
  serializeHistory({
    schema: 2,
    runs: Array.from({ length: 49 }, (_, k) => ({
      ...prior,
      id: `${prior.id.slice(0, -8)}${String(k).padStart(8, '0')}`,
    })),
  }),
);
// The trend.json export of a store of 50 runs (the store itself is bench/store.bench.mjs's).
start = now();
const entry = buildTrendRun(checks, { commit: 'b'.repeat(40), branch: 'main', source: 'git' });
const prior49 = await readHistory(history);
const exported = serializeHistory({ schema: 2, runs: [...prior49.runs.slice(-49), entry] });
await writeFile(history, exported);
const trendS = secs(start);
const written = await readHistory(history);
const historyBytes = exported.length;
rows.push([
  'trend.json export (50 runs)',
  `${trendS.toFixed(3)} s`,
  `${mb(historyBytes)} MB file`,
  '< 2 s',
  verdict(trendS < 2),
]);

// HTML: the client over the run's answers. The run itself and its gate against its baseline (the history's last run
// before it) are the trend reporter's, which the HTML reporter of the same run reuses (built here before the clock
// starts); its trend is the last 30 runs.
const baseline = written.runs.at(-2);
const comparison = compare(entry, baseline);
start = now();
const charted = [...written.runs.slice(-30)];
const trend = {
  total: written.runs.length,
  runs: charted.map(({ checks: _, trials: __, ...head }) => head),
  series: metricMeans(charted),
};
const html = await renderHtmlPage(
  { run: entry.id, title: 'bench', generatedAt: new Date().toISOString(), home: reportHome(entry) },
  reportAnswers({
    run: entry,
    compared: { baseline, comparison },
    trend: Promise.resolve(trend),
    records: checks,
    root,
    workup: loadedWorkupAnswer(entry, workups, root),
  }),
);
const htmlS = secs(start);
const htmlBytes = Buffer.byteLength(html);
rows.push([
  'HTML report',
  `${htmlS.toFixed(3)} s`,
  `${mb(htmlBytes)} MB`,
  '< 5 s, < 20 MB',
  verdict(htmlS < 5 && htmlBytes < 20 * 1024 * 1024),
]);

// Chromium
if (!hasChromium) {
  rows.push(['page interactive (Chromium)', 'skipped', '', '< 2 s', NO_CHROMIUM]);
} else {
  const file = join(root, 'report.html');
  await writeFile(file, html);
  // BENCH_KEEP_REPORT=<path> keeps the report to look at (its answers' sizes, in a browser).
  if (process.env.BENCH_KEEP_REPORT) await writeFile(process.env.BENCH_KEEP_REPORT, html);
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const url = pathToFileURL(file).href;
  await page.goto(url); // warm the browser process once; the measured load is the second
  await page.waitForSelector('body[data-ready="true"]');
  const page2 = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  start = now();
  await page2.goto(url);
  await page2.waitForSelector('body[data-ready="true"]');
  const readyS = secs(start);
  // The page's own clock too: navigation start to the end of its script.
  const inPage = await page2.evaluate(() => performance.now());
  // The report opens at the run's failing checks; a search narrows them to one workup's.
  const failingOf0999 = checks.filter(
    (c) => c.meta.workup === 'workup-0999' && c.meta.verdict === 'fail',
  ).length;
  start = now();
  await page2.fill('.filters input[type=search]', 'workup-0999');
  await page2.waitForFunction(
    (n) => document.querySelector('.filters .count')?.textContent === `${n} of 10,000 checks`,
    failingOf0999,
  );
  const searchS = secs(start);
  await browser.close();
  rows.push([
    'page interactive (Chromium)',
    `${readyS.toFixed(3)} s`,
    `${(inPage / 1000).toFixed(3)} s in-page`,
    '< 2 s',
    verdict(readyS < 2),
  ]);
  rows.push(['search redraw (incl. 120 ms debounce)', `${searchS.toFixed(3)} s`, '', '', '']);
}

console.log(`${WORKUPS} workups x ${CRITERIA.length} criteria = ${checks.length} checks`);
const widths = [0, 1, 2, 3, 4].map((i) => Math.max(...rows.map((r) => String(r[i]).length), 6));
for (const r of [['what', 'time', 'size', 'target', 'verdict'], ...rows])
  console.log(r.map((c, i) => String(c).padEnd(widths[i])).join('  '));
console.log(`peak RSS ${mb(process.resourceUsage().maxRSS * 1024)} MB`);
await rm(root, { recursive: true, force: true });
