import { writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { compare } from '../../src/history/compare.js';
import { buildTrendRun } from '../../src/history/entry.js';
import { metricMeans } from '../../src/history/means.js';
import type { TrendOverview } from '../../src/history/store/source.js';
import type { TrendRun } from '../../src/history/types.js';
import type { CheckRecord } from '../../src/report/checks.js';
import { workupLoader } from '../../src/report/workups.js';
import { reportAnswers, reportHome } from '../../src/ui/report/answers.js';
import { renderHtmlPage } from '../../src/ui/report/page.js';
import { type ReportContents, readReport } from '../../src/ui/report/read.js';
import { loadedWorkupAnswer } from '../../src/ui/report/workups.js';

/** A history's runs as the store's overview gives them: each run's head and each metric's means, oldest first. */
export function overviewOf(runs: readonly TrendRun[]): TrendOverview {
  return {
    total: runs.length,
    runs: runs.map(({ checks: _, trials: __, ...head }) => head),
    series: metricMeans(runs),
  };
}

export interface WrittenReport {
  run: TrendRun;
  html: string;
  contents: ReportContents;
}

/**
 * Writes the static report of a run made of `records` (its workups loaded from `root`, as the HTML reporter loads them)
 * to `file`: against `baseline` when given, with the trend of `history` (this run appended) when given.
 */
export async function writeReport(
  file: string,
  options: {
    records: readonly CheckRecord[];
    root: string;
    baseline?: TrendRun;
    history?: readonly TrendRun[];
    title?: string;
    now?: Date;
  },
): Promise<WrittenReport> {
  const { records, root } = options;
  const run = buildTrendRun(
    records,
    { commit: 'feedc0de'.repeat(5) },
    options.now ?? new Date(),
    undefined,
    root,
  );
  const workups = await workupLoader(root).forChecks(records);
  const html = await renderHtmlPage(
    {
      run: run.id,
      title: options.title ?? 'needlework report',
      generatedAt: (options.now ?? new Date()).toISOString(),
      home: reportHome(run),
    },
    reportAnswers({
      run,
      ...(options.baseline && {
        compared: { baseline: options.baseline, comparison: compare(run, options.baseline) },
      }),
      ...(options.history && { trend: Promise.resolve(overviewOf([...options.history, run])) }),
      records,
      root,
      workup: loadedWorkupAnswer(run, workups, root),
    }),
  );
  await writeFile(file, html);
  return { run, html, contents: readReport(html) };
}

/** A report opened in Chromium from its file, drawn; the page's errors and its requests other than file: are kept. */
export async function openReport(
  browser: Browser,
  file: string,
  viewport = { width: 1280, height: 900 },
  hash = '',
): Promise<Page & { errors: string[]; fetched: string[] }> {
  const page = (await browser.newPage({ viewport })) as Page & { errors: string[]; fetched: string[] };
  page.errors = [];
  page.fetched = [];
  page.on('pageerror', (error) => page.errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') page.errors.push(message.text());
  });
  page.on('request', (request) => {
    if (!request.url().startsWith('file:')) page.fetched.push(request.url());
  });
  await page.goto(`${pathToFileURL(file).href}${hash}`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
  return page;
}

/** Goes to a view of the open report (`/runs/<id>/trials`) as a link to it would, and waits for it to be drawn. */
export async function goTo(page: Page, path: string): Promise<void> {
  // The view shown already is not drawn again (no hashchange).
  const moved = await page.evaluate(`(() => {
    const home = JSON.parse(document.getElementById('needlework-report').textContent).home;
    if ((location.hash.startsWith('#/') ? location.hash.slice(1) : home) === ${JSON.stringify(path)}) return false;
    document.body.dataset.ready = '';
    location.hash = ${JSON.stringify(`#${path}`)};
    return true;
  })()`);
  if (moved) await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
}
