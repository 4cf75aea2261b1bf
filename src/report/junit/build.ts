import type { CheckMeta } from '../../model/check.js';
import { byteCompare } from '../../model/order.js';
import type { CheckRecord } from '../checks.js';
import { expectationText } from '../format.js';
import type { GateRow, GateText } from '../gate-text.js';
import { checkScorecard } from '../scorecard.js';
import { indexTrials, type TrialIndex } from '../trials.js';
import {
  caseProperties,
  criterionProperties,
  sameSuiteWide,
  suiteWideProperties,
  taskPropertyNames,
  taskPropertyValues,
} from './properties.js';
import {
  attribute,
  emptyElement,
  HeldProperties,
  PropertiesWriter,
  PropertyRows,
  textElement,
  XML_DECLARATION,
} from './xml.js';

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
  /**
   * The test cases written while the tests ran (`JUnitCases`, made with this `dialect` and `sourceOf`): the file takes
   * each as it was written, and writes the others now.
   */
  cases?: JUnitCases;
}

interface SuiteGroup {
  /** What the suite's checks have in common, in the order suites are written. */
  key: string;
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
 * `buildJUnitXml` as pieces of text of about `PIECE_CHARS` each (whole `<testsuite>` elements), each built as it is
 * read: the reporter writes them as they come, so a run of 30,000 checks never holds its whole file (48 MB).
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
  // junit-10.xsd allows no `skipped` here; each `<testsuite>` carries its own count.
  const open = `<testsuites${attribute('name', options.name)} tests="${checks.length + gateCases.length}" failures="${failures}" errors="0" time="${seconds(time)}"`;
  if (groups.length === 0 && !gate) {
    yield `${XML_DECLARATION}${open}/>\n`;
    return;
  }
  const cases = options.cases;
  const context: SuiteContext = {
    dialect,
    sourceOf: options.sourceOf,
    timestamp: timestampAttribute(options.timestamp),
    trials,
    taskRows: new Map(),
    cases: cases?.dialect === dialect && cases.sourceOf === options.sourceOf ? cases : undefined,
  };
  let piece = `${XML_DECLARATION}${open}>\n`;
  for (const group of groups) {
    piece += suiteText(group, context);
    if (piece.length >= PIECE_CHARS) {
      yield piece;
      piece = '';
    }
  }
  if (gate) piece += gateSuite(gate, gateCases, context.timestamp);
  yield `${piece}</testsuites>\n`;
}

/**
 * The size of the pieces yielded, in UTF-16 code units: whole suites gathered to about this, so the writer takes a few
 * hundred pieces rather than a piece a suite through its chain of awaits, and each still fits its 256 KB buffer once
 * encoded (a unit takes at most 3 bytes).
 */
const PIECE_CHARS = 1 << 15;

/** What a `<testcase>` is written with. */
interface CaseOptions {
  dialect: JUnitDialect;
  sourceOf?: JUnitBuildOptions['sourceOf'];
}

/** What every suite of one file is written with. */
interface SuiteContext extends CaseOptions {
  /** The ` timestamp="..."` attribute of every suite, or nothing. */
  timestamp: string;
  trials: TrialIndex;
  /** The task properties' rows of each criterion, by criterion and then its k values joined. */
  taskRows: Map<string, Map<string, PropertyRows>>;
  /** The cases written while the tests ran, when they were written with this file's dialect and `sourceOf`. */
  cases: JUnitCases | undefined;
}

/**
 * The `<testcase>` elements of a run's checks, each written as its test ends (the JUnit reporter's `onTestCaseResult`)
 * and held until the file is: an element depends on its check alone, and the main thread mostly waits while the tests
 * run, so after the last one only the suites' heads and task properties are left to put together (the file's time on
 * the main thread after the last test fell to about a third: docs/performance.md). A case that the file names apart
 * from its namesakes (`name [2]`) is written anew.
 */
export class JUnitCases implements CaseOptions {
  // Each check's `<testcase>` and a generated check's own properties (`criterionProperties`) and suite-wide ones (its
  // suite takes its first check's: one string for the checks of one suite that come one after another), each one flat
  // string (joined from its parts, it holds none of them). A run's records, and their texts, go with the run (keyed
  // weakly by the record).
  private readonly written = new WeakMap<CheckRecord, WrittenCheck>();
  private last: { meta: CheckMeta; suiteWide: string } | undefined;

