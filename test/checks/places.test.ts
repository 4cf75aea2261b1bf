import { describe, expect, it } from 'vitest';
import { checkWorkup } from '../../src/checks/check-workup.js';
import { type PlanItem, planChecks } from '../../src/checks/plan.js';
import type { Check } from '../../src/model/check.js';
import type { Workup } from '../../src/model/workup.js';
import { patternRegExp } from '../../src/specs/applies.js';
import { parseSpec } from '../../src/specs/load.js';
import { cases, run } from './helpers.js';

// Two cases over one run, a default budget, and an inline judge: each check must point at its own assertion's key.
const FILE = `id: set
defaults:
  steps:
    max_tool_errors: 0
cases:
  - id: first
    workups: [run]
    expect:
      tools:
        must_call: [search]
        order: [search, book]
      answer:
        contains: [Paris]
  - id: second
    workups: [run]
    expect:
      tool_calls:
        calls: [{ name: search }]
      steps:
        max_steps: 9
      judge:
        criteria:
          - id: polite
            title: Polite
            question: Is it polite?
            anchors: { 1: a, 2: b, 3: c, 4: d, 5: e }
`;

const runOfBoth: Workup = { ...run([{ name: 'search' }, { name: 'book' }], 'Paris'), id: 'run' };

function where(checks: readonly Check[]): string[] {
  return checks.map(
    (c) =>
      `${c.case} ${c.criterion} @${c.place?.line}:${c.place?.column} case@${c.casePlace?.line}:${c.casePlace?.column}`,
  );
}

describe('a check knows its place from the moment its spec loads', () => {
  const expected = [
    'first must-call @10:9 case@6:5',
    'first call-order @11:9 case@6:5',
    'first answer-contains @13:9 case@6:5',
    'first max-tool-errors @4:5 case@6:5',
    'second tool-calls @17:7 case@14:5',
    'second max-steps @20:9 case@14:5',
    'second max-tool-errors @4:5 case@14:5',
    'second judge-polite @23:13 case@14:5',
  ];

  it('places every case check at its assertion key (light path), defaults where the default is written', async () => {
    expect(where(await checkWorkup(runOfBoth, [cases(FILE)]))).toEqual(expected);
  });

  it('places them the same when the file is read by the yaml Document (an anchor sends it there)', async () => {
    const anchored = FILE.replace('  - id: first\n', '  - id: first\n    input: &n x\n').replace(
      '  - id: second\n',
      '  - id: second\n    input: *n\n',
    );
    // One line was added below each case's id, so the places below it move down by one, then by two.
    const shifted = expected.map((line) =>
      line.replace(/@(\d+):(\d+)/g, (_, l: string, c: string) => {
        const n = Number(l);
        return `@${n + (n > 14 ? 2 : n > 6 ? 1 : 0)}:${c}`;
      }),
    );
    expect(where(await checkWorkup(runOfBoth, [cases(anchored)]))).toEqual(shifted);
  });

  it('places a needle criterion at the key it checks, falling back to the needle id', async () => {
    const needle = parseSpec(
      'id: n\nanswer: Wren\nrequired_path: [A]\nthresholds:\n  citation_recall: 0.5\n',
      'x.needle.yaml',
    );
    const workup: Workup = { id: 'w', ledger: [], meta: {} };
    const checks = await checkWorkup(workup, [needle]);
    const at = Object.fromEntries(checks.map((c) => [c.criterion, `${c.place?.line}:${c.place?.column}`]));
    expect(at).toMatchObject({
      surfaced: '2:1',
      traversed: '3:1',
      'citation-recall': '5:3',
      'citation-precision': '1:1',
    });
  });

  it('places a rubric criterion at its id under criteria', async () => {
    const rubric = parseSpec(
      'id: r\ncriteria:\n  - id: a\n    title: A\n    question: q\n    anchors: { 1: a, 2: b, 3: c, 4: d, 5: e }\n  - id: b\n    title: B\n    question: q\n    anchors: { 1: a, 2: b, 3: c, 4: d, 5: e }\n',
      'x.rubric.yaml',
    );
    const workup: Workup = { id: 'w', ledger: [], meta: {} };
    const checks = await checkWorkup(workup, [rubric]);
    expect(checks.map((c) => [c.criterion, c.place])).toEqual([
      ['a', { line: 3, column: 5 }],
      ['b', { line: 7, column: 5 }],
    ]);
  });
});

