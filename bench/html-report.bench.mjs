// The HTML report of a real run's checks on the main thread, before and after, at 1,000 and 10,000 cases (BENCH_CASES
// picks the sizes): the peers' workload (bench/workload/cases.mjs, each case 8 tool calls checked in order and in any
// order, and an exact answer) checked by the one verdict engine, with a baseline to gate against and the trend
// (bench/workload/report-input.mjs). No Vitest run: the reporter's functions get what Vitest would hand them.
//
// Before (BENCH_BASE, default e568503, built from git in this run): every answer is built, written as JSON and packed
// after the last test. After: each workup is read and its answer written while the tests run, in a thread of its own
// (`WorkupAnswersAhead` fed each collected module and each finished test as Vitest feeds them, `answerWriting`), and
// the end builds the run's own answers and packs it all. Measured: the main thread's CPU time (garbage collection
// included; where the system counts no thread's CPU, its event loop's active time) after the tests, and after's
// main-thread work during them (the answers' thread's is not the main thread's); the wall time after the tests
// includes waiting for the thread's last answers, which in a run it writes while the last module's tests run. Target
// (issue 43, item 7): after the tests, at most half of before's. The two pages' answers must be the same text at the
// same places (checked).
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { buildBase } from './base-build.mjs';
import { reportInput } from './workload/report-input.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const SIZES = (process.env.BENCH_CASES ?? '1000,10000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const baseRef = process.env.BENCH_BASE ?? 'e568503';

async function lib(root) {
  const m = (p) => import(`${root}/src/${p}`);
  const [answers, page, workups, ahead, writing] = await Promise.all([
    m('ui/report/answers.js'),
    m('ui/report/page.js'),
    m('ui/report/workups.js'),
    m('ui/report/workups-ahead.js').catch(() => undefined),
    m('ui/report/answer-writing.js').catch(() => undefined),
  ]);
  return { ...answers, ...page, ...workups, ...ahead, ...writing };
}

let before;
try {
  const base = buildBase(baseRef);
  // The page inlines the built client, which neither side changes: the base reads this build's, and names this
  // package's version.
  const client = join(base, 'dist/src/ui/client');
  if (!existsSync(client)) cpSync(join(here, '../dist/src/ui/client'), client, { recursive: true });
  if (!existsSync(join(base, 'package.json')))
    cpSync(join(here, '../package.json'), join(base, 'package.json'));
  before = await lib(base);
} catch (error) {
  console.log(`before (${baseRef}): not measured, not built here: ${error.message.split('\n')[0]}`);
}
const after = await lib(join(here, '../dist'));
const { recordTrialStatistics } = await import('../dist/src/report/trials.js');

/**
 * The main thread's CPU time in milliseconds: its scheduler's count on Linux (the CPU it ran, not the time it waited for
 * a core while the answers' thread, zlib's pool or another process had it); elsewhere undefined.
 */
function mainThreadCpu() {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return undefined;
  }
}

/**
 * Runs `work` and returns its result with the main thread's busy milliseconds (its CPU time where the system counts it,
 * else the event loop's active time, garbage collection included either way) and the wall milliseconds.
 */
async function timed(work) {
  globalThis.gc?.();
  const cpu = mainThreadCpu();
  const start = performance.eventLoopUtilization();
  const t0 = performance.now();
  const result = await work();
  const wall = performance.now() - t0;
  const busy = cpu === undefined ? performance.eventLoopUtilization(start).active : mainThreadCpu() - cpu;
  return { result, busy, wall };
}

/** A page's answers as it packs them: the index (each answer's path, segment and place) and the segments' text. */
function unpacked(page) {
  const index = /id="needlework-index">([^<]*)</.exec(page)?.[1];
  const segments = [...page.matchAll(/id="needlework-answers-\d+">([^<]*)</g)].map((m) =>
    gunzipSync(Buffer.from(m[1], 'base64')),
  );
  return { index, text: Buffer.concat(segments), segments: segments.length };
}

/**
 * The test modules and finished tests Vitest would hand the reporter: a module per spec file, a describe per case x
 * workup carrying its workup's path, a test per check.
 */