  constructor(
    readonly dialect: JUnitDialect,
    readonly sourceOf?: JUnitBuildOptions['sourceOf'],
  ) {}

  /** Writes a finished test's check. */
  add(check: CheckRecord): void {
    const generated = isGenerated(check);
    const meta = check.meta;
    const classname = attribute('classname', generated ? suiteName(meta!) : check.file);
    // Joined from two parts (`open` and `rest` are never empty), the string is copied into a flat one.
    const testCase = caseText(check, caseName(check, generated), classname, generated, this).join('');
    let own = '';
    let suiteWide = '';
    if (generated) {
      const held = new HeldProperties(SUITE_PROPERTIES);
      criterionProperties(meta!, held.add);
      own = held.text();
      if (this.last && sameSuiteWide(this.last.meta, meta!)) suiteWide = this.last.suiteWide;
      else {
        const wide = new HeldProperties(SUITE_PROPERTIES);
        suiteWideProperties(meta!, wide.add);
        suiteWide = wide.text();
        this.last = { meta: meta!, suiteWide };
      }
    }
    this.written.set(check, { testCase, own, suiteWide });
  }

  /**
   * What `add` wrote for `check`, given up: a file takes each check's texts once, so they are let go of as the file is
   * written rather than with the run's records.
   */
  take(check: CheckRecord): WrittenCheck | undefined {
    const written = this.written.get(check);
    this.written.delete(check);
    return written;
  }
}

/** What `JUnitCases` wrote for a check. */
interface WrittenCheck {
  /** Its `<testcase>`, under its own name (`caseName`). */
  testCase: string;
  /** A generated check's `criterionProperties` lines. */
  own: string;
  /** A generated check's `suiteWideProperties` lines. */
  suiteWide: string;
}

/** The indent of a suite's `<properties>`. */
const SUITE_PROPERTIES = '    ';

/** ` timestamp="<the run's start>"` to the second, in the local-time-free form junit-10.xsd accepts; or nothing. */
function timestampAttribute(timestamp: Date | undefined): string {
  return timestamp ? ` timestamp="${timestamp.toISOString().replace(/\.\d{3}Z$/, '')}"` : '';
}

/**
 * The regression gate as a suite of its own, `needlework.regression-gate`: each regressed case x criterion a failing
 * test case (`classname` = the case, name = the criterion, the message its line: before -> after, on what basis, and
 * the reason), and properties CI dashboards read: `needlework.gate.baseline`, `.headline`, `.counts`, `.note.<n>`, and
 * `needlework.gate.<status>.<n>` for every case x criterion that changed, in the words of the terminal and the job
 * summary.
 */
function gateSuite(gate: GateText, failing: readonly GateRow[], timestamp: string): string {
  const properties = new PropertiesWriter('    ');
  properties.add('needlework.gate.baseline', gate.baseline);
  properties.add('needlework.gate.headline', gate.headline);
  properties.add('needlework.gate.counts', gate.counts);
  gate.notes.forEach((note, i) => {
    properties.add(`needlework.gate.note.${i + 1}`, note);
  });
  const seen = new Map<string, number>();
  for (const row of gate.rows) {
    const n = (seen.get(row.status) ?? 0) + 1;
    seen.set(row.status, n);
    properties.add(`needlework.gate.${row.status}.${n}`, row.line);
  }
  let out = `  <testsuite name="needlework.regression-gate" tests="${failing.length}" failures="${failing.length}" errors="0" skipped="0" time="${seconds(0)}"${timestamp}>\n${properties.text()}`;
  for (const row of failing) {
    const failure = `${attribute('message', `regressed: ${row.line}`)} type="regression"`;
    out += `    <testcase${attribute('classname', `needlework.regression-gate.${row.case}`)}${attribute('name', row.criterion)} time="${seconds(0)}">\n${emptyElement('      ', 'failure', failure)}    </testcase>\n`;
  }
  return `${out}  </testsuite>\n`;
}

