import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NeedleworkHtmlReporter } from '../../reporters/html.js';
import { NeedleworkTrendReporter } from '../../reporters/trend.js';
import type { CheckRecord } from '../../src/report/checks.js';
import { buildHtmlData } from '../../src/report/html/data.js';
import { contentSecurityPolicy, embedJson, renderHtmlPage } from '../../src/report/html/page.js';
import type { HtmlReportData } from '../../src/report/html/types.js';
import { workupLoader } from '../../src/report/workups.js';
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
let browser: Browser | undefined;
let page: Page;
const dialogs: string[] = [];
const requests: string[] = [];

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
  html = await readFile(join(root, 'out/report.html'), 'utf8');
  if (hasChromium) {
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('request', (request) => {
      if (!request.url().startsWith('file:')) requests.push(request.url());
    });
    page.on('pageerror', (error) => console.error('page error:', error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') console.error('console:', message.text());
    });
    await page.goto(pathToFileURL(join(root, 'out/report.html')).href);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await removeProject(root);
});

/** Opens a workup and waits for its body, which the page draws on the (asynchronous) toggle event. */
async function openWorkup(id: string): Promise<void> {
  const open = (await page.getAttribute(`details[data-workup="${id}"]`, 'open')) !== null;
  if (!open) await page.click(`details[data-workup="${id}"] > summary`);
  await page.waitForSelector(`details[data-workup="${id}"] > .body`);
}

/** The page's CSP forbids string evaluation, so the tests read the DOM through functions only. */
const checkRows = () => page.$$eval('#checks tbody tr', (rows) => rows.length);

function embedded(): HtmlReportData {
  const json = /<script type="application\/json" id="needlework-data">([\s\S]*?)<\/script>/.exec(html)?.[1];
  return JSON.parse(json!) as HtmlReportData;
}

describe('the HTML file', () => {
  it('is one file with no external reference', () => {
    expect(html).not.toMatch(/<(link|img|iframe)\b/i);
    expect(html).not.toMatch(/<[a-z][^>]*\ssrc=/i);
    expect(html).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });

  it('embeds the data with < escaped, so agent text cannot close the script element', () => {
    const data = html.slice(html.indexOf('id="needlework-data">'));
    const block = data.slice(0, data.indexOf('</script>'));
    expect(block).not.toContain('<');
    expect(block).toContain('\\u003c/script\\u003e');
    expect(embedJson({ s: '</script>\u2028&' })).toBe('{"s":"\\u003c/script\\u003e\\u2028\\u0026"}');
  });

  it('sets a strict Content-Security-Policy with a hash for its one script and one stylesheet', () => {
    const csp = contentSecurityPolicy();
    expect(csp).toMatch(
      /^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/]+=*'; style-src 'sha256-[A-Za-z0-9+/]+=*';/,
    );
    expect(csp).not.toContain('unsafe');
    expect(html).toContain(`http-equiv="Content-Security-Policy" content="${csp.replaceAll("'", '&#39;')}"`);
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html).not.toMatch(/<[a-z][^>]*\son[a-z]+=/i);
  });

  it('carries the checks failing first, the loaded workups and the trend of the history', () => {
    const data = embedded();
    expect(data.checks.map((c) => `${c.verdict}:${c.workup}:${c.criterion}`).slice(0, 4)).toEqual([
      'fail:dangling:citations-resolve',
      'fail:guessed:traversed',
      'fail:uncited:citation-recall',
      'fail:unsupported:citation-precision',
    ]);
    expect(data.summary).toMatchObject({ checks: 7, passed: 3, failed: 4, passRate: 3 / 7, tests: 1 });
    expect(data.trend?.runs).toHaveLength(3);
    const dangling = data.workups.find((w) => w.id === 'dangling');
    expect(dangling?.note?.counts).toMatchObject({ dangling: 1 });
    const uncited = data.workups.find((w) => w.id === 'uncited');
    expect(uncited?.note?.counts.uncited).toBeGreaterThanOrEqual(2);
    const hostile = data.workups.find((w) => w.id === 'hostile');
    expect(hostile?.trajectory).toMatchObject({ toolCalls: 3, errors: 1, redundant: 1 });
  });
});

