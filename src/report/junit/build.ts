import { byteCompare } from '../../model/order.js';
import type { CheckRecord } from '../checks.js';
import { expectationText } from '../format.js';
import type { GateRow, GateText } from '../gate-text.js';
import { checkScorecard } from '../scorecard.js';
import { indexTrials, type TrialIndex } from '../trials.js';
import { caseProperties, suiteProperties } from './properties.js';
import { renderXmlChunks, type XmlElement } from './xml.js';

/**
 * Which readers the file is shaped for.
 * - `ci`: what GitLab, the GitHub report actions (dorny/test-reporter, mikepenz/action-junit-report) and Jenkins'
 *   `junit` step read. Every `<testcase>` carries `file` and `line` (they link a case to its source), and a
 *   hand-written test's check is written as `<properties>` inside its `<testcase>`.
 * - `junit-10`: exactly what the Jenkins xUnit plugin's junit-10.xsd allows (xUnit rejects a file with any other
 *   attribute): no `file`, `line` or properties on a `<testcase>`; the source place opens its `system-out` instead,
 *   and the check's spec, workup and criterion are in the scorecard there.
 */
export type JUnitDialect = 'ci' | 'junit-10';

export interface JUnitBuildOptions {
  /** The `name` of the root `<testsuites>`. */
  name: string;
  /** Written as each `<testsuite>`'s `timestamp`; omitted when absent, which keeps the file reproducible. */
  timestamp?: Date;
  /** @default 'ci' */
  dialect?: JUnitDialect;
  /**
   * The source place a check's test case points at, when the reporter knows a better one than the test's own (a
   * YAML-spec test points at its criterion in the spec file: project-relative path, 1-based line). Falls back to
   * `check.file` and `check.line`.
   */
  sourceOf?: (check: CheckRecord) => { file: string; line: number } | undefined;
  /**
   * The regression gate against the stored baseline, written as the properties of a suite of its own, the file's
   * last: when it is still being computed, the suites before it are written meanwhile.
   */
  gate?: GateText | Promise<GateText | undefined>;
}

interface SuiteGroup {
  name: string;
  /** The file the suite's cases come from (a spec x workup's cases all come from its spec file). */
  file: string;
  /** A spec x workup suite, whose checks are written as suite properties. */
  generated: boolean;
  checks: CheckRecord[];
  /** Each check's test case name, in the order of `checks`, none repeated within the suite. */
  names: string[];
}

/**
 * Builds the JUnit XML for a run. A YAML-spec check (a test the plugin generated) goes into the suite of its
 * spec x case x workup (`classname` = `<spec>.<workup>`, or `<spec>.<case>.<workup>` for a task case; name = the
 * criterion), its measurements written as suite properties. Every other test, hand-written matcher tests included, keeps its own name and file: it goes into the
 * suite of its file (`classname` = the file, name = its full name, as Vitest's own JUnit reporter writes it), so two
 * hand-written tests asserting the same criterion never collapse into one case. Suites and cases are in plain byte
 * order, so a sharded-and-merged run gives the same file as one run.
 */
export async function buildJUnitXml(
  checks: readonly CheckRecord[],
  options: JUnitBuildOptions,
): Promise<string> {
  let xml = '';
  for await (const chunk of junitXmlChunks(checks, options)) xml += chunk;
  return xml;
}

/**
 * `buildJUnitXml` as the text of one `<testsuite>` after another, each built as it is read: the reporter writes them
 * as they come, so a run of 30,000 checks never holds its whole element tree nor its whole file (that took 630 MB).
 */