/** One `<testsuite>`: its counts, a generated suite's properties, and its test cases. */
function suiteText(group: SuiteGroup, context: SuiteContext): string {
  const checks = group.checks;
  let failures = 0;
  let skipped = 0;
  let ms = 0;
  for (const check of checks) {
    if (check.state === 'failed') failures++;
    else if (check.state === 'skipped' || check.state === 'pending') skipped++;
    ms += check.durationMs;
  }
  let out = `  <testsuite${attribute('name', group.name)} tests="${checks.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(ms)}"${context.timestamp}${attribute('file', group.file)}>\n`;
  const written = context.cases ? checks.map((check) => context.cases!.take(check)) : [];
  if (group.generated) {
    // In the order `suiteWideProperties` gives: the checks are in criterion order already.
    const properties = new PropertiesWriter(SUITE_PROPERTIES);
    // A generated suite's checks all carry their meta (that is what makes them generated).
    const suiteWide = written[0]?.suiteWide;
    if (suiteWide === undefined) suiteWideProperties(checks[0]!.meta!, properties.add);
    else properties.addLines(suiteWide);
    for (let i = 0; i < checks.length; i++) {
      const meta = checks[i]!.meta!;
      const own = written[i]?.own;
      if (own === undefined) criterionProperties(meta, properties.add);
      else properties.addLines(own);
      const task = context.trials.of(meta);
      if (task) {
        const ks = context.trials.ks(meta);
        properties.addLines(taskRows(context, meta.criterion, ks).text(taskPropertyValues(task, ks)));
      }
    }
    out += properties.text();
  }
  // A generated suite's cases all have its name as their class; a file's, the file.
  let classname: string | undefined;
  for (let i = 0; i < checks.length; i++) {
    const check = checks[i]!;
    const name = group.names[i]!;
    // Written under its own name: a repeat named apart (`name [2]`) is written anew.
    const testCase = name === caseName(check, group.generated) ? written[i]?.testCase : undefined;
    if (testCase === undefined) {
      classname ??= attribute('classname', group.generated ? group.name : group.file);
      const [open, rest] = caseText(check, name, classname, group.generated, context);
      out += open + rest;
    } else out += testCase;
  }
  return `${out}  </testsuite>\n`;
}

/** The rows of a criterion's task properties with pass@k and pass^k for `ks`, made once a file. */
function taskRows(context: SuiteContext, criterion: string, ks: readonly string[]): PropertyRows {
  let byKs = context.taskRows.get(criterion);
  if (!byKs) {
    byKs = new Map();
    context.taskRows.set(criterion, byKs);
  }
  const key = ks.join(',');
  let rows = byKs.get(key);
  if (!rows) {
    rows = new PropertyRows(SUITE_PROPERTIES, taskPropertyNames(criterion, ks));
    byKs.set(key, rows);
  }
  return rows;
}

/** One `<testcase>`, `classname` its attribute as written: its start tag's opening, and the rest. */
function caseText(
  check: CheckRecord,
  name: string,
  classname: string,
  generated: boolean,
  options: CaseOptions,
): [open: string, rest: string] {
  const meta = check.meta;
  const { file, line } = options.sourceOf?.(check) ?? { file: check.file, line: check.line };
  const ci = options.dialect === 'ci';
  const open = `    <testcase${classname}${attribute('name', name)} time="${seconds(check.durationMs)}"${ci ? `${attribute('file', file)}${line === undefined ? '' : ` line="${line}"`}` : ''}`;
  let children = '';
  if (meta && !generated && ci) {
    const properties = new PropertiesWriter('      ');
    caseProperties(meta, properties.add);
    children += properties.text();
  }
  if (check.state === 'skipped' || check.state === 'pending') {
    children += emptyElement('      ', 'skipped', attribute('message', check.skipNote));
  }
  if (check.state === 'failed') {
    const error = check.errors[0];
    const stack = check.errors.map((e) => e.stack ?? `${e.name}: ${e.message}`).join('\n\n');
    const [message, type] =
      meta?.verdict === 'fail'
        ? [expectationText(meta), meta.metric]
        : [error?.message ?? 'failed', error?.name ?? 'Error'];
    const attributes = `${attribute('message', message)}${attribute('type', type)}`;
    children += stack
      ? textElement('      ', 'failure', attributes, stack)
      : emptyElement('      ', 'failure', attributes);
  }
  const out: string[] = [];
  if (!ci) out.push(line === undefined ? `at ${file}` : `at ${file}:${line}`);
  if (meta) out.push(checkScorecard(meta));
  if (check.skipNote) out.push(`skipped: ${check.skipNote}`);
  if (out.length > 0) children += textElement('      ', 'system-out', '', out.join('\n\n'));
  return [open, children === '' ? '/>\n' : `>\n${children}    </testcase>\n`];
}

