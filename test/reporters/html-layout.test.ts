import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunDetail, Trends, TrialsView, WorkupAnswer } from '../../src/ui/client/types.js';
import { hasChromium, launchChromium, NO_CHROMIUM } from './browser.mjs';
import { brokenWords, charts, overflow, rect } from './html-measure.js';
import { writeRealisticReport } from './html-realistic.js';
import { goTo, openReport, type WrittenReport } from './report-page.js';

// The realistic report (662 checks, 40 failing, three of them regressed against its baseline; a 20-criterion task
// matrix; 24 runs of history) read in Chromium at a laptop's 1280x900 and a phone's 390x844, by where things land on
// the screen.

const LAPTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

let root: string;
let report: WrittenReport;
let browser: Browser | undefined;
let laptop: Page & { errors: string[]; fetched: string[] };
let phone: Page & { errors: string[]; fetched: string[] };

const answer = <T>(path: string) => report.contents.answers.get(path) as T;
const runPath = () => `/runs/${report.run.id}`;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'needlework-html-layout-'));
  report = await writeRealisticReport(root);
  if (!hasChromium) return;
  browser = await launchChromium();
  laptop = await openReport(browser, join(root, 'report.html'), LAPTOP);
  phone = await openReport(browser, join(root, 'report.html'), PHONE);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await rm(root, { recursive: true, force: true });
});

describe('the realistic report', () => {
  it('is as big as the tests below assume', () => {
    const detail = answer<RunDetail>(`/api${runPath()}`);
    expect(detail.run).toMatchObject({ checks: 662, failed: 40 });
    expect(detail.gate?.rows.map((r) => r.status)).toEqual(['regressed', 'regressed', 'regressed']);
    expect(detail.gate?.changed).toBe(21);
    expect(detail.tests).toEqual({ total: 2, failed: 1 });
    expect(answer<TrialsView>(`/api${runPath()}/trials`).criteria).toHaveLength(20);
    expect(answer<Trends>('/api/trends?last=30').runs).toHaveLength(25);
    // The first failing check in byte order is not the first check a run lists.
    expect(detail.checks[0]).toMatchObject({ verdict: 'pass' });
  });
});

describe.each([
  ['laptop', LAPTOP, 1],
  ['phone', PHONE, 2],
] as const)('at %s size', (name, viewport, screens) => {
  const page = () => (name === 'laptop' ? laptop : phone);

  it(`shows the gate and the first failing check within ${screens} screen(s), the failing plain test named above`, async (ctx) => {
    if (!hasChromium) return ctx.skip(NO_CHROMIUM);
    await goTo(page(), `${runPath()}?filter=failing`);
    const first = (await rect(page(), '.vlist .r-check'))!;
    expect(await page().getAttribute('.vlist .r-check', 'class')).toContain('v-fail');
    expect(first.top).toBeGreaterThan(0);
    // Its first line (verdict, criterion, workup) must be readable without scrolling further than that.
    expect(first.top + 30).toBeLessThanOrEqual(viewport.height * screens);
    // Above it, the gate's headline and its compact table, regressed first, and the failing plain test.
    const gate = (await rect(page(), '.gate'))!;
    expect(gate.bottom).toBeLessThanOrEqual(first.top);
    expect(await page().textContent('.gate .headline')).toBe(
      'vs a1b2dad: 3 regressed, 18 flaky; 11 still failing',
    );
    expect(await page().textContent('.gate-rows tbody tr td')).toBe('regressed');
    const plain = (await rect(page(), 'main a.v-fail'))!;
    expect(await page().textContent('main a.v-fail')).toBe('1 of 2 plain tests failed');
    expect(plain.bottom).toBeLessThanOrEqual(first.top);
    expect(page().errors).toEqual([]);
    expect(page().fetched).toEqual([]);
  });

  it('does not scroll sideways, and breaks no word inside a table cell, in any view', async (ctx) => {
    if (!hasChromium) return ctx.skip(NO_CHROMIUM);
    const fits = { scrollWidth: viewport.width, width: viewport.width, wide: [] };
    const workups = answer<RunDetail>(`/api${runPath()}`).checks.map((c) => c.workup);
    for (const path of [
      runPath(),
      `${runPath()}?tab=matrix`,
      `${runPath()}?tab=means`,
      `${runPath()}/trials`,
      `${runPath()}/tests`,
      `/compare?current=${report.run.id}`,
      '/trends?last=30',
      ...[
        'book-flight.trial-1',
        'refund-order.trial-2',
        'regional-analysis-04-customs',
        'agentTest-finds-the-link',
      ]
        .filter((w) => workups.includes(w))
        .map((w) => `${runPath()}/workups/${w}`),
    ]) {
      await goTo(page(), path);
      expect(await overflow(page()), path).toEqual(fits);
      expect(await brokenWords(page()), path).toEqual([]);
    }
    expect(page().errors).toEqual([]);
  });

  it('draws every trend series inside labelled axes, on a scale fitted to its values', async (ctx) => {
    if (!hasChromium) return ctx.skip(NO_CHROMIUM);
    await goTo(page(), '/trends?last=30');
    const drawn = await charts(page());
    const trend = answer<Trends>('/api/trends?last=30');
    const expected = [
      { title: 'pass rate', means: trend.runs.map((r) => r.passRate), unit: '%' },
      ...trend.series.map((s) => ({ title: `${s.spec} ${s.criterion}`, means: s.means, unit: s.unit })),
    ];
    expect(drawn.map((c) => c.title.split(':')[0])).toEqual(expected.map((e) => e.title));
    const labels = trend.labels;
    expect(labels.slice(0, 2)).toEqual(['11-22 03:01', '11-22 03:02']);
    expect(labels.at(-2)).toBe('a1b2dad');
    expect(labels.at(-1)).toBe('feedc0d');
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
      expect(chart.xLabels, at).toEqual([labels[0], labels[8], labels[16], labels[24]]);
      // A line through the runs: broken where a run did not measure the metric (a lone point is no line).
      const stretches = means
        .map((m) => (m === null ? '_' : 'x'))
        .join('')
        .split('_')
        .filter((s) => s.length > 1);
      expect(chart.lines, at).toBe(stretches.length);
      // A metric with no scale of its own (not a [0, 1] score, a rate or a 1-5 score) gets one fitted to its values:
      // its points use at least half of the plot's height.
      const ys = chart.points.map((p) => p.y);
      const spread = (Math.max(...ys) - Math.min(...ys)) / (chart.plot.bottom - chart.plot.top);
      const ownScale =
        unit === '%' || unit?.startsWith('score-') || means.every((m) => m === null || (m >= 0 && m <= 1));
      if (!ownScale && new Set(ys).size > 1) expect(spread, at).toBeGreaterThan(0.5);
    });
    const steps = drawn.find((c) => c.title.startsWith('support-desk steps'))!;
    expect(steps.yLabels.map((l) => l.text)).toEqual(['5', '5.5', '6', '6.5']);
    const tokens = drawn.find((c) => c.title.startsWith('support-desk tokens'))!;
    expect(tokens.yLabels.map((l) => l.text)).toEqual(['1100', '1200', '1300', '1400']);
  });

  it("opens a failing check's workup from its row", async (ctx) => {
    if (!hasChromium) return ctx.skip(NO_CHROMIUM);
    await goTo(page(), `${runPath()}?filter=failing&spec=support-desk`);
    const failing = answer<RunDetail>(`/api${runPath()}`).checks.filter(
      (c) => c.spec === 'support-desk' && c.verdict === 'fail',
    ).length;
    await expect.poll(() => page().textContent('.filters .count')).toBe(`${failing} of 662 checks`);
    // Its row's workup (on a phone, in the row's detail once selected) links to the workup.
    const workup = await page().locator('.vlist .r-check a.workup').first().textContent();
    expect(workup).toMatch(/^[a-z-]+\.trial-\d #\d$/);
    await page().locator('.vlist .r-check').first().click();
    await page()
      .locator('.detail a', { hasText: workup!.split(' ')[0] })
      .click();
    await page().locator('main .workup h1').waitFor();
    expect(await page().textContent('main .workup h1')).toContain(workup!.split(' ')[0]);
    // Back to the checks it came from, the filters as they were.
    await page().goBack();
    await expect.poll(() => page().textContent('.filters .count')).toBe(`${failing} of 662 checks`);
  });

  it('heads a trajectory with the sums of its steps, and its own totals where they differ', async (ctx) => {
    if (!hasChromium) return ctx.skip(NO_CHROMIUM);
    await goTo(page(), `${runPath()}/workups/agentTest-finds-the-link`);
    expect(await page().textContent('main .workup > .meta')).toBe(
      '.needlework/workups/test/agents/booking/agentTest-finds-the-link · 3 steps, 1 tool calls, 0 errors, 0 repeated, 60 tokens, 30 ms (the trajectory records 0 ms and 0 tokens in all)',
    );
  });
});

