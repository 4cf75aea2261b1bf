import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { compare } from '../../src/history/compare.js';
import { gateText } from '../../src/report/gate-text.js';
import { CLIENT_SCRIPT, clientFolder } from '../../src/ui/assets.js';
import type { Comparison } from '../../src/ui/client/types.js';
import { openSharedStore } from '../../src/ui/door/client.js';
import type { UiServer } from '../../src/ui/server.js';
import { hasChromium, launchChromium, NO_CHROMIUM } from '../reporters/browser.mjs';
import { HOSTILE, history, makeRun } from './history.js';
import { serveHistory } from './serve.js';

// needlework ui in Debian's Chromium, over the small history of test/ui/history.ts (hostile text in a case name, a
// model and the reasons), at a laptop's 1280 px and a phone's 390 px.
let browser: Browser | undefined;
let ui: UiServer | undefined;
let dir: string;
const runs = history();
const LAST = runs[4]!;
/** The second run on main: case 3 fails where it passed in the first (one trial a side: regressed). */
const SECOND = runs[1]!;

beforeAll(async () => {
  if (!hasChromium) return;
  if (!existsSync(join(clientFolder(), CLIENT_SCRIPT)))
    throw new Error('the UI client is not built: run npm run build first');
  browser = await launchChromium();
  // One store for the whole file (a folder per test would be removed under the UI after the first).
  dir = await mkdtemp(join(tmpdir(), 'needlework-ui-'));
  ui = await serveHistory(dir, runs);
}, 60_000);
// Each page holds an event stream, and Chromium opens at most 6 connections to one host: close every page.
const pages: Page[] = [];
afterEach(async () => {
  await Promise.all(pages.splice(0).map((page) => page.close()));
});
afterAll(async () => {
  await ui?.close();
  await browser?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function open(path: string, width = 1280): Promise<Page> {
  const page = await (browser as Browser).newPage({ viewport: { width, height: 800 } });
  pages.push(page);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  (page as Page & { errors: string[] }).errors = errors;
  await page.goto(new URL(path, (ui as UiServer).url).toString());
  return page;
}

async function noScriptRan(page: Page): Promise<void> {
  // A string, evaluated in the page: the tests are compiled without the DOM's types.
  expect(await page.evaluate('window.__pwned')).toBeUndefined();
  expect(await page.locator('main img, main script').count()).toBe(0);
}

describe.skipIf(!hasChromium)(`needlework ui in Chromium${hasChromium ? '' : ` (${NO_CHROMIUM})`}`, () => {
  it('lists the runs newest first, each with its change against its baseline, agent text as text', async () => {
    const page = await open('/');
    await page.locator('.vlist .r-run').first().waitFor();
    const times = await page.locator('.vlist .r-run .time').allTextContents();
    expect(times).toHaveLength(6);
    // Newest first: the feature branch's run, then main's fifth.
    expect(await page.locator('.vlist .r-run .branch').first().textContent()).toBe('feature/x');
    await page.locator('.vlist .r-run .change .badge').first().waitFor();
    const fifth = page.locator('.vlist .r-run').nth(1);
    await expect.poll(() => fifth.locator('.change').textContent()).toBe('2 flaky2 moved');
    expect(await fifth.locator('.model').textContent()).toBe(`model-b ${HOSTILE}`);
    await expect
      .poll(() => page.locator('.vlist .r-run').nth(4).locator('.change').textContent())
      .toBe('2 regressed');
    expect(await page.locator('.vlist .r-run').nth(5).locator('.change').textContent()).toBe('no baseline');
    await noScriptRan(page);
    expect((page as Page & { errors: string[] }).errors).toEqual([]);
    await page.close();
  });

  it('filters by branch and model in the URL, and keys move between rows and open one', async () => {
    const page = await open('/runs?branch=main');
    await page.locator('.vlist .r-run').first().waitFor();
    expect(await page.locator('.vlist .r-run').count()).toBe(5);
    await page.locator('.vlist').focus();
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    expect(await page.locator('.vlist [aria-selected=true] .time').textContent()).toBe(
      await page.locator('.vlist .r-run').nth(1).locator('.time').textContent(),
    );
    // f: the next run with a failure (the fourth run on main fails case 3).
    await page.keyboard.press('f');
    expect(await page.locator('.vlist [aria-selected=true]').getAttribute('data-index')).toBe('2');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/runs\/20261122T030300Z-00000003$/);
    await page.locator('.r-check').first().waitFor();
    await page.goBack();
    await page.waitForURL(/\/runs\?branch=main$/);
    await page.locator('.vlist .r-run').first().waitFor();
    expect(await page.locator('select[name=branch]').inputValue()).toBe('main');
    await page.close();
    const byModel = await open(`/runs?model=${encodeURIComponent(`model-b ${HOSTILE}`)}`);
    await byModel.locator('.vlist .r-run').first().waitFor();
    expect(await byModel.locator('.vlist .r-run').count()).toBe(2);
    await noScriptRan(byModel);
    await byModel.close();
  });

  it('compares a run with its baseline and names exactly the cases the gate names, in its words', async () => {
    const page = await open(`/compare?current=${LAST.id}`);
    await page.locator('.r-cmp.row').first().waitFor();
    expect(await page.locator('.headline').textContent()).toBe(gateText(compare(LAST, runs[3]!)).headline);
    await page.goto(new URL(`/compare?current=${SECOND.id}`, ui!.url).toString());
    await page.locator('.r-cmp.row').first().waitFor();
    const gate = gateText(compare(SECOND, runs[0]!));
    expect(gate.regressed).toBe(true);
    expect(await page.locator('.headline').textContent()).toBe(gate.headline);
    const shown = await page
      .locator('.vlist .r-cmp')
      .evaluateAll((rows) =>
        rows.map(
          (row) =>
            `${row.querySelector('.case')?.textContent} ${row.querySelector('.crit')?.textContent}: ${row.querySelector('.sides')?.textContent}`,
        ),
      );
    expect(shown).toEqual(gate.rows.map((r) => `${r.case} ${r.criterion}: ${r.before} -> ${r.after}`));
    // The API behind it says the same line for line.
    const api = (await (await fetch(`${ui!.url}api/compare?current=${SECOND.id}`)).json()) as Comparison;
    expect(api.rows.map((r) => r.line)).toEqual(gate.rows.map((r) => r.line));
    // A status chip narrows the list; the URL keeps it.
    await page.locator('.chips a', { hasText: 'regressed' }).click();
    await page.waitForURL(/show=regressed/);
    await expect.poll(() => page.locator('.vlist .r-cmp').count()).toBe(2);
    expect(gate.rows.filter((r) => r.status === 'regressed')).toHaveLength(2);
    // Both sides' reasons, side by side, for the selected row.
    await page.locator('.vlist .r-cmp').first().click();
    expect(await page.locator('.detail .sides').textContent()).toContain(HOSTILE);
    await noScriptRan(page);
    await page.close();
  });

  it('shows one run grouped by spec and case, with quick filters and a search kept in the URL', async () => {
    const count = (page: Page) => page.locator('.filters .count').textContent();
    const page = await open(`/runs/${SECOND.id}`);
    await page.locator('.r-check').first().waitFor();
    const all = SECOND.checks.length;
    expect(await count(page)).toBe(`${all} of ${all} checks`);
    expect(await page.locator('.g-spec .name').first().textContent()).toBe('support');
    expect(await page.locator('.g-case .name').allTextContents()).toEqual([
      'case-1',
      'case-2',
      'case-3',
      `refund ${HOSTILE}`,
    ]);
    await page.locator('a.chip', { hasText: 'failing' }).click();
    await page.waitForURL(/filter=failing/);
    await expect.poll(() => count(page)).toBe(`2 of ${all} checks`);
    await page.locator('a.chip', { hasText: 'regressed' }).click();
    await page.waitForURL(/filter=regressed/);
    await expect.poll(() => page.locator('.r-check .crit').allTextContents()).toEqual(['answer', 'recall']);
    await page.locator('a.chip', { hasText: 'all' }).click();
    await page.waitForURL(new RegExp(`/runs/${SECOND.id}$`));
    await page.locator('.r-check').first().waitFor();
    await page.keyboard.press('/');
    await page.keyboard.type('w-2-');
    await page.waitForURL(/q=w-2-/);
    await expect.poll(() => count(page)).toBe(`2 of ${all} checks`);
    await page.goto(new URL(`/runs/${LAST.id}?filter=flaky`, ui!.url).toString());
    await page.locator('.r-check').first().waitFor();
    expect(await page.locator('.g-case .name').allTextContents()).toEqual(['case-2']);
    await noScriptRan(page);
  });

  it("heads one run with the gate's headline and its first changed rows, in the gate's words", async () => {
    const page = await open(`/runs/${SECOND.id}`);
    await page.locator('.gate').waitFor();
    const gate = gateText(compare(SECOND, runs[0]!));
    expect(await page.locator('.gate .headline').textContent()).toBe(gate.headline);
    expect(
      await page.locator('.gate-rows tbody tr').evaluateAll((rows) => rows.map((r) => r.textContent)),
    ).toEqual(
      gate.rows
        .filter((r) => r.status === 'regressed')
        .map((r) => `${r.status}${r.case}${r.criterion}${r.before} -> ${r.after}${r.basis}: ${r.reason}`),
    );
    // The first run has no baseline: no gate.
    await page.goto(new URL(`/runs/${runs[0]!.id}`, ui!.url).toString());
    await page.locator('.r-check').first().waitFor();
    expect(await page.locator('.gate').count()).toBe(0);
    await noScriptRan(page);
  });

  it('shows a case over time and the first run where it failed, with its commit and model', async () => {
    const page = await open('/case?spec=support&case=case-3&task=task-3');
    await page.locator('.first').first().waitFor();
    const first = await page.locator('.first').first().textContent();
    expect(first).toContain('first failed in');
    expect(first).toContain(`commit ${runs[1]!.commit!.slice(0, 7)}, model model-a`);
    // Five runs on main hold case 3, one trial each but the fifth's three; the feature branch's run too.
    expect(await page.locator('.strip').first().locator('.sq').count()).toBe(8);
    await page.close();
    const hostile = await open(
      `/case?spec=support&case=${encodeURIComponent(`refund ${HOSTILE}`)}&task=task-0`,
    );
    await hostile.locator('h1').waitFor();
    expect(await hostile.locator('h1').textContent()).toContain(HOSTILE);
    await noScriptRan(hostile);
    await hostile.close();
  });

  it('draws the pass rate and metric means over runs, marked where the model or agent changed', async () => {
    const page = await open('/trends');
    // An SVG's box is not what Playwright calls visible: wait for it to be in the page.
    await page.locator('svg.chart').first().waitFor({ state: 'attached' });
    // The pass rate and two metrics (answer, recall).
    expect(await page.locator('svg.chart').count()).toBe(3);
    const marks = await page.locator('.marks li').allTextContents();
    expect(marks).toHaveLength(2);
    expect(marks[0]).toContain(`model model-a -> model-b ${HOSTILE}; agent 1.0 -> 1.1`);
    expect(marks[1]).toContain('-> model-a; agent 1.1 -> 1.0');
    expect(await page.locator('svg.chart').first().locator('line.mark').count()).toBe(2);
    await noScriptRan(page);
    await page.close();
  });

  it("shows a run's trials: k of n, pass@k and pass^k, and which trials differ", async () => {
    const page = await open(`/runs/${LAST.id}/trials`);
    await page.locator('table.trials').first().waitFor();
    const head = await page.locator('table.trials').first().locator('th').allTextContents();
    expect(head).toEqual(['task', 'k of n', 'pass@1', 'pass@3', 'pass^1', 'pass^3', 'trials']);
    const flaky = page.locator('table.trials').first().locator('tr.flaky');
    expect(await flaky.count()).toBe(1);
    expect(await flaky.locator('td').nth(1).textContent()).toBe('2 of 3');
    // pass@1 = 2/3, pass@3 = 1, pass^1 = 2/3, pass^3 = 0 (Chen et al. 2021; tau-bench).
    expect(await flaky.locator('td.num').allTextContents()).toEqual([
      '2 of 3',
      '66.7%',
      '100.0%',
      '66.7%',
      '0.0%',
    ]);
    expect(await flaky.locator('.sq').evaluateAll((s) => s.map((x) => x.className))).toEqual([
      'sq v-pass',
      'sq v-fail',
      'sq v-pass',
    ]);
    await page.close();
  });

  it("shows a run's task x criterion matrix, a case name an agent wrote as text, each cell k of n", async () => {
    const page = await open(`/runs/${LAST.id}?tab=matrix`);
    await page.locator('table.m-table').waitFor();
    expect(await page.locator('table.m-table tbody th').allTextContents()).toEqual([
      'case-1',
      'case-2',
      'case-3',
      `refund ${HOSTILE}`,
    ]);
    // Case 2 is flaky in the last run: one of its three trials failed both criteria.
    const rows = page.locator('table.m-table tbody tr');
    expect(await rows.nth(1).locator('td').allTextContents()).toEqual(['2/3', '2/3']);
    expect(await rows.nth(3).locator('a').first().getAttribute('title')).toBe(
      `refund ${HOSTILE} · support · answer: 3 of 3 passed`,
    );
    await noScriptRan(page);
    await page.close();
  });

  it('shows a run appended while the page is open, without a reload, within a second', async () => {
    const page = await open('/runs');
    await page.locator('.vlist .r-run').first().waitFor();
    await page.waitForSelector('#live.on');
    const store = await openSharedStore(`${dir}/store`, { lockTimeoutMs: 1_000 });
    const run = makeRun({ minute: 40, branch: 'live-branch', model: 'model-live' });
    const sent = Date.now();
    await store.append(run);
    await store.close();
    await page
      .locator('.vlist .r-run.fresh .branch', { hasText: 'live-branch' })
      .waitFor({ timeout: 1_000, state: 'attached' });
    expect(Date.now() - sent).toBeLessThanOrEqual(1_000);
    expect(await page.locator('.filters .count').textContent()).toBe('7 runs');
    await page.close();
  });

  it('fits 390 px wide: no view scrolls sideways', async () => {
    for (const path of [
      '/runs',
      `/compare?current=${LAST.id}`,
      `/runs/${LAST.id}`,
      '/case?spec=support&case=case-3&task=task-3',
      '/trends',
      `/runs/${LAST.id}/trials`,
      `/runs/${LAST.id}?tab=matrix`,
    ]) {
      const page = await open(path, 390);
      await page.locator('main > *').first().waitFor();
      await page.waitForTimeout(200);
      const width = await page.evaluate<number>('document.documentElement.scrollWidth');
      expect(width, path).toBeLessThanOrEqual(390);
      await page.close();
    }
  });
});