export async function* junitXmlChunks(
  checks: readonly CheckRecord[],
  options: JUnitBuildOptions,
): AsyncIterable<string> {
  const dialect = options.dialect ?? 'ci';
  const trials = indexTrials(checks);
  const groups = groupChecks(checks);
  // The gate's failing cases count in the file's totals, so its head waits for the gate (computed meanwhile from the
  // baseline the store's thread read while the tests ran).
  const gate = await options.gate;
  const gateCases = gate ? gate.rows.filter((row) => row.status === 'regressed') : [];
  let failures = gateCases.length;
  let time = 0;
  for (const check of checks) {
    if (check.state === 'failed') failures++;
    time += check.durationMs;
  }
  yield* renderXmlChunks(
    {
      name: 'testsuites',
      // junit-10.xsd allows no `skipped` here; each `<testsuite>` carries its own count.
      attributes: [
        ['name', options.name],
        ['tests', checks.length + gateCases.length],
        ['failures', failures],
        ['errors', 0],
        ['time', seconds(time)],
      ],
    },
    (function* () {
      for (const group of groups) yield suiteElement(group, dialect, options, trials);
      if (gate) yield gateSuite(gate, gateCases, options);
    })(),
  );
}

/**
 * The regression gate as a suite of its own, `needlework.regression-gate`: each regressed case x criterion a failing
 * test case (`classname` = the case, name = the criterion, the message its line: before -> after, on what basis, and
 * the reason), and properties CI dashboards read: `needlework.gate.baseline`, `.headline`, `.counts`, `.note.<n>`, and
 * `needlework.gate.<status>.<n>` for every case x criterion that changed, in the words of the terminal and the job
 * summary.
 */
function gateSuite(gate: GateText, failing: readonly GateRow[], options: JUnitBuildOptions): XmlElement {
  const properties: Array<[string, string]> = [
    ['needlework.gate.baseline', gate.baseline],
    ['needlework.gate.headline', gate.headline],
    ['needlework.gate.counts', gate.counts],
  ];
  gate.notes.forEach((note, i) => {
    properties.push([`needlework.gate.note.${i + 1}`, note]);
  });
  const seen = new Map<string, number>();
  for (const row of gate.rows) {
    const n = (seen.get(row.status) ?? 0) + 1;
    seen.set(row.status, n);
    properties.push([`needlework.gate.${row.status}.${n}`, row.line]);
  }
  const cases: XmlElement[] = failing.map((row) => ({
    name: 'testcase',
    attributes: [
      ['classname', `needlework.regression-gate.${row.case}`],
      ['name', row.criterion],
      ['time', seconds(0)],
    ],
    children: [
      {
        name: 'failure',
        attributes: [
          ['message', `regressed: ${row.line}`],
          ['type', 'regression'],
        ],
      },
    ],
  }));
  return {
    name: 'testsuite',
    attributes: [
      ['name', 'needlework.regression-gate'],
      ['tests', cases.length],
      ['failures', cases.length],
      ['errors', 0],
      ['skipped', 0],
      ['time', seconds(0)],
      ['timestamp', options.timestamp?.toISOString().replace(/\.\d{3}Z$/, '')],
    ],
    children: [propertiesElement(properties), ...cases],
  };
}

function suiteElement(
  group: SuiteGroup,
  dialect: JUnitDialect,
  options: JUnitBuildOptions,
  trials: TrialIndex,
): XmlElement {
  const metas = group.checks.flatMap((check) => (check.meta ? [check.meta] : []));
  const children: XmlElement[] = [];
  if (group.generated && metas.length > 0) children.push(propertiesElement(suiteProperties(metas, trials)));
  group.checks.forEach((check, i) => {
    children.push(caseElement(check, group.names[i]!, group, dialect, options));
  });
  return {
    name: 'testsuite',
    attributes: [
      ['name', group.name],
      ['tests', group.checks.length],
      ['failures', group.checks.filter((check) => check.state === 'failed').length],
      ['errors', 0],
      [
        'skipped',
        group.checks.filter((check) => check.state === 'skipped' || check.state === 'pending').length,
      ],
      ['time', seconds(group.checks.reduce((sum, check) => sum + check.durationMs, 0))],
      ['timestamp', options.timestamp?.toISOString().replace(/\.\d{3}Z$/, '')],
      ['file', group.file],
    ],
    children,
  };
}

