import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtmlPage } from '../../src/report/html/page.js';
import type { HtmlReportData } from '../../src/report/html/types.js';
import { hasChromium, launchChromium, NO_CHROMIUM } from './browser.mjs';
import { brokenWords, charts, overflow, rect } from './html-measure.js';
import { realisticData } from './html-realistic.js';

// The realistic report (662 checks, 40 failing; a 20-criterion task matrix; 24 runs of history) read in Chromium at
// a laptop's 1280x900 and a phone's 390x844, by where things land on the screen.

const LAPTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

let root: string;
let data: HtmlReportData;
let browser: Browser | undefined;
let laptop: Page;
let phone: Page;
const errors: string[] = [];

async function open(viewport: { width: number; height: number }): Promise<Page> {
  const page = await browser!.newPage({ viewport });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => {
    if (!r.url().startsWith('file:')) errors.push(`request: ${r.url()}`);
  });
  await page.goto(pathToFileURL(join(root, 'report.html')).href);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
  return page;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'needlework-html-layout-'));
  data = await realisticData(root);
  await writeFile(join(root, 'report.html'), await renderHtmlPage(data));
  if (!hasChromium) return;
  browser = await launchChromium();
  laptop = await open(LAPTOP);
  phone = await open(PHONE);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await rm(root, { recursive: true, force: true });
});

describe('the realistic report', () => {
  it('is as big as the tests below assume', () => {
    expect(data.summary).toMatchObject({ checks: 662, failed: 40 });
    expect(data.trials?.criteria).toHaveLength(20);
    expect(data.trend?.runs).toHaveLength(24);
    // The first failing check in byte order is not the first check a run lists.
    expect(data.checks[0]).toMatchObject({
      verdict: 'fail',
      spec: 'compound-alpha',
      criterion: 'citation-recall',
    });
  });
});

