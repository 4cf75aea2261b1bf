import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'junit2json';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NeedleworkJUnitReporter } from '../../reporters/junit.js';
import type { NeedleSpec } from '../../src/model/spec.js';
import type { CheckRecord } from '../../src/report/checks.js';
import type { GateText } from '../../src/report/gate-text.js';
import { buildJUnitXml } from '../../src/report/junit/build.js';
import { parseSpec } from '../../src/specs/load.js';
import {
  checkMeta,
  makeProject,
  normalizeJUnit,
  removeProject,
  runVitest,
  testFileSource,
} from './harness.js';
import { hasXmllint, NO_XMLLINT, validateJUnit } from './xmllint.js';

const SPEC = `# yaml-language-server: $schema=needle.schema.json
id: compound-alpha
answer: Compound-Alpha
required_path:
  relations: [MEMBER_OF, CO_LOCATED]
thresholds:
  pivot_burden: 6
`;
const SPEC_FILE = 'needles/compound-alpha.needle.yaml';
// Where each criterion is written, as the spec's loader finds it: the checks carry it from there.
const PLACES = (parseSpec(SPEC, SPEC_FILE) as NeedleSpec).places!;

const grounded = (criterion: string, overrides = {}) =>
  checkMeta({
    spec: 'compound-alpha',
    specFile: SPEC_FILE,
    place: PLACES[criterion],
    workup: 'grounded',
    workupPath: 'fixtures/workups/grounded',
    criterion,
    ...overrides,
  });

const flight = (overrides = {}) =>
  checkMeta({
    spec: 'matcher',
    specKind: 'matcher',
    workup: 'trip',
    workupPath: 'runs/trip',
    criterion: 'traversed',
    metric: 'trajectory',
    ...overrides,
  });

let root: string;
let xml: string;
let xml10: string;
let printed: string;

beforeAll(async () => {
  root = await makeProject({
    'needles.check.mjs': testFileSource([
      {
        describe: ['compound-alpha', 'grounded'],
        name: 'traversed',
        meta: grounded('traversed', { metric: 'trajectory' }),
        outcome: 'pass',
      },
      {
        describe: ['compound-alpha', 'grounded'],
        name: 'surfaced',
        meta: grounded('surfaced', { scores: { tokens: 812, cost: 0.0031 } }),
        outcome: 'pass',
      },
      {
        describe: ['compound-alpha', 'guessed'],
        name: 'traversed',
        meta: checkMeta({
          spec: 'compound-alpha',
          specFile: SPEC_FILE,
          place: PLACES['traversed'],
          workup: 'guessed',
          criterion: 'traversed',
          metric: 'trajectory',
          value: 0.25,
          verdict: 'fail',
          summary: 'ledger reached MEMBER_OF only; CO_LOCATED never queried',
        }),
        outcome: 'fail',
        error: '\u001b[31mexpected 0.25 to be >= 0.8\u001b[39m',
      },
      {
        describe: ['compound-alpha', 'guessed'],
        name: 'pivot-burden',
        meta: checkMeta({
          spec: 'compound-alpha',
          specFile: SPEC_FILE,
          place: PLACES['pivot-burden'],
          workup: 'guessed',
          criterion: 'pivot-burden',
          metric: 'pivot_burden',
          value: null,
          unit: 'queries',
          threshold: 6,
          comparator: '<=',
          verdict: 'not-applicable',
        }),
        outcome: 'skip',
      },
    ]),
    [SPEC_FILE]: SPEC,
    // Two hand-written tests asserting the same criterion on the same workup, as a matcher records them.
    'flights.check.mjs': testFileSource([
      {
        describe: ['trip'],
        name: 'books the cheapest flight',
        meta: flight(),
        outcome: 'pass',
      },
      {
        describe: ['trip'],
        name: 'books a refundable flight',
        meta: flight({ value: 0.5, verdict: 'fail' }),
        outcome: 'fail',
        error: 'expected the path to be traversed',
      },
    ]),
    'plain.check.mjs': testFileSource([
      { describe: ['loader'], name: 'reads a ledger', outcome: 'pass' },
      {
        describe: ['loader'],
        name: 'rejects a bad line',
        outcome: 'fail',
        error: 'bad \u0001 line ]]> here',
      },
    ]),
  });
  const write = vi.spyOn(process.stdout, 'write');
  await runVitest(root, [
    new NeedleworkJUnitReporter(),
    new NeedleworkJUnitReporter({ dialect: 'junit-10', outputFile: 'junit-10.xml' }),
  ]);
  printed = write.mock.calls.map(([chunk]) => String(chunk)).join('');
  write.mockRestore();
  xml = await readFile(join(root, 'needlework-junit.xml'), 'utf8');
  xml10 = await readFile(join(root, 'junit-10.xml'), 'utf8');
}, 60_000);

