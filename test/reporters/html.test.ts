import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NeedleworkHtmlReporter } from '../../reporters/html.js';
import { NeedleworkTrendReporter } from '../../reporters/trend.js';
import { buildTrendRun } from '../../src/history/entry.js';
import type { CheckRecord } from '../../src/report/checks.js';
import type { RunDetail, Trends, WorkupAnswer } from '../../src/ui/client/types.js';
import { contentSecurityPolicy, embedJson } from '../../src/ui/report/page.js';
import { type ReportContents, readReport } from '../../src/ui/report/read.js';
import { hasChromium, launchChromium, NO_CHROMIUM } from './browser.mjs';
import {
  checkMeta,
  type GeneratedTest,
  makeProject,
  removeProject,
  runVitest,
  testFileSource,
} from './harness.js';
import { brokenWords, overflow } from './html-measure.js';
import { goTo, openReport, writeReport } from './report-page.js';
import { trendCheck, trendRun } from './trend-data.js';

const fixtures = resolve(import.meta.dirname, '../../fixtures/workups');

const HOSTILE_NOTE = `# Workup: <script>window.__pwned = 'title'</script>

## Findings

- Halberd met Wren <script>window.__pwned = 'script'</script> at the quay. [cite:g1]
- See <img src=x onerror="window.__pwned = 'img'"> and [the file](javascript:window.__pwned='link') for more. [cite:g1]
- A closing tag </script><script>window.__pwned = 'breakout'</script> in prose. [cite:g2]
`;

const step = (id: number, type: string, extra: Record<string, unknown> = {}) => ({
  step_id: id,
  step_type: type,
  content: '',
  tool_name: null,
  tool_input: null,
  tool_output: null,
  timestamp: null,
  latency_ms: 10 * id,
  tokens_used: 5,
  error: null,
  ...extra,
});

const HOSTILE_TRAJECTORY = {
  task_id: 'hostile',
  task_input: 'who?',
  steps: [
    step(1, 'tool_call', {
      tool_name: 'graph.neighbors',
      tool_input: { entity: 'Halberd' },
      content: '<b>bold</b>',
    }),
    step(2, 'observation', { content: '[]' }),
    step(3, 'tool_call', { tool_name: 'graph.neighbors', tool_input: { entity: 'Halberd' } }),
    step(4, 'tool_call', {
      tool_name: 'docs.search',
      tool_input: { q: 'x' },
      error: 'timeout <i>after</i> 5s',
    }),
    step(5, 'answer', { content: 'done' }),
  ],
  final_answer: 'done',
  succeeded: true,
  total_tokens: 25,
  total_latency_ms: 150,
  metadata: {},
};

const needle = (workup: string, criterion: string, extra: Record<string, unknown> = {}) =>
  checkMeta({ spec: 'compound-alpha', workup, workupPath: join(fixtures, workup), criterion, ...extra });