describe('the plan: which criteria apply to which workups', () => {
  it('maps 5,000 cases to their runs in one pass, each case its runs, in file order', () => {
    const n = 5000;
    const yaml = `id: big\ncases:\n${Array.from({ length: n }, (_, i) => `  - id: c${i}\n    expect:\n      answer:\n        equals: x\n`).join('')}`;
    const spec = cases(yaml);
    const workups: Workup[] = Array.from({ length: n * 2 }, (_, i) => ({
      id: `r${i}`,
      ledger: [],
      // Two trials per case, given in reverse order.
      meta: { task: `c${n - 1 - (i % n)}`, trial: i < n ? 1 : 2 },
    }));
    const plan = planChecks([spec], workups);
    expect(plan).toHaveLength(n);
    expect(plan.map((p) => p.case?.id).slice(0, 2)).toEqual(['c0', 'c1']);
    expect(plan[0]!.workups.map((w) => w.id)).toEqual([`r${n - 1}`, `r${2 * n - 1}`]);
    expect(plan.every((p) => p.workups.length === 2 && p.criteria.length === 1)).toBe(true);
  });

  it('gives a case with no run an item with no criteria, so the suite can say it has no run', () => {
    const plan = planChecks(
      [cases('id: s\ncases:\n  - id: lonely\n    expect: { answer: { equals: x } }\n')],
      [],
    );
    expect(plan).toMatchObject([{ case: { id: 'lonely' }, criteria: [], workups: [] }]);
  });

  // A workup found by three routes (its id in a case's patterns, a wildcard, its meta.json task), each case found in
  // another order than the file's, among cases it is no run of.
  const ROUTES = `id: routes
cases:
  - id: before
    expect: { answer: { equals: x } }
  - id: by-task
    expect: { answer: { equals: x } }
  - id: by-wildcard
    workups: ["r*"]
    expect: { answer: { equals: x } }
  - id: between
    expect: { answer: { equals: x } }
  - id: by-id
    workups: [run]
    expect: { answer: { equals: x } }
  - id: after
    workups: [other]
    expect: { answer: { equals: x } }
`;
  const routed: Workup = { id: 'run', ledger: [], meta: { task: 'by-task' } };

  it('plans one workup without an item for every case (as checkWorkup does): its cases only, in file order', () => {
    const spec = cases(ROUTES);
    const one = planChecks([spec], [routed], {}, false);
    expect(one.map((p) => p.case?.id)).toEqual(['by-task', 'by-wildcard', 'by-id']);
    // The same items as the whole plan's, which also lists the cases the workup is no run of.
    const every = planChecks([spec], [routed]);
    expect(every.map((p) => p.case?.id)).toEqual([
      'before',
      'by-task',
      'by-wildcard',
      'between',
      'by-id',
      'after',
    ]);
    const shown = (plan: PlanItem[]) =>
      plan.map((p) => `${p.case?.id}: ${p.criteria.map((c) => c.id)} on ${p.workups.map((w) => w.id)}`);
    expect(shown(one)).toEqual(shown(every.filter((p) => p.workups.length > 0)));
    expect(shown(one)).toEqual([
      'by-task: answer-equals on run',
      'by-wildcard: answer-equals on run',
      'by-id: answer-equals on run',
    ]);
  });

  it('finds the same runs through its index as testing every pattern of every case against every workup', () => {
    // Seeded: patterns and ids over a small alphabet, so that prefixes, stars anywhere and empty ids all meet.
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const word = (alphabet: string, most: number) =>
      Array.from(
        { length: Math.floor(random() * (most + 1)) },
        () => alphabet[Math.floor(random() * alphabet.length)],
      ).join('');
    const patterns = () => Array.from({ length: 1 + Math.floor(random() * 2) }, () => word('ab-*', 4) || '*');
    const yaml = `id: index\ncases:\n${Array.from(
      { length: 300 },
      (_, i) =>
        `  - id: c${i}\n    workups: ${JSON.stringify(patterns())}\n    expect: { answer: { equals: x } }\n`,
    ).join('')}`;
    const spec = cases(yaml);
    const workups: Workup[] = Array.from({ length: 300 }, (_, i) => ({
      id: word('ab-', 5) || `w${i}`,
      ledger: [],
      meta: random() < 0.2 ? { task: `c${Math.floor(random() * 300)}` } : {},
    }));
    const takes = (pattern: string, id: string) =>
      pattern.includes('*') ? patternRegExp(pattern).test(id) : pattern === id;
    const expected = spec.cases.map((c) =>
      workups.filter((w) => c.workups.some((p) => takes(p, w.id)) || w.meta.task === c.id).map((w) => w.id),
    );
    expect(planChecks([spec], workups).map((p) => p.workups.map((w) => w.id))).toEqual(expected);
    expect(expected.flat().length).toBeGreaterThan(300);
  });

  it('checks a run of several cases case by case, in file order', async () => {
    const checks = await checkWorkup({ ...routed, trajectory: run([], 'x').trajectory }, [cases(ROUTES)]);
    expect(checks.map((c) => `${c.case} ${c.verdict}`)).toEqual([
      'by-task pass',
      'by-wildcard pass',
      'by-id pass',
    ]);
  });
});