describe.each([
  ['laptop', LAPTOP, 1],
  ['phone', PHONE, 2],
] as const)('at %s size', (name, viewport, screens) => {
  const page = () => (name === 'laptop' ? laptop : phone);

  it(`shows the first failing check within ${screens} screen(s), above every summary`, async (ctx) => {
    if (!hasChromium) return ctx.skip(NO_CHROMIUM);
    const first = await rect(page(), '#checks tbody tr');
    expect(await page().getAttribute('#checks tbody tr', 'data-verdict')).toBe('fail');
    expect(first!.top).toBeGreaterThan(0);
    // Its first line (verdict, spec, workup) must be readable without scrolling further than that.
    expect(first!.top + 60).toBeLessThanOrEqual(viewport.height * screens);
    for (const section of ['#trials', '#trend', '#metrics', '#workups'])
      expect((await rect(page(), section))!.top, section).toBeGreaterThan(first!.bottom);
    // The failing plain test comes right after the checks, before every summary.
    const plain = (await rect(page(), '#tests-section'))!;
    expect(plain.top).toBeGreaterThan((await rect(page(), '#checks-section'))!.bottom - 1);
    expect(plain.bottom).toBeLessThan((await rect(page(), '#trials'))!.top);
    expect(errors).toEqual([]);
  });

  it('does not scroll the page sideways, and breaks no word inside a table cell', async (ctx) => {
    if (!hasChromium) return ctx.skip(NO_CHROMIUM);
    // On a laptop only the task matrix may scroll, inside its box; on a phone nothing may.
    const except = name === 'laptop' ? '.matrix-box' : '';
    expect(await overflow(page(), except)).toEqual({
      scrollWidth: viewport.width,
      width: viewport.width,
      wide: [],
    });
    expect(await brokenWords(page())).toEqual([]);
    // The same with workups open: their notes, ledgers and timelines.
    for (const place of ['booking', 'refunds', 'regional-analysis-04-customs']) {
      await page().click(`details.workup[data-place*="${place}"] > summary`);
      await page().waitForSelector(`details.workup[data-place*="${place}"][open] > .body`);
    }
    expect(await overflow(page(), except)).toEqual({
      scrollWidth: viewport.width,
      width: viewport.width,
      wide: [],
    });
    expect(await brokenWords(page(), 'details.workup[open]')).toEqual([]);
  });

  it('draws every trend series inside labelled axes, on a scale fitted to its values', async (ctx) => {
    if (!hasChromium) return ctx.skip(NO_CHROMIUM);
    const drawn = await charts(page());
    const trend = data.trend!;
    const expected = [
      { title: 'pass rate', means: trend.runs.map((r) => r.passRate), unit: '%' },
      ...trend.series.map((s) => ({ title: `${s.spec} · ${s.criterion}`, means: s.means, unit: s.unit })),
    ];
    expect(drawn.map((c) => c.title)).toEqual(expected.map((e) => e.title));
    const labels = trend.runs.map((r) => r.label);
    expect(labels.slice(0, 2)).toEqual(['11-22 03:01', '11-22 03:02']);
    expect(labels.at(-1)).toBe('a1b2dad');
    drawn.forEach((chart, i) => {
      const { means, unit } = expected[i]!;
      const at = `${chart.title}: `;
      // Every measured run is a point, and every point lies in the plot, which lies on the screen.
      expect(chart.points, at).toHaveLength(means.filter((m) => m !== null).length);
      for (const p of chart.points) {
        expect(p.x, at).toBeGreaterThanOrEqual(chart.plot.left - 0.5);
        expect(p.x, at).toBeLessThanOrEqual(chart.plot.right + 0.5);
        expect(p.y, at).toBeGreaterThanOrEqual(chart.plot.top - 0.5);
        expect(p.y, at).toBeLessThanOrEqual(chart.plot.bottom + 0.5);
      }
      expect(chart.svg.left, at).toBeGreaterThanOrEqual(0);
      expect(chart.svg.right, at).toBeLessThanOrEqual(viewport.width);
      expect(chart.plot.right - chart.plot.left, at).toBeGreaterThan(200);
      // The y axis is labelled from its lowest value (at the bottom) to its highest (at the top).
      expect(chart.yLabels.length, at).toBeGreaterThanOrEqual(3);
      expect(chart.yLabels[0]!.y, at).toBeGreaterThan(chart.yLabels.at(-1)!.y);
      expect(Math.abs(chart.yLabels[0]!.y - chart.plot.bottom), at).toBeLessThan(6);
      expect(Math.abs(chart.yLabels.at(-1)!.y - chart.plot.top), at).toBeLessThan(6);
      // The runs are named along the x axis, oldest first.
      expect(chart.xLabels, at).toEqual([labels[0], labels[8], labels[15], labels[23]]);
      // A line through the runs: broken where a run did not measure the metric.
      expect(chart.lines, at).toBe(means.includes(null) ? 2 : 1);
      // A metric with no scale of its own (not a [0, 1] score, a rate or a 1-5 score) gets one fitted to its values:
      // its points use at least half of the plot's height.
      const ys = chart.points.map((p) => p.y);
      const spread = (Math.max(...ys) - Math.min(...ys)) / (chart.plot.bottom - chart.plot.top);
      const ownScale =
        unit === '%' || unit?.startsWith('score-') || means.every((m) => m === null || (m >= 0 && m <= 1));
      if (!ownScale) expect(spread, at).toBeGreaterThan(0.5);
    });
    const steps = drawn.find((c) => c.title === 'support-desk · steps')!;
    expect(steps.yLabels.map((l) => l.text)).toEqual(['5', '5.5', '6', '6.5']);
    const tokens = drawn.find((c) => c.title === 'support-desk · tokens')!;
    expect(tokens.yLabels.map((l) => l.text)).toEqual(['1100', '1200', '1300', '1400']);
  });

  it("opens a failing check's workup from its row, scrolled into view", async (ctx) => {
    if (!hasChromium) return ctx.skip(NO_CHROMIUM);
    await page().selectOption('#spec', 'support-desk');
    try {
      await expect.poll(() => page().textContent('#checks .count')).toBe('480 of 662 checks');
      const cell = '#checks tbody tr:nth-child(1) td[data-label="workup"]';
      expect(await page().getAttribute('#checks tbody tr:nth-child(1)', 'data-verdict')).toBe('fail');
      const workup = await page().textContent(cell);
      expect(workup).toMatch(/^[a-z-]+\.trial-\d$/);
      await page().click(`${cell} button`);
      const target = `details.workup[data-place=".needlework/workups/support-desk/${workup}"]`;
      await page().waitForSelector(`${target}[open] > .body`);
      // Below the filter bar, which stays at the top of a laptop's screen.
      const box = (await rect(page(), target))!;
      const bar = (await rect(page(), '.filters'))!;
      expect(box.top).toBeGreaterThanOrEqual(name === 'laptop' ? bar.bottom : 0);
      expect(box.top).toBeLessThan(viewport.height / 2);
    } finally {
      await page().selectOption('#spec', '');
    }
    await expect.poll(() => page().textContent('#checks .count')).toBe('662 of 662 checks');
  });

  it('heads a trajectory with the sums of its rows', async (ctx) => {
    if (!hasChromium) return ctx.skip(NO_CHROMIUM);
    const body = 'details.workup[data-place*="booking"]';
    if ((await page().getAttribute(body, 'open')) === null) await page().click(`${body} > summary`);
    await page().waitForSelector(`${body} .timeline`);
    const rows = await page().$$eval(`${body} .timeline tbody tr`, (trs) =>
      trs.map((tr) => [tr.children[5]!.textContent, tr.children[6]!.textContent]),
    );
    expect(rows).toEqual([
      ['10 ms', '20'],
      ['10 ms', '20'],
      ['10 ms', '20'],
    ]);
    expect(await page().textContent(`${body} .timeline .totals`)).toBe(
      '3 steps · 1 tool calls · 0 errors · 0 redundant calls · 30 ms · 60 tokens (the trajectory records 0 ms and 0 tokens in all)',
    );
  });
});

