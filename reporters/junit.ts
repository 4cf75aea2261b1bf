import { resolve } from 'node:path';
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';
import { historyLocation } from '../src/history/store/open.js';
import { displayPath, projectPaths } from '../src/io/display-path.js';
import { writeReportFile } from '../src/io/report-file.js';
import type { CheckRecord } from '../src/report/checks.js';
import {
  collectCaseCheck,
  collectChecks,
  collectModuleChecks,
  recordTestLocations,
} from '../src/report/collect.js';
import { JUnitCases, type JUnitDialect, junitXmlChunks } from '../src/report/junit/build.js';
import { trendWriteBegun } from '../src/report/pending-trend.js';
import { runHistory } from '../src/report/run-history.js';

export interface NeedleworkJUnitOptions {
  /**
   * Where to write the XML, relative to the project root.
   * @default 'needlework-junit.xml'
   */
  outputFile?: string;
  /**
   * The `name` of the root `<testsuites>` element.
   * @default 'needlework'
   */
  suiteName?: string;
  /**
   * Whether to write each `<testsuite>`'s `timestamp` (the run's start). Turn it off for byte-reproducible files.
   * @default true
   */
  timestamp?: boolean;
  /**
   * `ci` for GitLab, the GitHub report actions and Jenkins' `junit` step (every test case carries `file` and `line`);
   * `junit-10` for the Jenkins xUnit plugin, which rejects any attribute its junit-10.xsd does not list.
   * @default 'ci'
   */
  dialect?: JUnitDialect;
  /**
   * The results store whose latest earlier run this run is compared with (a folder relative to the project root, a
   * `postgres://` URL, or a trend.json): the regression gate's verdicts and the cases that dropped are written as the
   * properties of a `needlework.regression-gate` suite. `false` for none.
   * @default process.env.NEEDLEWORK_STORE, else '.needlework/store'
   */
  store?: string | false;
}

/**
 * Writes a JUnit XML file for CI (Jenkins, GitLab, GitHub JUnit actions): a test suite per spec x workup, a test case
 * per criterion with the expected-against-actual failure message, the scores as `<properties>` and a scorecard in
 * `system-out`. Hand-written tests (matcher tests included) keep their own names, grouped by file.
 * @example
 * ```ts
 * // vitest.config.ts
 * import { defineConfig } from 'vitest/config';
 * import NeedleworkJUnitReporter from 'needlework/reporters/junit';
 * import { needlework } from 'needlework/vitest';
 *
 * export default defineConfig({
 *   plugins: [needlework({ needles: 'needles', workups: 'runs' })],
 *   test: { reporters: ['default', new NeedleworkJUnitReporter({ outputFile: 'reports/junit.xml', dialect: 'ci' })] },
 * });
 * ```
 */
export class NeedleworkJUnitReporter implements Reporter {
  private readonly options: Required<Omit<NeedleworkJUnitOptions, 'store'>> & { store: string | false };
  private root = process.cwd();
  private startedAt = new Date();
  // Each spec file's path from the root, once per file (30,000 checks share a handful of spec files).
  private specPath = projectPaths(this.root);
  // The test cases, each written as its test ends: after the last test only the suites are left to write.
  private readonly cases: JUnitCases;

  constructor(options: NeedleworkJUnitOptions = {}) {
    this.options = {
      outputFile: options.outputFile ?? 'needlework-junit.xml',
      suiteName: options.suiteName ?? 'needlework',
      timestamp: options.timestamp ?? true,
      dialect: options.dialect ?? 'ci',
      store: options.store ?? '',
    };
    this.cases = new JUnitCases(this.options.dialect, this.sourceOf);
  }

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
    this.specPath = projectPaths(this.root);
    this.startedAt = new Date();
    recordTestLocations(vitest);
  }

  /**
   * Where a check's test case points: a YAML-spec test at its assertion in the spec file (the place its check carries
   * from load); a hand-written test at its own line.
   */
  private readonly sourceOf = (check: CheckRecord): { file: string; line: number } | undefined => {
    const meta = check.meta;
    if (!meta?.specFile || meta.specKind === 'matcher') return undefined;
    return { file: this.specPath(meta.specFile), line: meta.place?.line ?? 1 };
  };

  /** A finished test's case is written now, while the tests run. */
  onTestCaseResult(test: TestCase): void {
    this.cases.add(collectCaseCheck(test, this.root));
  }

  /** A finished module's checks are collected now, while the next module runs, rather than after the last test. */
  onTestModuleEnd(module: TestModule): void {
    collectModuleChecks(module, this.root);
  }

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    await trendWriteBegun();
    const checks = collectChecks(testModules, this.root);
    const location = historyLocation(this.options.store, this.root);
    // The gate, computed from the baseline the store's thread reads meanwhile, is the file's last suite: every other
    // suite is written before it is awaited.
    const gate = location
      ? runHistory(checks, location, this.root, this.startedAt)
          .gate()
          .then((known) => known?.text)
      : undefined;
    // A write that fails before the gate's turn still leaves a gate that failed handled (the write says why).
    gate?.catch(() => undefined);
    // Written suite by suite as each is built: the whole file is never held (48 MB at 30,000 checks).
    const xml = junitXmlChunks(checks, {
      name: this.options.suiteName,
      dialect: this.options.dialect,
      sourceOf: this.sourceOf,
      cases: this.cases,
      ...(this.options.timestamp ? { timestamp: this.startedAt } : {}),
      ...(gate && { gate }),
    });
    const path = resolve(this.root, this.options.outputFile);
    if (await writeReportFile(path, xml))
      process.stdout.write(`needlework: JUnit report written to ${displayPath(path)}\n`);
  }
}

export default NeedleworkJUnitReporter;
