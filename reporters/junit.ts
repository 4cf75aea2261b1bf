import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { collectChecks } from '../src/report/collect.js';
import { displayPath } from '../src/report/display-path.js';
import { buildJUnitXml } from '../src/report/junit/build.js';

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
}

/**
 * Writes a JUnit XML file for CI (Jenkins, GitLab, GitHub JUnit actions): a test suite per spec x workup, a test case
 * per criterion with the expected-against-actual failure message, the scores as `<properties>` and a scorecard in
 * `system-out`. Plain Vitest tests are reported as ordinary cases, grouped by file.
 */
export class NeedleworkJUnitReporter implements Reporter {
  private readonly options: Required<NeedleworkJUnitOptions>;
  private root = process.cwd();
  private startedAt = new Date();

  constructor(options: NeedleworkJUnitOptions = {}) {
    this.options = {
      outputFile: options.outputFile ?? 'needlework-junit.xml',
      suiteName: options.suiteName ?? 'needlework',
      timestamp: options.timestamp ?? true,
    };
  }

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
    this.startedAt = new Date();
  }

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    const checks = collectChecks(testModules, this.root);
    const xml = buildJUnitXml(checks, {
      name: this.options.suiteName,
      ...(this.options.timestamp ? { timestamp: this.startedAt } : {}),
    });
    const path = resolve(this.root, this.options.outputFile);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, xml);
    process.stdout.write(`needlework: JUnit report written to ${displayPath(path)}\n`);
  }
}

export default NeedleworkJUnitReporter;