describe('the HTML report in Chromium', () => {
  it('fits a 390x844 phone screen: nothing wider than the screen, no word broken, every workup open', async (ctx) => {
    if (!hasChromium) ctx.skip(NO_CHROMIUM);
    const phone = await browser!.newPage({ viewport: { width: 390, height: 844 } });
    try {
      await phone.goto(pathToFileURL(join(root, 'out/report.html')).href);
      await phone.waitForSelector('body[data-ready="true"]');
      // Nothing may stick out past the right edge, not even inside a box that scrolls: on a phone a table's rows
      // stack into cards instead of hiding their columns behind a sideways scroll.
      const fits = { scrollWidth: 390, width: 390, wide: [] };
      expect(await overflow(phone)).toEqual(fits);
      expect(await brokenWords(phone)).toEqual([]);
      const failing = await phone.$eval('#checks tbody tr', (tr) => {
        const r = tr.getBoundingClientRect();
        return { verdict: tr.getAttribute('data-verdict'), top: r.top, width: r.width };
      });
      expect(failing.verdict).toBe('fail');
      expect(failing.top).toBeLessThan(844);
      expect(failing.width).toBeLessThanOrEqual(390 - 2 * 12);
      for (const summary of await phone.$$('details.workup > summary')) await summary.click();
      await phone.waitForSelector('details.workup[open] > .body .timeline');
      expect(await overflow(phone)).toEqual(fits);
      expect(await brokenWords(phone)).toEqual([]);
    } finally {
      await phone.close();
    }
  });

  it('renders the summary, the failing checks first and the trend charts', async (ctx) => {
    if (!hasChromium) ctx.skip(NO_CHROMIUM);
    expect(await page.textContent('#pass-rate .big')).toBe('42.9%');
    const verdicts = await page.$$eval('#checks tbody tr', (rows) =>
      rows.map((r) => r.getAttribute('data-verdict')),
    );
    expect(verdicts).toEqual(['fail', 'fail', 'fail', 'fail', 'pass', 'pass', 'pass']);
    expect(await page.$$eval('#trend svg polyline', (lines) => lines.length)).toBeGreaterThanOrEqual(2);
    expect(await page.textContent('#tests')).toContain('an ordinary test');
  });

  it('filters checks and workups by search text, verdict and spec', async (ctx) => {
    if (!hasChromium) ctx.skip(NO_CHROMIUM);
    await page.fill('#search', 'dangling');
    await expect.poll(checkRows).toBe(1);
    expect(await page.textContent('#checks .count')).toBe('1 of 7 checks');
    expect(await page.$$eval('#workups details', (d) => d.map((x) => x.getAttribute('data-workup')))).toEqual(
      ['dangling'],
    );
    await page.fill('#search', '');
    await page.selectOption('#verdict', 'pass');
    await expect.poll(checkRows).toBe(3);
    await page.selectOption('#spec', 'icd-203');
    await expect.poll(checkRows).toBe(1);
    expect(await page.textContent('#checks tbody tr')).toContain('confidence');
    await page.selectOption('#verdict', '');
    await page.selectOption('#spec', '');
    await expect.poll(checkRows).toBe(7);
  });

  it('keeps an opened workup open through a redraw, even one a pending search schedules', async (ctx) => {
    if (!hasChromium) ctx.skip(NO_CHROMIUM);
    await page.fill('#search', 'e'); // schedules a redraw 80 ms later
    await page.selectOption('#verdict', ''); // redraws now
    await openWorkup('grounded');
    await page.waitForTimeout(300);
    expect(await page.isVisible('details[data-workup="grounded"] > .body')).toBe(true);
    await page.fill('#search', 'grounded');
    await expect.poll(() => page.$$eval('#workups details', (d) => d.length)).toBe(1);
    expect(await page.isVisible('details[data-workup="grounded"] > .body')).toBe(true);
    await page.fill('#search', '');
    await expect.poll(checkRows).toBe(7);
  });

  it('marks citations and claims in the note, and shows the timeline and paths', async (ctx) => {
    if (!hasChromium) ctx.skip(NO_CHROMIUM);
    await openWorkup('dangling');
    expect(await page.textContent('details[data-workup="dangling"] .note .cite.c-dangling')).toBe('g99');
    await openWorkup('uncited');
    expect(
      await page.$$eval('details[data-workup="uncited"] .note .s-uncited', (s) =>
        s.map((x) => x.textContent),
      ),
    ).toContain('Halberd and Wren probably know each other personally.');
    await openWorkup('unsupported');
    expect(await page.textContent('details[data-workup="unsupported"] .note .s-unsupported')).toBe(
      'Kestrel Group owns the Compound-Alpha facility.',
    );
    expect(await page.textContent('details[data-workup="unsupported"] .note .cite.c-unsupported')).toBe('g6');
    await openWorkup('guessed');
    expect(
      await page.$$eval('details[data-workup="guessed"] .hop.miss', (h) => h.map((x) => x.textContent)),
    ).toEqual([]);
    expect(
      await page.$$eval('details[data-workup="guessed"] .path', (p) => p.map((x) => x.textContent)),
    ).toEqual(['required:MEMBER_OF→CO_LOCATED→CO_LOCATED', 'traversed:MEMBER_OF']);
    await openWorkup('grounded');
    expect(await page.textContent('details[data-workup="grounded"]')).toContain('Rubric scores');
    expect(
      await page.$$eval('details[data-workup="grounded"] .timeline tbody tr', (r) => r.length),
    ).toBeGreaterThan(3);
  });

  it('runs none of the scripts, handlers or javascript: links an agent wrote', async (ctx) => {
    if (!hasChromium) ctx.skip(NO_CHROMIUM);
    await openWorkup('hostile');
    const body = 'details[data-workup="hostile"]';
    // The note parser keeps a note's prose and drops its raw HTML; what is left must show as the words it is.
    expect(await page.textContent(`${body} .note`)).toContain(
      "Halberd met Wren window.__pwned = 'script' at the quay.",
    );
    // Agent text the parser does not touch (ledger queries, step contents, errors, criteria) shows as written.
    expect(await page.textContent(`${body} table`)).toContain(
      '<img src=x onerror="window.__pwned=\'criterion\'">',
    );
    expect(await page.textContent(body)).toContain('<script>q</script>');
    expect(await page.textContent(`${body} .timeline`)).toContain('<b>bold</b>');
    expect(await page.textContent(`${body} .timeline`)).toContain('timeout <i>after</i> 5s');
    expect(await page.$$eval(`${body} b, ${body} i`, (e) => e.length)).toBe(0);
    expect(await page.$$eval(`${body} .timeline tr.redundant`, (r) => r.length)).toBe(1);
    expect(await page.$$eval(`${body} .timeline tr.err`, (r) => r.length)).toBe(1);
    // Click every element of the workup, links included, to fire anything that could fire.
    for (const handle of await page.$$(`${body} .body *`))
      await handle.click({ force: true }).catch(() => undefined);
    expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await page.$$eval('img, iframe, object, embed', (e) => e.length)).toBe(0);
    expect(await page.$$eval('a[href]', (a) => a.length)).toBe(0);
    expect(await page.$$eval('script', (s) => s.length)).toBe(2);
    expect(dialogs).toEqual([]);
    expect(requests).toEqual([]);
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
    const history = {
      schema: 2 as const,
      runs: [0.7, 0.75, 0.8, 0.78, 0.83, 0.85].map((rate, i) =>
        trendRun(
          i + 1,
          [
            trendCheck({ value: rate, verdict: rate >= 0.8 ? 'pass' : 'fail' }),
            trendCheck({ criterion: 'traversed', metric: 'trajectory', value: rate - 0.1 }),
          ],
          {
            commit: `${i}abcdef0123`,
          },
        ),
      ),
    };
    const data = buildHtmlData({
      checks,
      workups: await workupLoader(resolve(fixtures, '../..')).forChecks(checks),
      history,
      title: 'needlework report',
    });
    const file = join(root, 'out/screenshot.html');
    await writeFile(file, await renderHtmlPage(data));
    const shot = await browser!.newPage({ viewport: { width: 1200, height: 900 } });
    await shot.goto(pathToFileURL(file).href);
    await shot.waitForSelector('body[data-ready="true"]');
    await shot.selectOption('#verdict', 'fail');
    await shot.click('details[data-workup="unsupported"] > summary');
    await shot.waitForSelector('details[data-workup="unsupported"] > .body');
    await shot.screenshot({ path: resolve(target!), fullPage: true });
    await shot.close();
  });
});
