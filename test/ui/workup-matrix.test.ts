import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TrendRun } from '../../src/history/types.js';
import { CLIENT_SCRIPT, clientFolder } from '../../src/ui/assets.js';
import type { UiServer } from '../../src/ui/server.js';
import { hasChromium, launchChromium, NO_CHROMIUM } from '../reporters/browser.mjs';
import { HOSTILE } from './history.js';
import { serveHistory } from './serve.js';
import { LONG_STEPS, matrixRun, workupProject } from './workups.js';

// The workup view and the task x criterion matrix of needlework ui in Debian's Chromium (test/ui/workups.ts): a run
// whose checks name workups written under a project root (a booking run with agent text, markup and script, in its
// arguments, results, note and ledger; a run of 2,000 steps; the fixture `grounded` against its needle; paths the
// server must not read), and a run of 4 specs x 10 criteria over 60 cases of 3 trials for the matrix.
let browser: Browser | undefined;
let ui: UiServer | undefined;
let dir: string;
let run: TrendRun;
const matrix = matrixRun();

beforeAll(async () => {
  if (!hasChromium) return;
  if (!existsSync(join(clientFolder(), CLIENT_SCRIPT)))
    throw new Error('the UI client is not built: run npm run build first');
  browser = await launchChromium();
  dir = await mkdtemp(join(tmpdir(), 'needlework-ui-workup-'));
  ({ run } = await workupProject(dir));
  ui = await serveHistory(dir, [run, matrix]);
}, 60_000);
const pages: Page[] = [];
afterEach(async () => {
  await Promise.all(pages.splice(0).map((page) => page.close()));
});
afterAll(async () => {
  await ui?.close();
  await browser?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function open(path: string, width = 1280, height = 900): Promise<Page & { errors: string[] }> {
  const page = (await (browser as Browser).newPage({ viewport: { width, height } })) as Page & {
    errors: string[];
  };
  pages.push(page);
  page.errors = [];
  page.on('pageerror', (error) => page.errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') page.errors.push(message.text());
  });
  await page.goto(new URL(path, (ui as UiServer).url).toString());
  return page;
}

const workupUrl = (workup: string) => `/runs/${run.id}/workups/${encodeURIComponent(workup)}`;

async function noScriptRan(page: Page): Promise<void> {
  expect(await page.evaluate('window.__pwned')).toBeUndefined();
  expect(await page.locator('main img, main script').count()).toBe(0);
}

describe.skipIf(!hasChromium)(`the workup view in Chromium${hasChromium ? '' : ` (${NO_CHROMIUM})`}`, () => {
  it('shows the steps with the expected calls laid over them: matched, out of order, missing, extra', async () => {
    const page = await open(workupUrl('book'));
    await page.locator('.r-step').first().waitFor();
    const rows = await page.locator('.vlist .r-step').evaluateAll((all) =>
      all.map((row) => ({
        kind: row.querySelector('.kind')?.textContent,
        text: row.querySelector('.text')?.textContent,
        marks: row.querySelector('.marks')?.textContent,
      })),
    );
    expect(rows.map((r) => r.kind)).toEqual([
      'thought',
      'tool call',
      'observation',
      'tool call',
      'observation',
      'tool call',
      'observation',
      'missing',
      'answer',
    ]);
    expect(rows[1]).toEqual({ kind: 'tool call', text: 'login({})', marks: 'extra' });
    expect(rows[3]!.marks).toBe('out of order #2');
    expect(rows[3]!.text).toBe(`book(${JSON.stringify({ flight: HOSTILE })})`);
    expect(rows[4]!.marks).toBe('error');
    expect(rows[5]).toEqual({ kind: 'tool call', text: 'search({"city":"Paris"})', marks: 'matched #1' });
    // The missing call stands after the last step whose expected call came before it (search, #1, then its result).
    expect(rows[7]).toEqual({ kind: 'missing', text: 'expected pay({}), never called', marks: '' });
    expect(await page.locator('.expected .calls li').allTextContents()).toEqual([
      'matchedsearch({"city":"Paris"}) → step 6',
      'out of orderbook({}) → step 4',
      'missingpay({})',
    ]);
    // Keys: f goes to the next failure, and the selected step shows whole, its URL kept.
    await page.locator('.vlist').focus();
    await page.keyboard.press('f');
    await page.waitForURL(/step=2$/);
    await page.keyboard.press('f');
    await page.keyboard.press('f');
    expect(await page.locator('.step-detail').textContent()).toContain(`refused: ${HOSTILE}`);
    expect(await page.locator('.step-detail').textContent()).toContain(JSON.stringify({ booked: HOSTILE }));
    await noScriptRan(page);
    expect(page.errors).toEqual([]);
  });

  it('resolves each citation of the note to its ledger entry, and marks a dangling one', async () => {
    const page = await open(workupUrl('book'));
    await page.locator('button.cite').first().waitFor();
    expect(await page.locator('button.cite').allTextContents()).toEqual(['g1', 'g9']);
    const g1 = page.locator('button.cite', { hasText: 'g1' });
    expect(await g1.getAttribute('class')).toBe('cite m-resolved');
    expect(await g1.getAttribute('title')).toBe(`resolved: flights: search(${HOSTILE}) (1 fact)`);
    await g1.click();
    expect(await page.locator('.cite-detail').textContent()).toContain('AF1 —DEPARTS_FROM→ Paris');
    await page.locator('button.cite', { hasText: 'g9' }).click();
    expect(await page.locator('.cite-detail').textContent()).toBe(
      'g9: the ledger has no such entry (a dangling citation)',
    );
    expect(await page.locator('.sentence.m-uncited').allTextContents()).toEqual(['The seat is 12A.']);
    await noScriptRan(page);
  });

  it("lays a needle's required path over the ledger", async () => {
    const page = await open(workupUrl('grounded'));
    await page.locator('.hops li').first().waitFor();
    const hops = await page.locator('.hops li').allTextContents();
    expect(hops).toHaveLength(3);
    expect(hops[0]).toMatch(/^traversedMEMBER_OF via g\d+ \(Halberd → Ash Cell\)/);
    expect(await page.locator('.w-ledger td .badge').count()).toBe(3);
  });

  it('links no workup for a check of none (a case with no run), in the One run view and its detail', async () => {
    const page = await open(`/runs/${run.id}?q=has-run`);
    const row = page.locator('.r-check', { hasText: 'has-run' });
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.locator('a.workup').count()).toBe(0);
    expect(await row.locator('.workup').getAttribute('title')).toBe(
      'no workup: what kept the spec or case from being checked',
    );
    await row.click();
    await page.locator('.reason', { hasText: 'matches no workup' }).waitFor();
    expect(await page.locator('a[href*="/workups/"]').count()).toBe(0);
    expect(page.errors).toEqual([]);
  });

  it('says plainly when the workup file is gone, or outside the root, and still shows its checks', async () => {
    const gone = await open(workupUrl('gone'));
    await gone.locator('.problem').waitFor();
    expect(await gone.locator('.problem').textContent()).toBe('the workup file runs/gone is no longer there');
    expect(await gone.locator('.w-checks tbody tr').count()).toBe(1);
    const outside = await open(workupUrl('passwd'));
    await outside.locator('.problem').waitFor();
    expect(await outside.locator('.problem').textContent()).toContain('lies outside the run');
    expect(await outside.locator('main').textContent()).not.toContain('root:x:0:0');
  });

  it('is reached from the One run view, each check linking to its workup; of 2,000 steps only the rows in view are drawn, and the view marks when they are', async () => {
    const page = await open(`/runs/${run.id}?q=long`);
    await page.locator('.r-check a.workup').first().waitFor();
    // From the click, in the page's own clock, to the view's mark once its first rows are drawn (its time against the
    // 200 ms target is bench/ui.bench.mjs's: a bound here failed on a loaded machine, 277 ms beside the other suites).
    await page.evaluate(
      `document.addEventListener('click', () => { window.__clicked = performance.now(); }, { capture: true, once: true })`,
    );
    await page.locator('.r-check a.workup', { hasText: 'long' }).first().click();
    await page.locator('.vlist .r-step').first().waitFor();
    const elapsed = await page.evaluate<number>(
      `performance.getEntriesByName('needlework:workup-drawn')[0].startTime - window.__clicked`,
    );
    await page.waitForURL(new RegExp(`/runs/${run.id}/workups/long$`));
    expect(await page.locator('.meta').first().textContent()).toContain(
      `${LONG_STEPS} steps, 1000 tool calls`,
    );
    // Only the rows in view are drawn.
    expect(await page.locator('.vlist .r-step').count()).toBeLessThan(60);
    expect(elapsed).toBeGreaterThan(0);
    // End: the last step, its error shown.
    await page.locator('.vlist').focus();
    await page.keyboard.press('End');
    await page.waitForURL(new RegExp(`step=${LONG_STEPS}$`));
    expect(await page.locator('.step-detail').textContent()).toContain('timeout');
  });

  it('fits 390 px wide: no scrolling sideways', async () => {
    for (const workup of ['book', 'grounded', 'gone']) {
      const page = await open(workupUrl(workup), 390, 800);
      await page.locator('main h1').waitFor();
      await page.waitForTimeout(100);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth'), workup).toBeLessThanOrEqual(
        390,
      );
    }
  });
});