describe('two live tests of one name in two files', () => {
  it('are two workups, each with its own folder, checks and trajectory', async (ctx) => {
    const twins = data.workups.filter((w) => w.id === 'agentTest-finds-the-link');
    expect(twins.map((w) => [w.path, w.trajectory?.steps[0]?.tool])).toEqual([
      ['.needlework/workups/test/agents/booking/agentTest-finds-the-link', 'lookup_booking'],
      ['.needlework/workups/test/agents/refunds/agentTest-finds-the-link', 'issue_refund'],
    ]);
    if (!hasChromium) return ctx.skip(NO_CHROMIUM);
    const summaries = await laptop.$$eval(
      'details.workup[data-workup="agentTest-finds-the-link"] > summary',
      (s) => s.map((x) => x.textContent),
    );
    expect(summaries).toEqual([
      'passed' +
        'agentTest-finds-the-link' +
        '1 checks · .needlework/workups/test/agents/booking/agentTest-finds-the-link',
      '1 failed' +
        'agentTest-finds-the-link' +
        '1 checks · .needlework/workups/test/agents/refunds/agentTest-finds-the-link',
    ]);
    // The failing check names which of the two it is.
    await laptop.fill('#search', 'finds-the-link');
    await expect.poll(() => laptop.$$eval('#checks tbody tr', (r) => r.length)).toBe(2);
    expect(await laptop.textContent('#checks tbody tr[data-verdict="fail"] td[data-label="workup"]')).toBe(
      'agentTest-finds-the-link (.needlework/workups/test/agents/refunds/agentTest-finds-the-link)',
    );
    await laptop.fill('#search', '');
    await expect.poll(() => laptop.$$eval('#checks tbody tr', (r) => r.length)).toBe(200);
  });
});

describe('the task matrix at laptop size', () => {
  it('scrolls sideways in a box that fits the screen, holding its task column and header in view', async (ctx) => {
    if (!hasChromium) return ctx.skip(NO_CHROMIUM);
    await laptop.evaluate(`document.querySelector('.matrix-box').scrollIntoView({ block: 'center' })`);
    const box = (await rect(laptop, '.matrix-box'))!;
    expect(box.right).toBeLessThanOrEqual(LAPTOP.width);
    // The whole box, its scroll bar included, is on the screen at once.
    expect(box.height).toBeLessThanOrEqual(LAPTOP.height);
    const widths = (await laptop.evaluate(
      `(() => { const b = document.querySelector('.matrix-box'); return [b.scrollWidth, b.clientWidth]; })()`,
    )) as [number, number];
    expect(widths[0]).toBeGreaterThan(widths[1]);
    expect(await laptop.textContent('.scroll-hint')).toBe(
      '8 tasks × 20 criteria: scroll the table sideways for the rest ↔',
    );
    expect(await laptop.isVisible('.scroll-hint')).toBe(true);
    await laptop.evaluate(`document.querySelector('.matrix-box').scrollLeft = 1e6`);
    // Scrolled to its far end: the last criterion's column is in the box, and the task names are still at its left.
    const lastHead = (await rect(laptop, 'table.matrix th:last-child'))!;
    expect(lastHead.right).toBeLessThanOrEqual(box.right + 0.5);
    expect(lastHead.left).toBeGreaterThanOrEqual(box.left);
    const task = (await rect(laptop, 'table.matrix tbody tr td:first-child'))!;
    expect(Math.abs(task.left - box.left)).toBeLessThan(2);
    const seen = await laptop.evaluate(
      `document.elementFromPoint(${task.left + 10}, ${task.top + task.height / 2}).closest('td').textContent`,
    );
    expect(seen).toBe('book-flight');
    const head = (await rect(laptop, 'table.matrix th:first-child'))!;
    expect(Math.abs(head.top - box.top)).toBeLessThan(2);
  });
});