function tests(): GeneratedTest[] {
  const list: GeneratedTest[] = [
    {
      describe: ['compound-alpha', 'grounded'],
      name: 'traversed',
      meta: needle('grounded', 'traversed', {
        metric: 'trajectory',
        evidence: {
          required_path: ['MEMBER_OF', 'CO_LOCATED', 'CO_LOCATED'],
          traversed: ['MEMBER_OF', 'CO_LOCATED', 'CO_LOCATED'],
        },
      }),
      outcome: 'pass',
    },
    {
      describe: ['compound-alpha', 'guessed'],
      name: 'traversed',
      meta: needle('guessed', 'traversed', {
        metric: 'trajectory',
        value: 0,
        verdict: 'fail',
        summary: 'the ledger never reached CO_LOCATED',
        evidence: {
          required_path: ['MEMBER_OF', 'CO_LOCATED', 'CO_LOCATED'],
          prefix: { relations: ['MEMBER_OF'] },
        },
      }),
      outcome: 'fail',
    },
    {
      describe: ['compound-alpha', 'dangling'],
      name: 'citations-resolve',
      meta: needle('dangling', 'citations-resolve', {
        metric: 'resolution',
        value: false,
        verdict: 'fail',
        threshold: undefined,
      }),
      outcome: 'fail',
    },
    {
      describe: ['compound-alpha', 'uncited'],
      name: 'citation-recall',
      meta: needle('uncited', 'citation-recall', { value: 0.6, verdict: 'fail' }),
      outcome: 'fail',
    },
    {
      describe: ['compound-alpha', 'unsupported'],
      name: 'citation-precision',
      meta: needle('unsupported', 'citation-precision', {
        metric: 'citation_precision',
        value: 0.75,
        verdict: 'fail',
        evidence: {
          unsupported: [{ text: 'Kestrel Group owns the Compound-Alpha facility.', citations: ['g6'] }],
        },
      }),
      outcome: 'fail',
    },
    {
      describe: ['icd-203', 'grounded'],
      name: 'confidence',
      meta: checkMeta({
        spec: 'icd-203',
        specKind: 'rubric',
        workup: 'grounded',
        workupPath: join(fixtures, 'grounded'),
        criterion: 'confidence',
        metric: 'judge_score',
        value: 4,
        unit: 'score-1-5',
        threshold: 3,
      }),
      outcome: 'pass',
    },
    {
      describe: ['compound-alpha', 'hostile'],
      name: 'surfaced <img src=x onerror="window.__pwned=\'criterion\'">',
      meta: checkMeta({
        spec: 'compound-alpha',
        workup: 'hostile',
        workupPath: 'workups/hostile',
        criterion: 'surfaced <img src=x onerror="window.__pwned=\'criterion\'">',
        summary: '<script>window.__pwned = "summary"</script>',
      }),
      outcome: 'pass',
    },
    { describe: ['plain'], name: 'an ordinary test', outcome: 'pass' },
  ];
  return list;
}

let root: string;
let html: string;
let report: ReportContents;
let browser: Browser | undefined;
let page: Page & { errors: string[]; fetched: string[] };
const dialogs: string[] = [];
let file: string;

