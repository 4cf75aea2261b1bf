import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CheckRecord } from '../../src/report/checks.js';
import { buildHtmlData } from '../../src/report/html/data.js';
import { renderHtmlPage } from '../../src/report/html/page.js';
import { hasChromium, launchChromium, NO_CHROMIUM } from './browser.mjs';
import { trialRecord } from './trial-records.js';

const trial = trialRecord;

// book: grounded 3/4 (flaky), surfaced 4/4. refund: grounded 0/4, surfaced 4/4.
const records = [1, 2, 3, 4].flatMap((i) => [
  trial('book', i, 'grounded', i !== 2),
  trial('book', i, 'surfaced', true),
  trial('refund', i, 'grounded', false),
  trial('refund', i, 'surfaced', true),
]);

describe('the HTML report of repeated trials', () => {
  const data = buildHtmlData({ checks: records, now: new Date(0) });

  it('embeds each criterion with its Wilson interval, the task x criterion matrix, and flags flaky checks', () => {
    expect(data.trials?.tasks).toEqual(['book', 'refund']);
    expect(data.trials?.criteria.map((c) => [c.criterion, c.trials, c.passes, c.flakyTasks])).toEqual([
      ['grounded', 8, 3, ['book']],
      ['surfaced', 8, 8, []],
    ]);
    const grounded = data.trials!.criteria[0]!;
    expect(grounded.low).toBeLessThan(3 / 8);
    expect(grounded.high).toBeGreaterThan(3 / 8);
    expect(data.trials?.cells.find((c) => c.task === 'book' && c.criterion === 'grounded')).toMatchObject({
      passes: 3,
      trials: 4,
      flaky: true,
    });
    const flagged = data.checks.filter((c) => c.flaky).map((c) => `${c.workup} ${c.criterion}`);
    expect(flagged.sort()).toEqual([
      'book/1 grounded',
      'book/2 grounded',
      'book/3 grounded',
      'book/4 grounded',
    ]);
  });

  it('has no trials section when no workup names a task', () => {
    const plain = records.map((r) => ({ ...r, meta: { ...r.meta!, task: undefined } }));
    expect(buildHtmlData({ checks: plain as CheckRecord[] }).trials).toBeUndefined();
  });

  it('draws error bars, colours the matrix by pass fraction and marks flaky cells, in the browser', async (ctx) => {
    if (!hasChromium) return ctx.skip(NO_CHROMIUM);
    const dir = await mkdtemp(join(tmpdir(), 'needlework-html-trials-'));
    const browser = await launchChromium();
    try {
      const file = join(dir, 'report.html');
      await writeFile(file, await renderHtmlPage(data));
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => errors.push(`${m.type()}: ${m.text()}`));
      await page.goto(pathToFileURL(file).href);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 }).catch((e) => {
        throw new Error(errors.join('; ') || String(e));
      });
      expect(errors).toEqual([]);
      expect(await page.locator('svg.errorbar').count()).toBe(2);
      const cells = await page
        .locator('table.matrix td.cell')
        .evaluateAll((tds) =>
          tds.map((td) => [
            td.textContent,
            (td as unknown as { style: { backgroundColor: string } }).style.backgroundColor,
            td.classList.contains('flaky'),
          ]),
        );
      expect(cells).toEqual([
        ['3/4 ~', 'rgb(209, 237, 182)', true],
        ['4/4', 'rgb(182, 237, 182)', false],
        ['0/4', 'rgb(237, 182, 182)', false],
        ['4/4', 'rgb(182, 237, 182)', false],
      ]);
      expect(await page.locator('#checks .badge.v-flaky').count()).toBe(4);
    } finally {
      await browser.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
