import { resolve } from 'node:path';
import type { Reporter, TestCase, TestModule, TestSpecification, Vitest } from 'vitest/node';
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
import { answerWriting } from '../src/ui/report/answer-writing.js';
import { reportAnswers, reportHome, type WorkupRef } from '../src/ui/report/answers.js';
import { htmlPageChunks } from '../src/ui/report/page.js';
import { preloadedWorkupAnswer } from '../src/ui/report/workups.js';
import { WorkupAnswersAhead } from '../src/ui/report/workups-ahead.js';

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
 * to it. Each workup is read and its answer written while the tests run, in a thread of its own, once its last test has
 * ended (`WorkupAnswersAhead`): the end of the run builds the run's own answers and packs the page. See docs/report.md.
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
  /** The workups of this run, as the reporters that show them read them. */
  private workups: WorkupPreload<LoadedWorkup> = workupLoader(this.root);
  /** Their answers, written (in a thread of their own) as their tests end; none outside a run (`onTestRunStart`). */
  private ahead: WorkupAnswersAhead | undefined;
  /** How many workups' answers in the last report were written while the tests ran (the others were built after). */
  writtenAhead = 0;

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
    // Shared with the other reporters of this run that read its workups; read here only for answers not written ahead.
    this.workups = runWorkupLoader(specifications, this.root);
    this.ahead?.close();
    this.ahead = new WorkupAnswersAhead(this.root, specifications.length, answerWriting(this.root));
  }

  onTestModuleCollected(module: TestModule): void {
    this.ahead?.noteModule(module);
  }

  onTestCaseResult(test: TestCase): void {
    this.ahead?.noteTest(test);
  }

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    // The answers written ahead, the last of them while the rest of the page is built.
    const ahead = this.ahead?.finish();
    this.ahead = undefined;
    ahead?.catch(() => undefined);
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
    this.writtenAhead = 0;
    // The workups whose answers were not written ahead are built now.
    const built = preloadedWorkupAnswer(run, checks, this.workups, this.root);
    const workup = async (ref: WorkupRef) => {
      const written = (await ahead?.catch(() => undefined))?.(ref, run.id);
      if (!written) return built(ref);
      this.writtenAhead++;
      return written;
    };
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
      workup,
    });
    const path = resolve(this.root, this.options.outputFile);
    if (await writeReportFile(path, htmlPageChunks(info, answers)))
      process.stdout.write(`needlework: HTML report written to ${displayPath(path)}\n`);
  }
}

export default NeedleworkHtmlReporter;
