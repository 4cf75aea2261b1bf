import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { collectChecks } from '../src/report/collect.js';
import { displayPath } from '../src/report/display-path.js';
import { buildHtmlData } from '../src/report/html/data.js';
import { loadCheckedWorkups } from '../src/report/html/load.js';
import { renderHtmlPage } from '../src/report/html/page.js';
import { DEFAULT_TREND_FILE, readHistory } from '../src/report/trend/history.js';
import { trendWriteSettled } from '../src/report/trend/pending.js';
import type { TrendHistory } from '../src/report/trend/types.js';

export interface NeedleworkHtmlOptions {
  /**
   * Where to write the page, relative to the project root.
   * @default 'needlework-report.html'
   */
  outputFile?: string;
  /**
   * The page title.
   * @default 'needlework report'
   */
  title?: string;
  /**
   * The trend history to chart, relative to the project root; `false` for no charts. When the trend reporter writes
   * the same file in the same run, this reporter waits for it, so the charts include the current run.
   * @default 'needlework-report/trend.json'
   */
  trendFile?: string | false;
}

/**
 * Writes one self-contained HTML page (inline style, script and data; no network; works from `file://`): the counts,
 * then the checks failing first, then repeated trials, trend charts and metric means (each folding), then per workup
 * the note with its citations marked, the trajectory as a timeline, the required path against the traversed one and
 * rubric scores. On a phone its tables stack into cards. See docs/report.md.
 */
export class NeedleworkHtmlReporter implements Reporter {
  private readonly options: { outputFile: string; title: string; trendFile: string | false };
  private root = process.cwd();

  constructor(options: NeedleworkHtmlOptions = {}) {
    this.options = {
      outputFile: options.outputFile ?? 'needlework-report.html',
      title: options.title ?? 'needlework report',
      trendFile: options.trendFile ?? DEFAULT_TREND_FILE,
    };
  }

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
  }

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    const checks = collectChecks(testModules, this.root);
    let history: TrendHistory | undefined;
    if (this.options.trendFile !== false) {
      const trendPath = resolve(this.root, this.options.trendFile);
      // Vitest starts every reporter's onTestRunEnd in one go; yield once so a trend reporter of this run has begun
      // its write, then wait for it, so the charts include this run.
      await null;
      await trendWriteSettled(trendPath);
      // A history that is missing or not one only means no charts; the report itself must still be written.
      history = await readHistory(trendPath).catch(() => undefined);
    }
    const data = buildHtmlData({
      checks,
      workups: await loadCheckedWorkups(checks, this.root),
      title: this.options.title,
      ...(history ? { history } : {}),
    });
    const path = resolve(this.root, this.options.outputFile);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, renderHtmlPage(data));
    process.stdout.write(`needlework: HTML report written to ${displayPath(path)}\n`);
  }
}

export default NeedleworkHtmlReporter;