/** Each `<testcase ...>` start tag's attributes, by name. */
function caseAttributes(text: string): Array<Record<string, string>> {
  return [...text.matchAll(/<testcase ((?:[^>"]|"[^"]*")*)>/g)].map((m) =>
    Object.fromEntries([...m[1]!.matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!])),
  );
}

afterAll(() => removeProject(root));

describe('NeedleworkJUnitReporter on a real Vitest run', () => {
  it('writes the file Vitest ran against, in a fixed shape', () => {
    expect(normalizeJUnit(xml, root)).toMatchSnapshot();
  });

  it('prints where it wrote the file', () => {
    expect(printed).toContain(`needlework: JUnit report written to ${join(root, 'needlework-junit.xml')}\n`);
  });

  it('is accepted by the ci schema (junit-10.xsd plus file, line and case properties)', async (ctx) => {
    if (!hasXmllint) ctx.skip(NO_XMLLINT);
    const result = validateJUnit(join(root, 'needlework-junit.xml'));
    expect(result.output).toContain('validates');
    expect(result.ok).toBe(true);
  });

  it('writes no skipped count on <testsuites>, which junit-10.xsd forbids', () => {
    expect(xml).toMatch(/<testsuites name="needlework" tests="8" failures="3" errors="0" time="[\d.]+">/);
  });

  it('in the junit-10 dialect, is accepted by the Jenkins xUnit schema', async (ctx) => {
    if (!hasXmllint) ctx.skip(NO_XMLLINT);
    const result = validateJUnit(join(root, 'junit-10.xml'), 'junit-10');
    expect(result.output).toContain('validates');
    expect(result.ok).toBe(true);
  });

  it('in the ci dialect, would be rejected by the xUnit schema for the file and line it adds', async (ctx) => {
    if (!hasXmllint) ctx.skip(NO_XMLLINT);
    const result = validateJUnit(join(root, 'needlework-junit.xml'), 'junit-10');
    expect(result.ok).toBe(false);
    expect(result.output).toContain(
      "Element 'testcase', attribute 'file': The attribute 'file' is not allowed.",
    );
  });

  it('gives every test case file and line; a YAML-spec case points at its criterion in the spec', () => {
    const cases = caseAttributes(xml);
    expect(cases).toHaveLength(8);
    for (const c of cases)
      expect(c).toMatchObject({ file: expect.any(String), line: expect.stringMatching(/^[1-9]\d*$/) });
    const at = (name: string, classname: string) =>
      cases.find((c) => c['name'] === name && c['classname'] === classname);
    // required_path is line 4 of the spec, thresholds.pivot_burden line 7; answer (surfaced) line 3.
    expect(at('traversed', 'compound-alpha.guessed')).toMatchObject({ file: SPEC_FILE, line: '4' });
    expect(at('pivot-burden', 'compound-alpha.guessed')).toMatchObject({ line: '7' });
    expect(at('surfaced', 'compound-alpha.grounded')).toMatchObject({ line: '3' });
    // A hand-written test points at its own line (line 9 of the generated file).
    expect(at('trip > books a refundable flight', 'flights.check.mjs')).toMatchObject({
      file: 'flights.check.mjs',
      line: '9',
    });
  });

  it('keeps hand-written matcher tests under their own names, with the check as case properties', () => {
    const flights = caseAttributes(xml).filter((c) => c['classname'] === 'flights.check.mjs');
    expect(flights.map((c) => c['name'])).toEqual([
      'trip > books a refundable flight',
      'trip > books the cheapest flight',
    ]);
    const refundable = xml.slice(xml.indexOf('name="trip > books a refundable flight"'));
    const props = refundable.slice(0, refundable.indexOf('</properties>'));
    expect(
      [...props.matchAll(/<property name="([^"]+)" value="([^"]*)"\/>/g)].map((m) => `${m[1]}=${m[2]}`),
    ).toEqual([
      'needlework.criterion=traversed',
      'needlework.spec=matcher',
      'needlework.spec_kind=matcher',
      'needlework.workup=trip',
      'needlework.workup_path=runs/trip',
      'needlework.metric=trajectory',
      'needlework.value=0.5',
      'needlework.threshold=0.8',
      'needlework.comparator=>=',
      'needlework.verdict=fail',
    ]);
  });

  it('in the junit-10 dialect, writes no file, line or case properties, and names the place in system-out', () => {
    for (const c of caseAttributes(xml10))
      expect(Object.keys(c).sort()).toEqual(['classname', 'name', 'time']);
    expect(xml10).not.toContain('needlework.criterion');
    expect(xml10).toContain('<system-out><![CDATA[at flights.check.mjs:9\n\nspec:');
    expect(xml10).toContain(`<system-out><![CDATA[at ${SPEC_FILE}:4`);
  });

  it('parses with an independent JUnit parser into a suite per spec x workup and per plain file', async () => {
    const parsed = await parse(xml);
    if (!parsed || !('testsuite' in parsed)) throw new Error('expected <testsuites>');
    const suites = parsed.testsuite ?? [];
    expect(suites.map((s) => [s.name, s.tests, s.failures, s.skipped])).toEqual([
      ['compound-alpha.grounded', 2, 0, 0],
      ['compound-alpha.guessed', 2, 1, 1],
      ['flights.check.mjs', 2, 1, 0],
      ['plain.check.mjs', 2, 1, 0],
    ]);
    const guessed = suites[1]?.testcase ?? [];
    expect(guessed.map((c) => [c.classname, c.name])).toEqual([
      ['compound-alpha.guessed', 'pivot-burden'],
      ['compound-alpha.guessed', 'traversed'],
    ]);
    expect(guessed[0]?.skipped).toBeDefined();
    expect(guessed[1]?.failure?.[0]).toMatchObject({
      message:
        'expected trajectory >= 0.8, got 0.25: ledger reached MEMBER_OF only; CO_LOCATED never queried',
      type: 'trajectory',
    });
    const plain = suites[3]?.testcase ?? [];
    expect(plain.map((c) => [c.classname, c.name])).toEqual([
      ['plain.check.mjs', 'loader > reads a ledger'],
      ['plain.check.mjs', 'loader > rejects a bad line'],
    ]);
    expect(plain[1]?.failure?.[0]).toMatchObject({ message: 'bad  line ]]> here', type: 'Error' });
  });

  it('writes every score, threshold and verdict as suite properties', async () => {
    const parsed = await parse(xml);
    if (!parsed || !('testsuite' in parsed)) throw new Error('expected <testsuites>');
    // junit2json reads numeric-looking values as numbers.
    const props = Object.fromEntries(
      (parsed.testsuite?.[0]?.properties ?? []).map((p) => [p.name, p.value] as const),
    );
    expect(props).toEqual({
      'needlework.spec': 'compound-alpha',
      'needlework.spec_kind': 'needle',
      'needlework.spec_file': SPEC_FILE,
      'needlework.workup': 'grounded',
      'needlework.workup_path': 'fixtures/workups/grounded',
      'surfaced.metric': 'recall',
      'surfaced.value': 1,
      'surfaced.threshold': 0.8,
      'surfaced.comparator': '>=',
      'surfaced.verdict': 'pass',
      'surfaced.score.cost': 0.0031,
      'surfaced.score.tokens': 812,
      'traversed.metric': 'trajectory',
      'traversed.value': 1,
      'traversed.threshold': 0.8,
      'traversed.comparator': '>=',
      'traversed.verdict': 'pass',
    });
  });

  it('strips colour codes from error text', () => {
    expect(xml).not.toContain('\u001b');
    expect(xml).toContain('expected 0.25 to be >= 0.8');
  });
});

describe('buildJUnitXml', () => {
  const hostile: CheckRecord = {
    name: 'surfaced',
    suitePath: ['s', 'w'],
    fullName: 's > w > surfaced',
    file: 'x.test.ts',
    state: 'failed',
    durationMs: 12.4,
    errors: [{ name: 'Error', message: 'nope', stack: 'Error: nope\u0000\u0007 ]]> <b>&amp;' }],
    meta: checkMeta({
      spec: 'spec\u0008<&>"',
      workup: 'w\uD800x',
      criterion: 'surfaced',
      value: 0.1,
      verdict: 'fail',
      summary: 'agent wrote \u001b[1m<script>alert(1)</script>\u001b[0m\uFFFF and \u{1F600}',
    }),
  };

  it('removes characters XML forbids and keeps valid astral characters', async () => {
    const out = await buildJUnitXml([hostile], { name: 'needlework' });
    expect(out).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\uFFFF]/);
    expect(out).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(out).toContain('\u{1F600}');
    const parsed = await parse(out);
    if (!parsed || !('testsuite' in parsed)) throw new Error('expected <testsuites>');
    const testCase = parsed.testsuite?.[0]?.testcase?.[0];
    expect(testCase?.classname).toBe('spec<&>".wx');
    expect(testCase?.failure?.[0]?.message).toBe(
      'expected recall >= 0.8, got 0.1: agent wrote <script>alert(1)</script> and \u{1F600}',
    );
    expect(testCase?.failure?.[0]?.inner).toBe('Error: nope ]]> <b>&amp;');
    expect(testCase?.time).toBe(0.012);
  });

  it('escapes the markup characters of attributes that hold nothing else unusual', async () => {
    const plain: CheckRecord = {
      ...hostile,
      meta: checkMeta({ spec: 'a"b&c<d>e', workup: 'w', criterion: 'c' }),
    };
    const out = await buildJUnitXml([plain], { name: 'needlework' });
    expect(out).toContain('classname="a&quot;b&amp;c&lt;d>e.w"');
    const parsed = await parse(out);
    if (!parsed || !('testsuite' in parsed)) throw new Error('expected <testsuites>');
    expect(parsed.testsuite?.[0]?.testcase?.[0]?.classname).toBe('a"b&c<d>e.w');
  });

  it('stays valid against the XSD with hostile text', async (ctx) => {
    if (!hasXmllint) ctx.skip(NO_XMLLINT);
    const file = join(root, 'hostile.xml');
    await writeFile(file, await buildJUnitXml([hostile], { name: 'needlework', timestamp: new Date(0) }));
    expect(validateJUnit(file).ok).toBe(true);
  });

  it('orders suites and cases in byte order whatever order the checks arrive in', async () => {
    const make = (spec: string, criterion: string): CheckRecord => ({
      name: criterion,
      suitePath: [],
      fullName: criterion,
      file: 'f.test.ts',
      state: 'passed',
      durationMs: 1,
      errors: [],
      meta: checkMeta({ spec, workup: 'w', criterion }),
    });
    const checks = [make('b', 'z'), make('B', 'y'), make('b', 'a'), make('a', 'Z')];
    const names = (out: string) =>
      [...out.matchAll(/<testcase classname="([^"]+)" name="([^"]+)"/g)].map((m) => `${m[1]}:${m[2]}`);
    expect(names(await buildJUnitXml(checks, { name: 'n' }))).toEqual(['B.w:y', 'a.w:Z', 'b.w:a', 'b.w:z']);
    expect(await buildJUnitXml([...checks].reverse(), { name: 'n' })).toBe(
      await buildJUnitXml(checks, { name: 'n' }),
    );
  });
  it('writes each regressed case x criterion of the gate as a failing test case, counted in the totals', async () => {
    const check: CheckRecord = {
      name: 'surfaced',
      suitePath: [],
      fullName: 'surfaced',
      file: 'f.test.ts',
      state: 'passed',
      durationMs: 1,
      errors: [],
      meta: checkMeta({ spec: 's', workup: 'w1', criterion: 'surfaced' }),
    };
    const regressed =
      'refunds/refund-late answer-contains: pass -> fail (one trial a side): expected "refund"';
    const gate: GateText = {
      headline: 'vs 2770e68 (main): 1 regressed, 1 fixed',
      baseline: 'run 20261126T100000Z-00000001 (2770e68) on main',
      regressed: true,
      rows: [
        {
          status: 'regressed',
          case: 'refunds/refund-late',
          criterion: 'answer-contains',
          before: 'pass',
          after: 'fail',
          line: regressed,
        },
        {
          status: 'fixed',
          case: 'refunds/refund-ok',
          criterion: 'answer-contains',
          before: 'fail',
          after: 'pass',
          line: 'refunds/refund-ok answer-contains: fail -> pass',
        },
      ],
      counts: '1 regressed, 1 fixed, 0 flaky, 0 moved, 0 still failing, 0 added, 0 removed, 0 unchanged',
      notes: ['one trial a side cannot tell a regression from chance'],
      criteria: [],
    };
    // Given still being computed, the file waits for it: its totals count the gate's failing cases.
    const xml = await buildJUnitXml([check], { name: 'n', gate: Promise.resolve(gate) });
    expect(xml).toContain('<testsuites name="n" tests="2" failures="1"');
    expect(xml).toContain('<testsuite name="needlework.regression-gate" tests="1" failures="1"');
    expect(xml).toContain(
      `<testcase classname="needlework.regression-gate.refunds/refund-late" name="answer-contains" time="0.000">\n      <failure message="regressed: ${regressed.replaceAll('"', '&quot;')}" type="regression"/>`,
    );
    expect(xml).toContain(`<property name="needlework.gate.headline" value="${gate.headline}"/>`);
    expect(xml).toContain(
      '<property name="needlework.gate.fixed.1" value="refunds/refund-ok answer-contains: fail -> pass"/>',
    );
    expect(xml).toContain(
      '<property name="needlework.gate.note.1" value="one trial a side cannot tell a regression from chance"/>',
    );
    // The gate suite is the file's last.
    expect(xml.indexOf('needlework.regression-gate')).toBeGreaterThan(xml.indexOf('<testsuite name="s.w1"'));
  });
});