function caseElement(
  check: CheckRecord,
  name: string,
  group: SuiteGroup,
  dialect: JUnitDialect,
  options: JUnitBuildOptions,
): XmlElement {
  const meta = check.meta;
  const { file, line } = options.sourceOf?.(check) ?? { file: check.file, line: check.line };
  const children: XmlElement[] = [];
  if (meta && !group.generated && dialect === 'ci') children.push(propertiesElement(caseProperties(meta)));
  if (check.state === 'skipped' || check.state === 'pending') {
    children.push({ name: 'skipped', attributes: [['message', check.skipNote]] });
  }
  if (check.state === 'failed') {
    const error = check.errors[0];
    const stack = check.errors.map((e) => e.stack ?? `${e.name}: ${e.message}`).join('\n\n');
    const [message, type] =
      meta?.verdict === 'fail'
        ? [expectationText(meta), meta.metric]
        : [error?.message ?? 'failed', error?.name ?? 'Error'];
    children.push({
      name: 'failure',
      attributes: [
        ['message', message],
        ['type', type],
      ],
      ...(stack ? { text: stack } : {}),
    });
  }
  const out: string[] = [];
  if (dialect === 'junit-10') out.push(line === undefined ? `at ${file}` : `at ${file}:${line}`);
  if (meta) out.push(checkScorecard(meta));
  if (check.skipNote) out.push(`skipped: ${check.skipNote}`);
  if (out.length > 0) children.push({ name: 'system-out', text: out.join('\n\n') });
  return {
    name: 'testcase',
    attributes: [
      ['classname', group.generated ? group.name : check.file],
      ['name', name],
      ['time', seconds(check.durationMs)],
      ...(dialect === 'ci'
        ? ([
            ['file', file],
            ['line', line],
          ] as Array<[string, string | number | undefined]>)
        : []),
    ],
    children,
  };
}

function propertiesElement(properties: ReadonlyArray<readonly [string, string]>): XmlElement {
  return { name: 'properties', leaves: { name: 'property', names: PROPERTY_ATTRIBUTES, rows: properties } };
}

const PROPERTY_ATTRIBUTES = ['name', 'value'] as const;

/** A test the needlework plugin generated from a YAML spec (a hand-written matcher test records `matcher`). */
function isGenerated(check: CheckRecord): boolean {
  return check.meta !== undefined && check.meta.specKind !== 'matcher';
}

/** Groups checks into suites and orders suites and their cases in byte order. */
function groupChecks(checks: readonly CheckRecord[]): SuiteGroup[] {
  const groups = new Map<string, SuiteGroup>();
  for (const check of checks) {
    const generated = isGenerated(check);
    const meta = check.meta;
    // The NUL byte keeps a spec x case x workup key from ever equalling a file path.
    const key = generated && meta ? `\0${meta.spec}\0${meta.case ?? ''}\0${meta.workup}` : check.file;
    let group = groups.get(key);
    if (!group) {
      const name = generated && meta ? suiteName(meta) : check.file;
      group = { name, file: check.file, generated, checks: [], names: [] };
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
          byteCompare(caseName(a.check, group), caseName(b.check, group)) ||
          byteCompare(a.check.file, b.check.file) ||
          a.index - b.index,
      )
      .map(({ check }) => check);
    group.names = distinctNames(group.checks.map((check) => caseName(check, group)));
  }
  return ordered;
}

/**
 * The names with every repeat told apart (`name [2]`, `name [3]`): a CI reader keys a test case by classname and
 * name, and two cases under one key are merged or overwritten there (two hand-written tests of one name in a file).
 */
function distinctNames(names: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return n === 1 ? name : `${name} [${n}]`;
  });
}

/**
 * A generated suite's name, the `classname` of its cases: `<spec>.<workup>`, or `<spec>.<case>.<workup>` for a task
 * case, so two cases of one data set over one run are two suites (a check is spec x case x workup x criterion).
 */
function suiteName(meta: NonNullable<CheckRecord['meta']>): string {
  return meta.case === undefined ? `${meta.spec}.${meta.workup}` : `${meta.spec}.${meta.case}.${meta.workup}`;
}

function caseName(check: CheckRecord, group: SuiteGroup): string {
  return group.generated && check.meta ? check.meta.criterion : check.fullName;
}

/** Milliseconds to the seconds JUnit wants, to the millisecond, in the plain decimal form junit-10.xsd accepts. */
function seconds(ms: number): string {
  return (Math.max(0, Math.round(ms)) / 1000).toFixed(3);
}