function vitestView(records) {
  const modules = new Map();
  for (const record of records) {
    let suites = modules.get(record.file);
    if (!suites) {
      suites = new Map();
      modules.set(record.file, suites);
    }
    const key = record.suitePath.join(' > ');
    let suite = suites.get(key);
    if (!suite) {
      const path = record.meta.workupPath;
      suite = { tests: [], meta: () => ({ needleworkWorkup: path }) };
      suite.children = { allTests: () => suite.tests.values() };
      suites.set(key, suite);
    }
    suite.tests.push({ meta: () => ({ needlework: record.meta }), result: () => ({ state: record.state }) });
  }
  return [...modules.values()].map((suites) => ({ children: { allSuites: () => suites.values() } }));
}

const turn = () => new Promise((done) => setImmediate(done));

for (const n of SIZES) {
  const input = await reportInput(n);
  const { run, baseline, gate, trend, records, root, workups } = input;
  const trials = recordTrialStatistics(records);
  const info = { run: run.id, title: 'bench', generatedAt: new Date(0).toISOString(), home: '/' };
  const page = async (m, workup) => {
    let html = '';
    const answers = m.reportAnswers({
      run,
      compared: { baseline, comparison: gate.comparison, text: gate.text },
      trend: Promise.resolve(trend),
      records,
      root,
      trials,
      workup,
    });
    for await (const chunk of m.htmlPageChunks(info, answers)) html += chunk;
    return html;
  };
  const figures = { before: [], during: [], after: [] };
  let same = true;
  for (let round = 0; round < ROUNDS; round++) {
    let old;
    if (before) {
      const t = await timed(() => page(before, before.loadedWorkupAnswer(run, workups, root)));
      figures.before.push(t);
      old = unpacked(t.result);
    }
    // During the tests: each module collected, then each test as it ends (a turn of the event loop every 100 tests,
    // as Vitest reports them in batches); the answers are written in their thread meanwhile.
    const modules = vitestView(records);
    const ahead = new after.WorkupAnswersAhead(root, modules.length, after.answerWriting(root));
    const during = await timed(async () => {
      for (const module of modules) ahead.noteModule(module);
      await turn();
      let n = 0;
      for (const module of modules)
        for (const suite of module.children.allSuites())
          for (const test of suite.tests) {
            ahead.noteTest(test);
            if (++n % 100 === 0) await turn();
          }
      await turn();
    });
    figures.during.push(during);
    // After the tests: the answers written ahead (waiting for the thread to write the last of them), and the page.
    const built = after.loadedWorkupAnswer(run, workups, root);
    const t = await timed(async () => {
      const written = await ahead.finish();
      return page(after, async (ref) => written(ref, run.id) ?? built(ref));
    });
    figures.after.push(t);
    if (old) {
      const now = unpacked(t.result);
      same &&= old.index === now.index && old.segments === now.segments && old.text.equals(now.text);
    }
  }
  const best = (list, key) => Math.min(...list.map((t) => t[key]));
  const fmt = (list) =>
    list.length
      ? `${best(list, 'busy').toFixed(0)} ms main thread (${best(list, 'wall').toFixed(0)} ms wall)`
      : 'not measured';
  console.log(
    `\n${n.toLocaleString('en')} cases, ${records.length.toLocaleString('en')} checks (best of ${ROUNDS})`,
  );
  console.log(`  before, after the tests:  ${fmt(figures.before)}`);
  console.log(`  after, during the tests:  ${fmt(figures.during)}`);
  console.log(`  after, after the tests:   ${fmt(figures.after)}`);
  if (figures.before.length) {
    const ratio = best(figures.after, 'busy') / best(figures.before, 'busy');
    console.log(
      `  after/before, after the tests: ${ratio.toFixed(2)} (target <= 0.5: ${ratio <= 0.5 ? 'met' : 'MISSED'}); the pages' answers ${same ? 'the same' : 'DIFFER'}`,
    );
    if (!same) process.exitCode = 1;
  }
  await rm(root, { recursive: true, force: true });
}
console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