beforeAll(async () => {
  root = await makeProject({
    'report.check.mjs': testFileSource(tests()),
    'workups/hostile/note.md': HOSTILE_NOTE,
    'workups/hostile/provenance.jsonl': `${JSON.stringify({ id: 'g1', store: 'graph', query: '<script>q</script>', results: [] })}\n`,
    'workups/hostile/trajectory.json': JSON.stringify(HOSTILE_TRAJECTORY),
  });
  await mkdir(join(root, 'out'));
  await mkdir(join(root, 'needlework-report'));
  // A version 1 history at the default path: read, migrated, and charted with the new run.
  await writeFile(
    join(root, 'needlework-report', 'trend.json'),
    JSON.stringify({
      schema: 1,
      runs: [
        trendRun(1, [trendCheck({ value: 1 })], { commit: '1111111aaaa' }),
        trendRun(2, [trendCheck({ value: 0.5, verdict: 'fail' })]),
      ],
    }),
  );
  await runVitest(root, [
    new NeedleworkTrendReporter(),
    new NeedleworkHtmlReporter({ outputFile: 'out/report.html' }),
  ]);
  file = join(root, 'out/report.html');
  html = await readFile(file, 'utf8');
  report = readReport(html);
  if (hasChromium) {
    browser = await launchChromium();
    page = await openReport(browser, file);
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await removeProject(root);
});

const run = () => report.info.run;
const detail = () => report.answers.get(`/api/runs/${run()}`) as RunDetail;
const workup = (id: string) => report.answers.get(`/api/runs/${run()}/workups/${id}`) as WorkupAnswer;
/** The rows of One run's list shown: its checks (the groups aside). */
const checkRows = () => page.locator('.vlist .r-check').count();
const count = () => page.locator('.filters .count').textContent();

describe('the HTML file', () => {
  it('is one file with no external reference', () => {
    expect(html).not.toMatch(/<(link|img|iframe)\b/i);
    expect(html).not.toMatch(/<[a-z][^>]*\ssrc=/i);
    expect(html).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });

  it('packs its answers where agent text cannot be markup: base64 of gzip, and JSON with < escaped', () => {
    const packed =
      /<script type="application\/octet-stream" id="needlework-answers-0">([\s\S]*?)<\/script>/.exec(
        html,
      )?.[1];
    expect(packed).toMatch(/^[A-Za-z0-9+/]+=*$/);
    // What the agent wrote is in the answers, and nowhere in the page as it is.
    expect(JSON.stringify(report.answers.get(`/api/runs/${run()}`))).toContain(
      '<script>window.__pwned = \\"summary\\"',
    );
    expect(html).not.toContain('__pwned');
    for (const id of ['needlework-report', 'needlework-index'])
      expect(new RegExp(`id="${id}">([^<]*)</script>`).test(html), id).toBe(true);
    expect(embedJson({ s: '</script>\u2028&' })).toBe('{"s":"\\u003c/script\\u003e\\u2028\\u0026"}');
    // Small: 7 checks and 8 workups in a few kilobytes.
    expect(packed!.length).toBeLessThan(20_000);
  });

  it('sets a strict Content-Security-Policy with a hash for its one script and one stylesheet', () => {
    const csp = contentSecurityPolicy();
    expect(csp).toMatch(
      /^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/]+=*'; style-src 'sha256-[A-Za-z0-9+/]+=*';/,
    );
    expect(csp).not.toContain('unsafe');
    expect(csp).toContain("connect-src 'none'");
    expect(html).toContain(`http-equiv="Content-Security-Policy" content="${csp.replaceAll("'", '&#39;')}"`);
    // One script runs: the client's. Every other script element is data.
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html.match(/<script(?! type="application\/(json|octet-stream)")[^>]*>/g)).toEqual(['<script>']);
    expect(html).not.toMatch(/<[a-z][^>]*\son[a-z]+=/i);
  });

  it('holds the run (opened at its failures), its loaded workups and the trend of the history with it', () => {
    expect(report.info.home).toBe(`/runs/${run()}?filter=failing`);
    expect(detail().run).toMatchObject({ checks: 7, passed: 3, failed: 4, passRate: 3 / 7 });
    expect(detail().tests).toEqual({ total: 1, failed: 0 });
    expect(
      detail()
        .checks.filter((c) => c.verdict === 'fail')
        .map((c) => `${c.workup}:${c.criterion}`)
        .sort(),
    ).toEqual([
      'dangling:citations-resolve',
      'guessed:traversed',
      'uncited:citation-recall',
      'unsupported:citation-precision',
    ]);
    expect((report.answers.get('/api/trends?last=30') as Trends).runs).toHaveLength(3);
    expect(workup('dangling').note?.counts).toMatchObject({ dangling: 1 });
    expect(workup('uncited').note?.counts.uncited).toBeGreaterThanOrEqual(2);
    expect(workup('hostile').tally).toMatchObject({ toolCalls: 3, errors: 1, redundant: 1 });
  });
});

