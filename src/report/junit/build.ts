import junitModule, { type Builder } from 'junit-report-builder';
import { byteCompare, type CheckRecord } from '../checks.js';
import { expectationText } from '../format.js';
import { checkScorecard } from '../scorecard.js';
import { xmlSafe } from '../text.js';
import { indexTrials } from '../trials.js';
import { suiteProperties } from './properties.js';

export interface JUnitBuildOptions {
  /** The `name` of the root `<testsuites>`. */
  name: string;
  /** Written as each `<testsuite>`'s `timestamp`; omitted when absent, which keeps the file reproducible. */
  timestamp?: Date;
}

// The package is CommonJS (`module.exports = builder`) but its types declare an ES default export, so under NodeNext
// TypeScript sees the builder one level down; at run time Node hands us the builder itself.
const junit = ((junitModule as unknown as { default?: Builder }).default ??
  junitModule) as unknown as Builder;

interface SuiteGroup {
  name: string;
  checks: CheckRecord[];
}

/**
 * Builds the JUnit XML for a run. A needlework check goes into the suite of its spec x workup
 * (`classname` = `<spec>.<workup>`, name = the criterion); a plain Vitest test goes into the suite of its file
 * (`classname` = the file, name = its full name), as Vitest's own JUnit reporter does. Suites and cases are in plain
 * byte order, so a sharded-and-merged run gives the same file as one run.
 */
export function buildJUnitXml(checks: readonly CheckRecord[], options: JUnitBuildOptions): string {
  const builder = junit.newBuilder().name(xmlSafe(options.name));
  const trials = indexTrials(checks);
  for (const group of groupChecks(checks)) {
    const suite = builder.testSuite().name(xmlSafe(group.name));
    if (options.timestamp) suite.timestamp(options.timestamp);
    suite.time(seconds(group.checks.reduce((sum, check) => sum + check.durationMs, 0)));
    const metas = group.checks.flatMap((check) => (check.meta ? [check.meta] : []));
    for (const [name, value] of suiteProperties(metas, trials)) suite.property(xmlSafe(name), xmlSafe(value));
    for (const check of group.checks) {
      const meta = check.meta;
      const testCase = suite
        .testCase()
        .className(xmlSafe(meta ? `${meta.spec}.${meta.workup}` : check.file))
        .name(xmlSafe(meta ? meta.criterion : check.fullName))
        .time(seconds(check.durationMs))
        .file(xmlSafe(check.file));
      if (check.state === 'skipped' || check.state === 'pending') testCase.skipped();
      if (check.state === 'failed') {
        const error = check.errors[0];
        const stack = check.errors.map((e) => e.stack ?? `${e.name}: ${e.message}`).join('\n\n');
        if (meta?.verdict === 'fail') testCase.failure(xmlSafe(expectationText(meta)), xmlSafe(meta.metric));
        else testCase.failure(xmlSafe(error?.message ?? 'failed'), xmlSafe(error?.name ?? 'Error'));
        if (stack) testCase.stacktrace(xmlSafe(stack));
      }
      const out: string[] = [];
      if (meta) out.push(checkScorecard(meta));
      if (check.skipNote) out.push(`skipped: ${check.skipNote}`);
      if (out.length > 0) testCase.standardOutput(xmlSafe(out.join('\n\n')));
    }
  }
  return builder.build();
}

/** Groups checks into suites and orders suites and their cases in byte order. */
function groupChecks(checks: readonly CheckRecord[]): SuiteGroup[] {
  const groups = new Map<string, SuiteGroup>();
  for (const check of checks) {
    // The NUL byte keeps a spec x workup key from ever equalling a file path.
    const key = check.meta ? `\0${check.meta.spec}\0${check.meta.workup}` : check.file;
    let group = groups.get(key);
    if (!group) {
      group = { name: check.meta ? `${check.meta.spec}.${check.meta.workup}` : check.file, checks: [] };
      groups.set(key, group);
    }
    group.checks.push(check);
  }
  const ordered = [...groups.entries()].sort(([a], [b]) => byteCompare(a, b)).map(([, group]) => group);
  for (const group of ordered) {
    group.checks = group.checks
      .map((check, index) => ({ check, index }))
      .sort(
        (a, b) =>
          byteCompare(caseName(a.check), caseName(b.check)) ||
          byteCompare(a.check.file, b.check.file) ||
          a.index - b.index,
      )
      .map(({ check }) => check);
  }
  return ordered;
}

function caseName(check: CheckRecord): string {
  return check.meta ? check.meta.criterion : check.fullName;
}

/** Milliseconds to the seconds JUnit wants, to the millisecond. */
function seconds(ms: number): number {
  return Math.round(ms) / 1000;
}