describe('two live tests of one name in two files', () => {
  it('are two workups, each with its own folder, checks and trajectory, and the failing check names its own', async (ctx) => {
    const twin = (file: number) =>
      answer<WorkupAnswer>(
        `/api${runPath()}/workups/agentTest-finds-the-link${file > 1 ? `?file=${file}` : ''}`,
      );
    expect([1, 2].map((f) => [twin(f).path, twin(f).steps[0]?.tool])).toEqual([
      ['.needlework/workups/test/agents/booking/agentTest-finds-the-link', 'lookup_booking'],
      ['.needlework/workups/test/agents/refunds/agentTest-finds-the-link', 'issue_refund'],
    ]);
    if (!hasChromium) return ctx.skip(NO_CHROMIUM);
    await goTo(laptop, `${runPath()}?filter=failing&q=finds-the-link`);
    await expect.poll(() => laptop.locator('.vlist .r-check').count()).toBe(1);
    await laptop.locator('.vlist .r-check a.workup').click();
    await laptop.locator('main .workup h1').waitFor();
    expect(laptop.url()).toContain('/workups/agentTest-finds-the-link?file=2');
    expect(await laptop.textContent('main .workup > .meta')).toContain('refunds/agentTest-finds-the-link');
    // Each names the other.
    expect(await laptop.locator('main .workup > p.meta a').allTextContents()).toEqual([
      '.needlework/workups/test/agents/booking/agentTest-finds-the-link',
      '.needlework/workups/test/agents/refunds/agentTest-finds-the-link',
    ]);
  });
});

describe('the task matrix at laptop size', () => {
  it('fits the screen without scrolling sideways, a row per task, a column per criterion', async (ctx) => {
    if (!hasChromium) return ctx.skip(NO_CHROMIUM);
    await goTo(laptop, `${runPath()}?tab=matrix`);
    const table = (await rect(laptop, 'table.m-table'))!;
    expect(table.right).toBeLessThanOrEqual(LAPTOP.width);
    expect(await laptop.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
      LAPTOP.width,
    );
    const rows = await laptop.locator('table.m-table tbody th').allTextContents();
    for (const task of ['book-flight', 'upgrade-cabin']) expect(rows).toContain(task);
  });
});