/** A test the needlework plugin generated from a YAML spec (a hand-written matcher test records `matcher`). */
function isGenerated(check: CheckRecord): boolean {
  return check.meta !== undefined && check.meta.specKind !== 'matcher';
}

/** Groups checks into suites and orders suites and their cases in byte order. */
function groupChecks(checks: readonly CheckRecord[]): SuiteGroup[] {
  const groups = new Map<string, SuiteGroup>();
  let last: SuiteGroup | undefined;
  for (const check of checks) {
    const generated = isGenerated(check);
    const meta = check.meta;
    // A suite's checks mostly come one after another (in report order, by file and full name): the suite of the check
    // before is tried first, without building the key.
    if (
      last &&
      last.generated === generated &&
      (generated ? sameSuite(last.checks[0]!.meta!, meta!) : last.file === check.file)
    ) {
      last.checks.push(check);
      continue;
    }
    // The NUL byte keeps a spec x case x workup key from ever equalling a file path.
    const key = generated && meta ? `\0${meta.spec}\0${meta.case ?? ''}\0${meta.workup}` : check.file;
    let group = groups.get(key);
    if (!group) {
      const name = generated && meta ? suiteName(meta) : check.file;
      group = { key, name, file: check.file, generated, checks: [], names: [] };
      groups.set(key, group);
    }
    group.checks.push(check);
    last = group;
  }
  const ordered = [...groups.values()].sort((a, b) => byteCompare(a.key, b.key));
  for (const group of ordered) {
    const generated = group.generated;
    // A stable sort: checks of one name and file stay in the order they came in (their source order, in every shard).
    if (group.checks.length > 1) group.checks.sort(generated ? byCriterion : byFullName);
    group.names = distinctNames(group.checks.map((check) => caseName(check, generated)));
  }
  return ordered;
}

/** Whether two generated checks are of one suite: one spec x case x workup (no case and an empty one alike). */
function sameSuite(a: CheckMeta, b: CheckMeta): boolean {
  return a.workup === b.workup && a.spec === b.spec && (a.case ?? '') === (b.case ?? '');
}

/** The order of a generated suite's cases: by criterion, then file. */
function byCriterion(a: CheckRecord, b: CheckRecord): number {
  return byteCompare(a.meta!.criterion, b.meta!.criterion) || byteCompare(a.file, b.file);
}

/** The order of a file's cases: by full name, then file. */
function byFullName(a: CheckRecord, b: CheckRecord): number {
  return byteCompare(a.fullName, b.fullName) || byteCompare(a.file, b.file);
}

/**
 * The names with every repeat told apart (`name [2]`, `name [3]`): a CI reader keys a test case by classname and
 * name, and two cases under one key are merged or overwritten there (two hand-written tests of one name in a file).
 * The names come sorted, so a name's repeats follow it.
 */
function distinctNames(names: string[]): string[] {
  let n = 1;
  for (let i = 1; i < names.length; i++) {
    n = names[i] === names[i - 1] ? n + 1 : 1;
    if (n > 1) names[i] = `${names[i]} [${n}]`;
  }
  return names;
}

/**
 * A generated suite's name, the `classname` of its cases: `<spec>.<workup>`, or `<spec>.<case>.<workup>` for a task
 * case, so two cases of one data set over one run are two suites (a check is spec x case x workup x criterion).
 */
function suiteName(meta: NonNullable<CheckRecord['meta']>): string {
  return meta.case === undefined ? `${meta.spec}.${meta.workup}` : `${meta.spec}.${meta.case}.${meta.workup}`;
}

/** A test case's name in the file, before repeats are told apart: a generated check's criterion, else the test's name. */
function caseName(check: CheckRecord, generated: boolean): string {
  return generated ? check.meta!.criterion : check.fullName;
}

/** Milliseconds to the seconds JUnit wants, to the millisecond, in the plain decimal form junit-10.xsd accepts. */
function seconds(ms: number): string {
  return (Math.max(0, Math.round(ms)) / 1000).toFixed(3);
}
