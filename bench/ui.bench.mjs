// needlework ui against the targets of issue 44, in Debian's Chromium driven by playwright-core, on two stores (each
// written by the database itself, generate_series, as bench/store.bench.mjs does):
// - A: 10,000 runs x 30 checks plus two runs of 30,000 checks on their own branch;
// - B: 1,000 runs x 10,000 checks (the largest store).
// Measured:
// - the Runs view's first rows, from navigation to the first row in the page (an observer in the page notes when it
//   appears), five new pages one after another (<= 500 ms on A, <= 1 s on B);
// - the comparison of the two 30,000-check runs: the server's answer cold (a UI just started, neither run read yet;
//   three UIs) and asked again, and its drawing in the page after the answer (server <= 300 ms, drawn <= 150 ms);
// - every API answer the views make, p95 (<= 100 ms); the One case view's answers each ask for another case;
// - the initial JavaScript, gzipped (<= 50 KB);
// - a run appended through the door while the Runs view is open, to its row on the screen (<= 1 s);
// - the browser's JS heap after scrolling the whole Runs view and after the Compare and One run views of the largest
//   runs (<= 80 MB).
// - a workup of 2,000 steps (1,000 tool calls with an expected-calls check laid over them), read from its folder
//   through a run appended after the UI opened: the server's answer, and its first screen from the click on its
//   check in the One run view and from navigation (<= 200 ms).
// NEEDLEWORK_BENCH_UI_STORE and NEEDLEWORK_BENCH_UI_BIG_STORE name stores this bench filled before (A and B), to
// measure again without filling them again. The load average is printed: the machine may be shared.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { checkWorkup } from '../dist/src/checks/check-workup.js';
import { compare } from '../dist/src/history/compare.js';
import { buildTrendRun, summarize, trendTrials } from '../dist/src/history/entry.js';
import { findBaseline } from '../dist/src/history/gate.js';
import { RUN_METRICS } from '../dist/src/history/store/migrations.js';
import { openStore } from '../dist/src/history/store/open.js';
import { makeStep, makeTrajectory } from '../dist/src/model/trajectory.js';
import { parseSpec } from '../dist/src/specs/load.js';
import { CLIENT_SCRIPT, clientFolder } from '../dist/src/ui/assets.js';
import { openSharedStore } from '../dist/src/ui/door/client.js';
import { startUi } from '../dist/src/ui/server.js';
import { loadWorkup } from '../dist/src/workup/load.js';
import { saveWorkup } from '../dist/src/workup/save.js';
import { hasChromium, launchChromium, NO_CHROMIUM } from '../test/reporters/browser.mjs';

const RUNS = 10_000;
const CHECKS = 30;
const BIG = 30_000;
const BIG_RUNS = 1_000;
const BIG_CHECKS = 10_000;
const verdict = (ok) => (ok ? 'met' : 'MISSED');
const ms = (x) => `${x.toFixed(0)} ms`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)];

if (!hasChromium) {
  console.log(`skipped: ${NO_CHROMIUM}`);
  process.exit(0);
}

/** A run of `n` checks: 6 specs x 5 criteria of `n / 30` tasks, one trial each; `seed` moves which fail. */
function makeRun(minute, n, seed, branch) {
  const checks = Array.from({ length: n }, (_, i) => {
    const value = ((i * 7 + seed) % 100) / 100;
    return {
      spec: `spec-${i % 6}`,
      case: `case-${Math.floor(i / 30)}`,
      workup: `workup-${Math.floor(i / 30)}`,
      criterion: `criterion-${Math.floor(i / 6) % 5}`,
      metric: 'recall',
      value,
      threshold: 0.3,
      comparator: '>=',
      verdict: value >= 0.3 ? 'pass' : 'fail',
      state: value >= 0.3 ? 'passed' : 'failed',
      reason: `expected recall >= 0.3, found ${value}`,
    };
  });
  const time = new Date(Date.UTC(2026, 0, 1) + minute * 60_000).toISOString();
  return {
    id: `${time.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}-${randomBytes(4).toString('hex')}`,
    time,
    commit: randomBytes(20).toString('hex'),
    branch,
    scope: { kind: 'full' },
    environment: { model: minute < RUNS / 2 ? 'model-a' : 'model-b', agentVersion: '1.0' },
    summary: summarize(checks),
    checks,
    trials: trendTrials(checks),
  };
}

