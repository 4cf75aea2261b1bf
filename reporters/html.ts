import { resolve } from 'node:path';
import type { Reporter, TestModule, TestSpecification, Vitest } from 'vitest/node';
import { historyLocation } from '../src/history/store/open.js';
import { displayPath } from '../src/io/display-path.js';
import { writeReportFile } from '../src/io/report-file.js';
import { collectChecks } from '../src/report/collect.js';
import { trendWriteBegun } from '../src/report/pending-trend.js';
import { ownRun, runHistory } from '../src/report/run-history.js';
import { recordTrialStatistics } from '../src/report/trials.js';
import {
  type LoadedWorkup,
  runWorkupLoader,
  type WorkupPreload,
  workupLoader,
} from '../src/report/workups.js';
import type { ReportInfo } from '../src/ui/client/types.js';
import { reportAnswers, reportHome } from '../src/ui/report/answers.js';
import { htmlPageChunks } from '../src/ui/report/page.js';
import { loadedWorkupAnswer } from '../src/ui/report/workups.js';

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
   * The results store to chart (a folder relative to the project root, or a `postgres://` URL); `false` for no
   * charts. When the trend reporter appends to the same store in the same run, this reporter waits for it, so the
   * charts include the current run.
   * @default process.env.NEEDLEWORK_STORE, else '.needlework/store'
   */
  store?: string | false;
  /** A trend.json export to chart instead of the store; `false` for no charts (the earlier way to say so). */
  trendFile?: string | false;
}

/**
 * Writes one self-contained HTML page: the client of `needlework ui` over this run's answers, inlined (its script and
 * style by hash; no network; opens from `file://`). It opens at the run: the gate's story against its baseline, then
 * its failing checks; from there its comparison, trials, task x criterion matrix, metric means, plain tests, each
 * workup (its steps, its note with each citation resolved, what its checks expected laid over them) and the trend up
 * to it. See docs/report.md.
 * @example
 * ```ts
 * // vitest.config.ts
 * import { defineConfig } from 'vitest/config';
 * import NeedleworkHtmlReporter from 'needlework/reporters/html';
 * import { needlework } from 'needlework/vitest';
 *
 * export default defineConfig({
 *   plugins: [needlework({ needles: 'needles', workups: 'runs' })],
 *   test: { reporters: ['default', new NeedleworkHtmlReporter({ outputFile: 'reports/report.html' })] },
 * });
 * ```
 */
export class NeedleworkHtmlReporter implements Reporter {
  private readonly options: { outputFile: string; title: string; trend: string | false };
  private root = process.cwd();
  private startedAt = new Date();
  /** The workups of this run, read as their tests finish. */
  private workups: WorkupPreload<LoadedWorkup> = workupLoader(this.root);

  constructor(options: NeedleworkHtmlOptions = {}) {
    this.options = {
      outputFile: options.outputFile ?? 'needlework-report.html',
      title: options.title ?? 'needlework report',
      trend:
        options.trendFile === false || options.store === false
          ? false
          : (options.trendFile ?? options.store ?? ''),
    };
  }

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
    this.startedAt = new Date();
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    // Shared with the other reporters of this run that read its workups.
    this.workups = runWorkupLoader(specifications, this.root);
  }

  onTestModuleCollected(module: TestModule): void {
    this.workups.noteModule(module);
  }

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    await trendWriteBegun();
    const checks = collectChecks(testModules, this.root);
    const location = historyLocation(this.options.trend, this.root);
    const history = location ? runHistory(checks, location, this.root, this.startedAt) : undefined;
    // The trend ends with this run, read once the trend reporter has appended it: the rest of the page is built and
    // written meanwhile, the trend last.
    const charted = history?.charted();
    // A write that fails before the trend's turn still leaves a read that failed handled (the write says why).
    charted?.catch(() => undefined);
    const { run, baseline, gate } = history
      ? await history.compared()
      : { run: await ownRun(checks, this.root), baseline: undefined, gate: undefined };
    const workups = await this.workups.forChecks(checks);
    const info: ReportInfo = {
      run: run.id,
      title: this.options.title,
      generatedAt: new Date().toISOString(),
      home: reportHome(run),
    };
    const answers = reportAnswers({
      run,
      ...(baseline && gate && { compared: { baseline, comparison: gate.comparison, text: gate.text } }),
      ...(charted && { trend: charted }),
      records: checks,
      root: this.root,
      // The JUnit report of the run computes them too: once for both.
      trials: recordTrialStatistics(checks),
      workup: loadedWorkupAnswer(run, workups, this.root),
    });
    const path = resolve(this.root, this.options.outputFile);
    if (await writeReportFile(path, htmlPageChunks(info, answers)))
      process.stdout.write(`needlework: HTML report written to ${displayPath(path)}\n`);
  }
}

export default NeedleworkHtmlReporter;