describe('the HTML report in Chromium', () => {
  it('fits a 390x844 phone screen: nothing wider than the screen, no word broken, in every view', async (ctx) => {
    if (!hasChromium) ctx.skip(NO_CHROMIUM);
    const phone = await openReport(browser!, file, { width: 390, height: 844 });
    try {
      // Nothing may stick out past the right edge, not even inside a box that scrolls: on a phone a row wraps and a
      // table stacks into cards instead of hiding its columns behind a sideways scroll.
      const fits = { scrollWidth: 390, width: 390, wide: [] };
      expect(await overflow(phone)).toEqual(fits);
      expect(await brokenWords(phone)).toEqual([]);
      const failing = await phone
        .locator('.vlist .r-check')
        .first()
        .evaluate((row) => {
          const r = row.getBoundingClientRect();
          return { verdict: row.className, top: r.top, width: r.width };
        });
      expect(failing.verdict).toContain('v-fail');
      expect(failing.top).toBeLessThan(844);
      expect(failing.width).toBeLessThanOrEqual(390 - 2 * 8);
      for (const path of [
        `/compare?current=${run()}`,
        `/runs/${run()}/trials`,
        `/runs/${run()}/tests`,
        `/runs/${run()}?tab=means`,
        '/trends?last=30',
        ...['grounded', 'guessed', 'dangling', 'uncited', 'unsupported', 'hostile'].map(
          (w) => `/runs/${run()}/workups/${w}`,
        ),
      ]) {
        await goTo(phone, path);
        expect(await overflow(phone), path).toEqual(fits);
        expect(await brokenWords(phone), path).toEqual([]);
      }
      expect(phone.errors).toEqual([]);
    } finally {
      await phone.close();
    }
  });

  it('opens at the failing checks, under the counts, with the trend charts and plain tests a link away', async (ctx) => {
    if (!hasChromium) ctx.skip(NO_CHROMIUM);
    expect(page.url()).not.toContain('#');
    expect(await page.locator('main .meta').nth(1).textContent()).toContain('(pass rate 42.9%)');
    expect(
      await page
        .locator('.vlist .r-check')
        .evaluateAll((rows) => rows.map((r) => r.classList.contains('v-fail'))),
    ).toEqual([true, true, true, true]);
    expect(await count()).toBe('4 of 7 checks');
    await page.locator('a.chip', { hasText: 'all' }).click();
    await expect.poll(checkRows).toBe(7);
    await page.locator('main a', { hasText: '1 plain tests passed' }).click();
    await expect.poll(() => page.locator('main').textContent()).toContain('an ordinary test');
    await page.locator('nav a', { hasText: 'Trends' }).click();
    await page.locator('svg.chart').first().waitFor({ state: 'attached' });
    expect(await page.locator('svg.chart .series path').count()).toBeGreaterThanOrEqual(2);
    await page.goBack();
    await page.goBack();
    await expect.poll(checkRows).toBe(7);
    expect(page.errors).toEqual([]);
    expect(page.fetched).toEqual([]);
  });

  it('filters checks by failing, search text and spec, each in the URL', async (ctx) => {
    if (!hasChromium) ctx.skip(NO_CHROMIUM);
    await goTo(page, `/runs/${run()}`);
    await page.fill('.filters input[type=search]', 'dangling');
    await expect.poll(count).toBe('1 of 7 checks');
    await page.waitForURL(/#\/runs\/[^?]+\?q=dangling$/);
    await page.fill('.filters input[type=search]', '');
    await expect.poll(checkRows).toBe(7);
    await goTo(page, `/runs/${run()}?spec=icd-203`);
    await expect.poll(checkRows).toBe(1);
    expect(await page.locator('.vlist .r-check .crit').textContent()).toBe('confidence');
    await goTo(page, `/runs/${run()}?filter=failing&q=traversed`);
    await expect.poll(count).toBe('1 of 7 checks');
  });

  it('says plainly that what needs the whole history is not in the report', async (ctx) => {
    if (!hasChromium) ctx.skip(NO_CHROMIUM);
    await goTo(page, '/case?spec=compound-alpha&task=guessed');
    expect(await page.locator('main .error').textContent()).toBe(
      `A case over time is not in this report, which holds run ${run()} alone: the whole history is in the results store (npx needlework ui).`,
    );
    // The list of runs (and the brand's link to it) is the report's own run.
    await goTo(page, '/runs');
    expect(page.url()).toMatch(new RegExp(`#/runs/${run()}\\?filter=failing$`));
    expect(await page.locator('nav a').allTextContents()).toEqual(['Run', 'Compare', 'Trends']);
  });

  it('marks citations and claims in the note, and shows the steps and the required path', async (ctx) => {
    if (!hasChromium) ctx.skip(NO_CHROMIUM);
    const workupPath = (id: string) => `/runs/${run()}/workups/${id}`;
    await goTo(page, workupPath('dangling'));
    expect(await page.locator('.note-text .cite.m-dangling').textContent()).toBe('g99');
    await goTo(page, workupPath('uncited'));
    expect(await page.locator('.note-text .sentence.m-uncited').allTextContents()).toContain(
      'Halberd and Wren probably know each other personally.',
    );
    await goTo(page, workupPath('unsupported'));
    expect(await page.locator('.note-text .sentence.m-unsupported').first().textContent()).toBe(
      'Kestrel Group owns the Compound-Alpha facility.',
    );
    expect(await page.locator('.note-text .cite.m-unsupported').textContent()).toBe('g6');
    await goTo(page, workupPath('guessed'));
    expect(
      await page
        .locator('.paths .hops li')
        .evaluateAll((hops) => hops.map((h) => `${h.className} ${h.querySelector('code')?.textContent}`)),
    ).toEqual(['s-traversed MEMBER_OF', 's-missing CO_LOCATED', 's-missing CO_LOCATED']);
    await goTo(page, workupPath('grounded'));
    expect(await page.locator('table.w-checks').textContent()).toContain('icd-203');
    expect(await page.locator('table.w-checks').textContent()).toContain('4 score-1-5');
    expect(await page.locator('.steps .r-step').count()).toBeGreaterThan(3);
    // From a failing check of the run to its workup, by its link.
    await goTo(page, `/runs/${run()}?filter=failing`);
    await page.locator('.vlist .r-check a.workup', { hasText: 'guessed' }).click();
    await page.locator('.paths').waitFor();
    expect(page.url()).toContain(`#/runs/${run()}/workups/guessed`);
  });

  it('runs none of the scripts, handlers or javascript: links an agent wrote', async (ctx) => {
    if (!hasChromium) ctx.skip(NO_CHROMIUM);
    await goTo(page, `/runs/${run()}/workups/hostile`);
    const view = page.locator('main .workup');
    // The note parser keeps a note's prose and drops its raw HTML; what is left must show as the words it is.
    expect(await page.locator('.note-text').textContent()).toContain(
      "Halberd met Wren window.__pwned = 'script' at the quay.",
    );
    // Agent text the parser does not touch (ledger queries, step contents, errors, criteria) shows as written.
    expect(await page.locator('table.w-checks').textContent()).toContain(
      '<img src=x onerror="window.__pwned=\'criterion\'">',
    );
    expect(await view.textContent()).toContain('<script>q</script>');
    await page.locator('.steps .r-step').first().click();
    expect(await page.locator('.step-detail').textContent()).toContain('<b>bold</b>');
    await page.locator('.steps .r-step.has-error').click();
    expect(await page.locator('.step-detail').textContent()).toContain('timeout <i>after</i> 5s');
    expect(await view.locator('b, i').count()).toBe(0);
    expect(await page.locator('.steps .r-step.has-error').count()).toBe(1);
    expect(await page.locator('.steps .r-step .b-repeat').count()).toBe(1);
    // Click every element of the workup, links included, to fire anything that could fire.
    for (const handle of await page.$$('main .workup *'))
      await handle.click({ force: true, timeout: 1_000 }).catch(() => undefined);
    expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await page.$$eval('img, iframe, object, embed', (e) => e.length)).toBe(0);
    // Every link is one of the report's own views, after the # of this file.
    expect(
      await page.$$eval('a[href]', (a) => a.filter((x) => !x.getAttribute('href')!.startsWith('#/')).length),
    ).toBe(0);
    expect(
      await page.$$eval(
        'script',
        (s) => s.filter((x) => !x.getAttribute('type')?.startsWith('application/')).length,
      ),
    ).toBe(1);
    expect(dialogs).toEqual([]);
    expect(page.fetched).toEqual([]);
    expect(page.errors).toEqual([]);
  });

  it('takes the README screenshot', async (ctx) => {
    if (!hasChromium) ctx.skip(NO_CHROMIUM);
    const target = process.env['NEEDLEWORK_SCREENSHOT'];
    if (!target) ctx.skip('set NEEDLEWORK_SCREENSHOT=<png path> to write the README screenshot');
    // The fixture workups scored as the needle and rubric tests would score them, with six runs of history.
    const workups = ['cross-store-agree', 'dangling', 'grounded', 'guessed', 'uncited', 'unsupported'];
    const scores: Record<string, Record<string, number>> = {
      surfaced: { 'cross-store-agree': 1, dangling: 1, grounded: 1, guessed: 1, uncited: 1, unsupported: 1 },
      traversed: { 'cross-store-agree': 1, dangling: 1, grounded: 1, guessed: 0, uncited: 1, unsupported: 1 },
      'citation-recall': {
        'cross-store-agree': 1,
        dangling: 0.9,
        grounded: 1,
        guessed: 1,
        uncited: 0.6,
        unsupported: 1,
      },
      'citation-precision': {
        'cross-store-agree': 1,
        dangling: 0.71,
        grounded: 1,
        guessed: 0.5,
        uncited: 1,
        unsupported: 0.67,
      },
    };
    const checks: CheckRecord[] = workups.flatMap((workup) =>
      Object.entries(scores).map(([criterion, byWorkup]) => {
        const value = byWorkup[workup]!;
        const meta = checkMeta({
          spec: 'compound-alpha',
          workup,
          workupPath: `fixtures/workups/${workup}`,
          criterion,
          metric: criterion === 'traversed' ? 'trajectory' : criterion.replace('-', '_'),
          value,
          verdict: value >= 0.8 ? 'pass' : 'fail',
          ...(value < 0.8 && {
            summary:
              criterion === 'traversed'
                ? 'the ledger never reached CO_LOCATED: it names Compound-Alpha without traversing to it'
                : `expected ${criterion.replace('-', '_')} >= 0.8, got ${value}`,
          }),
          ...(criterion === 'traversed'
            ? {
                evidence: {
                  required_path: ['MEMBER_OF', 'CO_LOCATED', 'CO_LOCATED'],
                  traversed: value ? ['MEMBER_OF', 'CO_LOCATED', 'CO_LOCATED'] : ['MEMBER_OF'],
                },
              }
            : {}),
          ...(workup === 'unsupported' && criterion === 'citation-precision'
            ? {
                evidence: {
                  unsupported: [
                    { text: 'Kestrel Group owns the Compound-Alpha facility.', citations: ['g6'] },
                  ],
                },
              }
            : {}),
        });
        return {
          name: criterion,
          suitePath: ['compound-alpha', workup],
          fullName: `compound-alpha > ${workup} > ${criterion}`,
          file: 'needles/compound-alpha.needle.yaml',
          state: value >= 0.8 ? 'passed' : 'failed',
          durationMs: 3,
          errors: [],
          meta,
        } satisfies CheckRecord;
      }),
    );
    const history = [0.7, 0.75, 0.8, 0.78, 0.83, 0.85].map((rate, i) =>
      trendRun(
        i + 1,
        [
          trendCheck({ value: rate, verdict: rate >= 0.8 ? 'pass' : 'fail' }),
          trendCheck({ criterion: 'traversed', metric: 'trajectory', value: rate - 0.1 }),
        ],
        { commit: `${i}abcdef0123` },
      ),
    );
    // The run before: the same workups, where guessed still traversed the whole path.
    const before = buildTrendRun(
      checks.map((c) =>
        c.meta?.workup === 'guessed' && c.meta.criterion === 'traversed'
          ? { ...c, state: 'passed' as const, meta: { ...c.meta, value: 1, verdict: 'pass' as const } }
          : c,
      ),
      { commit: '5abcdef0123', branch: 'main' },
      new Date(Date.now() - 3_600_000),
    );
    const shotFile = join(root, 'out/screenshot.html');
    await writeReport(shotFile, {
      records: checks,
      root: resolve(fixtures, '../..'),
      history: [...history, before],
      baseline: before,
      title: 'needlework report',
    });
    const shot = await openReport(browser!, shotFile, { width: 1200, height: 900 });
    await shot.screenshot({ path: resolve(target!) });
    await shot.close();
  });
});