/**
 * Fills the store at `location` (unless `reuse`): `runs` runs of `checks` checks on main (every tenth on a feature
 * branch; model a for the first half, b after), copies of one real run written by the database, each failing a
 * different few checks so that a run and its baseline differ; then `extra` runs appended as they are.
 */
async function fill(location, runs, checks, extra = []) {
  const start = performance.now();
  const store = await openStore(location);
  await store.append(makeRun(0, checks, 0, 'main'));
  const [first] = await store.engine.query('SELECT min(seq)::integer AS seq FROM needlework_runs');
  // About half a million checks a transaction.
  const batch = Math.max(1, Math.floor(500_000 / checks));
  for (let from = 1; from < runs; from += batch) {
    const to = Math.min(from + batch - 1, runs - 1);
    await store.engine.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO needlework_runs (id, time, time_text, commit, branch, scope, scope_key, model, agent_version, checks, passed, failed, not_applicable, skipped)
         SELECT 'run-' || lpad(g::text, 5, '0'), ts, to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           md5(g::text) || 'abcdefgh', CASE WHEN g % 10 = 0 THEN 'feature-' || (g % 7) ELSE 'main' END,
           '{"kind":"full"}'::jsonb, 'full', CASE WHEN g < ${runs / 2} THEN 'model-a' ELSE 'model-b' END, '1.0',
           r.checks, r.passed - (g % 3), r.failed + (g % 3), 0, 0
         FROM generate_series($1::integer, $2::integer) g, needlework_runs r,
           LATERAL (SELECT timestamptz '2026-01-01 00:00:00+00' + g * interval '1 minute' AS ts) t
         WHERE r.seq = $3`,
        [from, to, first.seq],
      );
      await tx.query(
        `INSERT INTO needlework_checks
         SELECT n.seq, c.ord, c.spec, c."case", c.workup, c.task, c.trial_number, c.trial_label, c.criterion, c.metric,
           c.value, c.value_boolean, c.unit, c.threshold, c.comparator,
           CASE WHEN (n.seq + c.ord) % 11 = 0 THEN 'fail' ELSE c.verdict END, c.state, c.reason
         FROM needlework_runs n, needlework_checks c
         WHERE n.id LIKE 'run-%' AND substr(n.id, 5)::integer BETWEEN $1 AND $2 AND c.run = $3
         ORDER BY n.seq, c.ord`,
        [from, to, first.seq],
      );
      await tx.exec(
        RUN_METRICS(
          `run IN (SELECT seq FROM needlework_runs WHERE id LIKE 'run-%' AND substr(id, 5)::integer BETWEEN ${from} AND ${to})`,
        ),
      );
    });
  }
  // As the trend reporter appends a run: the run, then the default gate's comparison with its baseline kept with it.
  for (const run of extra) {
    const { run: baseline } = await findBaseline(store, run, run.time);
    await store.append(run);
    if (baseline) await store.keepComparison(run.id, compare(run, baseline));
  }
  await store.engine.exec('VACUUM ANALYZE');
  const [row] = await store.engine.query(
    'SELECT (SELECT count(*) FROM needlework_runs)::integer AS runs, (SELECT count(*) FROM needlework_checks)::integer AS checks',
  );
  console.log(
    `filled ${location} with ${row.runs} runs, ${row.checks} checks in ${((performance.now() - start) / 1000) | 0} s`,
  );
  await store.close();
}

/**
 * A project holding one workup of `steps` steps (a tool call and its result each two steps, every fifth call a
 * `fetch`), and the run that checked it against a task case expecting three fetches in any order (`superset`): the run
 * names the workup's folder under the project's root, as a run of the trend reporter does.
 */
async function workupRun(steps) {
  const project = join(root, 'project');
  const trajectory = makeTrajectory({
    task_id: 'long',
    task_input: 'Read every page',
    steps: Array.from({ length: steps }, (_, i) =>
      i % 2 === 0
        ? makeStep({
            step_id: i + 1,
            step_type: 'tool_call',
            tool_name: i % 10 === 0 ? 'fetch' : 'read',
            tool_input: { page: i / 2, options: { format: 'text', max: 4000 } },
            content: JSON.stringify({ page: i / 2 }),
            tokens_used: 40,
            latency_ms: 120,
          })
        : makeStep({
            step_id: i + 1,
            step_type: 'observation',
            tool_output: `page ${(i - 1) / 2}: ${'lorem ipsum dolor sit amet '.repeat(12)}`,
          }),
    ),
  });
  const folder = join(project, 'runs', 'long');
  await saveWorkup({ id: 'long', ledger: [], trajectory, meta: { task: 'read-all' } }, folder);
  const spec = parseSpec(
    'id: bench\ncases:\n  - id: read-all\n    workups: [long]\n    expect:\n      tool_calls:\n        match: superset\n        args: ignore\n        calls: [{ name: fetch }, { name: fetch }, { name: fetch }]\n',
    join(project, 'bench.cases.yaml'),
  );
  const checks = await checkWorkup(await loadWorkup(folder), [spec]);
  return buildTrendRun(
    checks.map((meta) => ({ meta, state: meta.verdict === 'fail' ? 'failed' : 'passed' })),
    { branch: 'workup' },
    new Date(),
    { kind: 'full' },
    project,
  );
}

/** A new page at `path` of `ui`, with an observer that notes when the first row of a list appears in it. */
async function openPage(browser, ui, path, row = '.vlist .r-run .time a') {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.addInitScript((selector) => {
    new MutationObserver((_, observer) => {
      if (!document.querySelector(selector)) return;
      window.__firstRow = performance.now();
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  }, row);
  await page.goto(`${ui.url}${path}`, { waitUntil: 'commit' });
  await page.locator(row).first().waitFor({ timeout: 60_000 });
  return page;
}

/** The Runs view's first rows, from navigation, in five new pages one after another (ms). */
async function firstRows(browser, ui) {
  const times = [];
  for (let i = 0; i < 5; i++) {
    const page = await openPage(browser, ui, 'runs');
    times.push(await page.evaluate('window.__firstRow'));
    await page.close();
  }
  return times;
}

/** The page's JS heap in use (MB), as Chromium counts it, garbage not collected first. */
async function heapMb(page) {
  const cdp = await page.context().newCDPSession(page);
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return usedSize / 2 ** 20;
}

/** Scrolls the whole Runs view of `total` runs (every page of runs fetched), then the heap (MB). */
async function scrollRuns(page, total) {
  for (let y = 0; y < total * 36; y += 900 * 20) {
    await page.evaluate(`document.querySelector('.vlist').scrollTop = ${y}`);
    await page.waitForTimeout(30);
  }
  await page.evaluate(`document.querySelector('.vlist').scrollTop = ${total * 36}`);
  await page
    .locator('.vlist .r-run .time a', { hasText: '2026-01-01' })
    .first()
    .waitFor({ timeout: 120_000 });
  return heapMb(page);
}

/** The Compare view of `current` and `baseline` drawn, after its answer arrived (ms), and the page's heap (MB). */
async function drawCompare(browser, ui, current, baseline) {
  const page = await openPage(
    browser,
    ui,
    `compare?current=${current}&baseline=${baseline}`,
    '.vlist .r-cmp',
  );
  const drawn = await page.evaluate(`(() => {
    const drawn = performance.getEntriesByName('needlework:compare-drawn')[0].startTime;
    const answer = performance.getEntriesByType('resource').find((e) => e.name.includes('/api/compare'));
    return drawn - answer.responseEnd;
  })()`);
  const heap = await heapMb(page);
  await page.close();
  return { drawn, heap };
}

/** The One run view of `id`, and the page's heap (MB). */
async function runViewHeap(browser, ui, id) {
  const page = await openPage(browser, ui, `runs/${id}`, '.vlist .r-check');
  const heap = await heapMb(page);
  await page.close();
  return heap;
}

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');
console.log(`load average at the start: ${load()} (${availableParallelism()} cores)`);
const root = await mkdtemp(join(tmpdir(), 'needlework-bench-ui-'));
const location = process.env.NEEDLEWORK_BENCH_UI_STORE || join(root, 'store');
if (!process.env.NEEDLEWORK_BENCH_UI_STORE)
  await fill(location, RUNS, CHECKS, [makeRun(RUNS + 1, BIG, 1, 'big'), makeRun(RUNS + 2, BIG, 2, 'big')]);
const bigLocation = process.env.NEEDLEWORK_BENCH_UI_BIG_STORE || join(root, 'big-store');
if (!process.env.NEEDLEWORK_BENCH_UI_BIG_STORE) await fill(bigLocation, BIG_RUNS, BIG_CHECKS);

const results = [];
const heaps = [];
const browser = await launchChromium();
try {
  // Compare two runs of 30,000 checks, cold: a UI just started, so neither run is read yet; three times.
  const cold = [];
  let pair;
  for (let i = 0; i < 3; i++) {
    const fresh = await startUi({ store: location, port: 0 });
    try {
      pair ??= (await (await fetch(`${fresh.url}api/runs?branch=big&limit=2`)).json()).rows.map((r) => r.id);
      const t = performance.now();
      const answer = await fetch(`${fresh.url}api/compare?current=${pair[0]}&baseline=${pair[1]}`);
      await answer.arrayBuffer();
      cold.push(performance.now() - t);
    } finally {
      await fresh.close();
    }
  }
  const [bigNew, bigOld] = pair;

  const ui = await startUi({ store: location, port: 0 });
  try {
    // Initial JavaScript: the one script the page loads (the client bundled, every view in it).
    const bytes = readFileSync(join(clientFolder(), CLIENT_SCRIPT));
    const js = gzipSync(bytes, { level: 9 }).length;
    results.push([
      'initial JavaScript, gzipped',
      `${(js / 1024).toFixed(1)} KB (${(bytes.length / 1024).toFixed(1)} KB raw), one file`,
      50,
      js / 1024 <= 50,
    ]);

    const firsts = await firstRows(browser, ui);
    results.push([
      `runs view, first rows (${RUNS.toLocaleString('en')} runs x ${CHECKS} checks)`,
      `${ms(median(firsts))} median of 5 (${firsts.map((x) => x.toFixed(0)).join(', ')})`,
      500,
      median(firsts) <= 500,
    ]);

    const page = await openPage(browser, ui, 'runs');
    heaps.push(['scrolled every run of A', await scrollRuns(page, RUNS + 2)]);

    // Live: a run appended through the door while the Runs view is open, to its row.
    await page.evaluate(`document.querySelector('.vlist').scrollTop = 0`);
    await page.waitForSelector('#live.on');
    const shared = await openSharedStore(location);
    const live = makeRun(RUNS + 10, CHECKS, 3, 'live');
    const sent = performance.now();
    await shared.append(live);
    await page.locator('.vlist .r-run.fresh .branch', { hasText: 'live' }).waitFor({ state: 'attached' });
    const liveMs = performance.now() - sent;
    await shared.close();
    results.push(['a run appended, to its row on the screen', ms(liveMs), 1000, liveMs <= 1000]);
    await page.close();

    // A workup of 2,000 steps, in a run appended through the door while the UI is open.
    const STEPS = 2_000;
    const withWorkup = await workupRun(STEPS);
    const door = await openSharedStore(location);
    await door.append(withWorkup);
    await door.close();
    const api = `${ui.url}api/runs/${withWorkup.id}/workups/long`;
    let w = performance.now();
    const answer = await (await fetch(api)).text();
    const coldWorkup = performance.now() - w;
    const warmWorkup = [];
    for (let i = 0; i < 5; i++) {
      w = performance.now();
      await (await fetch(api)).arrayBuffer();
      warmWorkup.push(performance.now() - w);
    }
    const parsed = JSON.parse(answer);
    if (parsed.steps.length !== STEPS || parsed.problem)
      throw new Error(`the workup answer is not whole: ${answer.slice(0, 200)}`);
    results.push([
      `a workup of ${STEPS.toLocaleString('en')} steps, the server's answer (${(answer.length / 1024).toFixed(0)} KB)`,
      `first ${ms(coldWorkup)}, again ${ms(median(warmWorkup))} median of 5`,
      100,
      median(warmWorkup) <= 100,
    ]);
    const clicks = [];
    const loads = [];
    const afterAnswer = [];
    for (let i = 0; i < 5; i++) {
      // From the click on the check's workup in the One run view (the app open, the workup view's module not yet loaded).
      const view = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await view.goto(`${ui.url}runs/${withWorkup.id}`);
      await view.locator('.r-check a.workup').first().waitFor();
      await view.evaluate(
        `document.addEventListener('click', () => { window.__clicked = performance.now(); }, { capture: true, once: true })`,
      );
      await view.locator('.r-check a.workup').first().click();
      await view.locator('.vlist .r-step').first().waitFor();
      clicks.push(
        await view.evaluate(
          `performance.getEntriesByName('needlework:workup-drawn')[0].startTime - window.__clicked`,
        ),
      );
      afterAnswer.push(
        await view.evaluate(`(() => {
          const drawn = performance.getEntriesByName('needlework:workup-drawn')[0].startTime;
          const answer = performance.getEntriesByType('resource').find((e) => e.name.includes('/workups/'));
          return drawn - answer.responseEnd;
        })()`),
      );
      await view.close();
      // From navigation: the page, its modules, the answer and the first rows.
      const direct = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await direct.goto(`${ui.url}runs/${withWorkup.id}/workups/long`, { waitUntil: 'commit' });
      await direct.locator('.vlist .r-step').first().waitFor();
      loads.push(
        await direct.evaluate(`performance.getEntriesByName('needlework:workup-drawn')[0].startTime`),
      );
      await direct.close();
    }
    results.push([
      `a workup of ${STEPS.toLocaleString('en')} steps, first screen from the click in the One run view`,
      `${ms(median(clicks))} median of 5 (max ${ms(Math.max(...clicks))}); drawn ${ms(median(afterAnswer))} after the answer`,
      200,
      median(clicks) <= 200,
    ]);
    results.push([
      `a workup of ${STEPS.toLocaleString('en')} steps, first screen from navigation`,
      `${ms(median(loads))} median of 5 (max ${ms(Math.max(...loads))})`,
      200,
      median(loads) <= 200,
    ]);

    // Compare the two runs of 30,000 checks: asked again (kept), and drawn.
    const warm = [];
    let changes = 0;
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      changes = (await (await fetch(`${ui.url}api/compare?current=${bigNew}&baseline=${bigOld}`)).json()).rows
        .length;
      warm.push(performance.now() - t);
    }
    results.push([
      `compare 2 runs of ${BIG.toLocaleString('en')} checks (${changes.toLocaleString('en')} changes), server, cold`,
      `${ms(median(cold))} median of 3 UIs (${cold.map((x) => x.toFixed(0)).join(', ')}); asked again ${ms(median(warm))}`,
      300,
      median(cold) <= 300,
    ]);
    const draws = [];
    for (let i = 0; i < 3; i++) {
      const { drawn, heap } = await drawCompare(browser, ui, bigNew, bigOld);
      draws.push(drawn);
      if (i === 0) heaps.push([`Compare view of 2 runs of ${BIG.toLocaleString('en')} checks`, heap]);
    }
    results.push([
      'compare, drawn after the answer arrived',
      `${ms(median(draws))} median of 3`,
      150,
      median(draws) <= 150,
    ]);
    heaps.push([
      `One run view of ${BIG.toLocaleString('en')} checks`,
      await runViewHeap(browser, ui, bigNew),
    ]);

    // Every API answer the views make, on this store: p95 over 20 requests each.
    const detailId = (await (await fetch(`${ui.url}api/runs?offset=5000&limit=1`)).json()).rows[0].id;
    const paths = [
      ['api/info'],
      ['api/facets'],
      ['api/changes?ids=<30 uncached runs>', (i) => changesOf(ui, i)],
      ['api/runs?offset=5000&limit=100'],
      ['api/runs?branch=main&model=model-b&limit=100'],
      ['api/runs?from=2026-01-03&to=2026-01-05&limit=100'],
      [`api/runs/${detailId}`],
      [`api/runs/${detailId}/trials`],
      [`api/compare?current=${detailId}`],
      ['api/trends?last=100'],
      [`api/runs/${withWorkup.id}/workups/long`],
      // Another case each time: case-0 of spec-0..5 (in every run: 5 checks a run), and cases of the big runs.
      [
        'api/case?<20 cases>',
        (i) =>
          i < 6
            ? `api/case?spec=spec-${i}&case=case-0&task=workup-0`
            : `api/case?spec=spec-${i % 6}&case=case-${i * 37}&task=workup-${i * 37}`,
      ],
    ];
    const all = [];
    const slowest = [];
    for (const [name, make] of paths) {
      const times = [];
      for (let i = 0; i < 20; i++) {
        const p = make ? await make(i) : name;
        const t = performance.now();
        const response = await fetch(`${ui.url}${p}`);
        await response.arrayBuffer();
        times.push(performance.now() - t);
        if (!response.ok) throw new Error(`${p}: ${response.status}`);
      }
      all.push(...times);
      slowest.push([name, p95(times)]);
    }
    results.push([
      'any API answer, p95',
      `${ms(p95(all))} over ${all.length} requests`,
      100,
      p95(all) <= 100,
    ]);
    for (const [path, time] of slowest) console.log(`  p95 ${ms(time).padStart(7)}  ${path}`);
  } finally {
    await ui.close();
  }

  // The largest store: 1,000 runs of 10,000 checks.
  const big = await startUi({ store: bigLocation, port: 0 });
  try {
    const firstsB = await firstRows(browser, big);
    results.push([
      `runs view, first rows (${BIG_RUNS.toLocaleString('en')} runs x ${BIG_CHECKS.toLocaleString('en')} checks)`,
      `${ms(median(firstsB))} median of 5 (${firstsB.map((x) => x.toFixed(0)).join(', ')})`,
      1000,
      median(firstsB) <= 1000,
    ]);
    const page = await openPage(browser, big, 'runs');
    heaps.push(['scrolled every run of B', await scrollRuns(page, BIG_RUNS)]);
    await page.close();
    const [a, b] = (await (await fetch(`${big.url}api/runs?branch=main&limit=2`)).json()).rows.map(
      (r) => r.id,
    );
    heaps.push([
      `Compare view of 2 runs of ${BIG_CHECKS.toLocaleString('en')} checks`,
      (await drawCompare(browser, big, a, b)).heap,
    ]);
    heaps.push([
      `One run view of ${BIG_CHECKS.toLocaleString('en')} checks`,
      await runViewHeap(browser, big, a),
    ]);
  } finally {
    await big.close();
  }
  const [where, most] = heaps.reduce((x, y) => (y[1] > x[1] ? y : x));
  results.push([
    'browser JS heap, largest of the views measured',
    `${most.toFixed(1)} MB (${where})`,
    80,
    most <= 80,
  ]);
  for (const [what, mb] of heaps) console.log(`  heap ${mb.toFixed(1).padStart(5)} MB  ${what}`);
} finally {
  await browser.close();
  if (!process.env.NEEDLEWORK_BENCH_UI_STORE || !process.env.NEEDLEWORK_BENCH_UI_BIG_STORE)
    console.log(
      `(the stores stay at ${location} and ${bigLocation} for NEEDLEWORK_BENCH_UI_STORE and NEEDLEWORK_BENCH_UI_BIG_STORE)`,
    );
}

/** The changes of 30 runs the UI has not compared yet: a different page of runs for each request `i`. */
async function changesOf(ui, i) {
  const page = await (await fetch(`${ui.url}api/runs?offset=${i * 100 + 200}&limit=30`)).json();
  return `api/changes?ids=${page.rows.map((r) => r.id).join(',')}`;
}

console.log(`load average at the end: ${load()}`);
for (const [what, figure, target, ok] of results)
  console.log(`${verdict(ok).padEnd(6)} ${what}: ${figure} (target ${target})`);
process.exitCode = results.every((r) => r[3]) ? 0 : 1;