describe.skipIf(!hasChromium)(
  `the task x criterion matrix in Chromium${hasChromium ? '' : ` (${NO_CHROMIUM})`}`,
  () => {
    const matrixUrl = () => `/runs/${matrix.id}?tab=matrix`;

    it('fits 40 criteria in 1280 px without scrolling sideways, each cell the verdict or k of n', async () => {
      const page = await open(matrixUrl(), 1280, 900);
      await page.locator('table.m-table').waitFor();
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1280);
      expect(
        await page.evaluate<boolean>(
          `(() => { const t = document.querySelector('table.m-table'); return t.scrollWidth <= t.clientWidth; })()`,
        ),
      ).toBe(true);
      expect(await page.locator('.m-heads th').count()).toBe(41);
      expect(await page.locator('.m-specs th').allTextContents()).toEqual([
        'spec',
        'suite-billing',
        'suite-research',
        'suite-support',
        'suite-travel-booking',
      ]);
      expect(await page.locator('tbody tr').count()).toBe(60);
      // case-09 x must-not-call (the seventh criterion of the first spec, in byte order): one of three trials failed.
      const row = page.locator('tbody tr', { has: page.locator('th', { hasText: /^case-09$/ }) });
      const mixed = row.locator('td').nth(6);
      expect(await mixed.textContent()).toBe('2/3');
      expect(await mixed.locator('a').getAttribute('class')).toBe('m-cell v-mixed');
      expect(await mixed.locator('a').getAttribute('title')).toBe(
        'case-09 · suite-billing · must-not-call: 2 of 3 passed',
      );
      // The whole name on hover and on focus.
      await page.locator('.m-heads th').nth(4).hover();
      expect(await page.locator('.m-caption').textContent()).toBe(
        'suite-billing · citation-recall-at-least-one',
      );
      await mixed.locator('a').focus();
      expect(await page.locator('.m-caption').textContent()).toBe(
        'case-09 · suite-billing · must-not-call: 2 of 3 passed',
      );
      // Keys move between cells; f to the next failing one.
      await page.keyboard.press('ArrowRight');
      expect(await page.evaluate('document.activeElement.title')).toBe(
        'case-09 · suite-billing · step-precision: 3 of 3 passed',
      );
      await page.keyboard.press('f');
      expect(await page.evaluate('document.activeElement.className')).toMatch(/v-(fail|mixed)/);
      await noScriptRan(page);
      expect(page.errors).toEqual([]);
    });

    it('links each cell to the checks it counts', async () => {
      const page = await open(matrixUrl());
      await page.locator('table.m-table').waitFor();
      const row = page.locator('tbody tr', { has: page.locator('th', { hasText: /^case-09$/ }) });
      await row.locator('td').nth(6).locator('a').click();
      await page.waitForURL(/spec=suite-billing&criterion=must-not-call&case=case-09$/);
      await page.locator('.r-check').first().waitFor();
      expect(await page.locator('.filters .count').textContent()).toBe(
        `3 of ${matrix.checks.length.toLocaleString('en')} checks`,
      );
      expect(await page.locator('.r-check .crit').allTextContents()).toEqual([
        'must-not-call',
        'must-not-call',
        'must-not-call',
      ]);
      expect(await page.locator('.r-check.v-fail').count()).toBe(1);
    });

    it('renders agent text in a case name as text, and becomes strips of squares at 390 px', async () => {
      const page = await open(matrixUrl(), 390, 800);
      await page.locator('.m-strip').first().waitFor();
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      expect(await page.locator('.m-label').first().textContent()).toBe('case-01');
      expect(await page.locator('.m-label', { hasText: 'refund' }).textContent()).toBe(`refund ${HOSTILE}`);
      expect(await page.locator('.m-strip').first().locator('.m-cell').count()).toBe(40);
      await noScriptRan(page);
    });
  },
);
