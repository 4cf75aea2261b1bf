import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTrendRun } from '../../src/history/entry.js';
import type { CheckRecord } from '../../src/report/checks.js';
import { recordTrialStatistics } from '../../src/report/trials.js';
import { trialsAnswer } from '../../src/ui/answers.js';
import type { RunDetail, TrialsView } from '../../src/ui/client/types.js';
import { hasChromium, launchChromium, NO_CHROMIUM } from './browser.mjs';
import { goTo, openReport, type WrittenReport, writeReport } from './report-page.js';
import { trialRecord } from './trial-records.js';

const trial = trialRecord;

// book: grounded 3/4 (flaky), surfaced 4/4. refund: grounded 0/4, surfaced 4/4.
const records = [1, 2, 3, 4].flatMap((i) => [
  trial('book', i, 'grounded', i !== 2),
  trial('book', i, 'surfaced', true),
  trial('refund', i, 'grounded', false),
  trial('refund', i, 'surfaced', true),
]);

let dir: string;
let report: WrittenReport;
const answer = <T>(path: string) => report.contents.answers.get(path) as T;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'needlework-html-trials-'));
  report = await writeReport(join(dir, 'report.html'), { records, root: dir, now: new Date(0) });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the HTML report of repeated trials', () => {
  it('holds each criterion with its interval, pass@k and pass^k per task, and flags flaky checks', () => {
    const trials = answer<TrialsView>(`/api/runs/${report.run.id}/trials`);
    expect(trials.criteria.map((c) => [c.criterion, c.trials, c.passes, c.rows.map((r) => r.task)])).toEqual([
      ['grounded', 8, 3, ['book', 'refund']],
      ['surfaced', 8, 8, ['book', 'refund']],
    ]);
    const grounded = trials.criteria[0]!;
    expect(grounded.passRate).toBe(3 / 8);
    expect(grounded.interval!.low).toBeLessThan(3 / 8);
    expect(grounded.interval!.high).toBeGreaterThan(3 / 8);
    expect(grounded.rows[0]).toMatchObject({ task: 'book', passes: 3, trials: 4, flaky: true });
    expect(grounded.rows[0]!.verdicts.map((v) => v.verdict)).toEqual(['pass', 'fail', 'pass', 'pass']);
    const detail = answer<RunDetail>(`/api/runs/${report.run.id}`);
    expect(detail.flaky).toEqual(['needle\0grounded\0\0book']);
  });

  it('is the same answer from the statistics the JUnit report computes (with its bootstrap) as from its own', () => {
    const run = buildTrendRun(records, {}, new Date(0));
    expect(trialsAnswer(run, recordTrialStatistics(records))).toEqual(trialsAnswer(run));
  });

  it('holds an empty trials answer when no workup names a task', async () => {
    const plain = records.map((r) => ({ ...r, meta: { ...r.meta!, task: undefined } })) as CheckRecord[];
    const written = await writeReport(join(dir, 'plain.html'), { records: plain, root: dir });
    expect(written.contents.answers.get(`/api/runs/${written.run.id}/trials`)).toMatchObject({
      criteria: [],
    });
  });

  it('draws error bars, the task x criterion matrix by pass fraction and flaky checks, in the browser', async (ctx) => {
    if (!hasChromium) return ctx.skip(NO_CHROMIUM);
    const browser = await launchChromium();
    try {
      const page = await openReport(browser, join(dir, 'report.html'));
      await goTo(page, `/runs/${report.run.id}/trials`);
      expect(await page.locator('svg.errorbar').count()).toBe(2);
      expect(await page.locator('table.trials').first().locator('tr.flaky td').first().textContent()).toBe(
        'bookflaky',
      );
      await goTo(page, `/runs/${report.run.id}?tab=matrix`);
      const cells = await page
        .locator('table.m-table .m-cell')
        .evaluateAll((cells) => cells.map((c) => [c.textContent, c.className]));
      expect(cells).toEqual([
        ['3/4', 'm-cell v-mixed'],
        ['4/4', 'm-cell v-pass'],
        ['0/4', 'm-cell v-fail'],
        ['4/4', 'm-cell v-pass'],
      ]);
      await goTo(page, `/runs/${report.run.id}`);
      expect(await page.locator('.vlist .r-check .b-flaky').count()).toBe(4);
      expect(page.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 30_000);
});
