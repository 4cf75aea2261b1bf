import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectationText } from '../../src/checks/format.js';
import { UserError } from '../../src/errors/index.js';
import type { CasesSpec } from '../../src/model/spec.js';
import { parseSpec } from '../../src/specs/load.js';
import { checkFailure } from '../../src/vitest/check-failure.js';
import { loadWorkup } from '../../src/workup/load.js';
import { useTmpDir } from '../helpers/tmp.js';
import { scriptedJudge } from '../rubric/helpers.js';
import { cases, checksBy, oneCase, run } from './helpers.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const tmp = useTmpDir();

describe('task cases: tool_calls', () => {
  const spec = oneCase(
    'tool_calls:\n  match: unordered\n  args: exact\n  calls:\n    - { name: search, args: { city: Paris } }\n    - { name: book }',
  );

  it('passes when the calls match in any order', async () => {
    const c = await checksBy(spec, run([{ name: 'book' }, { name: 'search', args: { city: 'Paris' } }]));
    expect(c['tool-calls']).toMatchObject({ verdict: 'pass', spec: 'set', specKind: 'cases', case: 'c' });
    // What a reader lays over the steps: the match's own pairing, by call position; a pass leaves out the expected
    // calls, which are the run's at the pairs (`digest` names the run's calls, to notice that the workup changed).
    expect(c['tool-calls']!.evidence).toEqual({
      mode: 'unordered',
      args: 'exact',
      calls: 2,
      digest: expect.stringMatching(/^[0-9a-f]{8}$/),
      alignment: {
        pairs: [
          [1, 0],
          [0, 1],
        ],
      },
    });
  });

  it('with match superset and args superset, passes a run that calls more and gives more arguments', async () => {
    const wider = oneCase(
      'tool_calls:\n  match: superset\n  args: superset\n  calls:\n    - { name: search, args: { city: Paris } }',
    );
    const c = await checksBy(
      wider,
      run([{ name: 'login' }, { name: 'search', args: { city: 'Paris', n: 2 } }]),
    );
    expect(c['tool-calls']!.verdict).toBe('pass');
  });

  it('fails on a missing call, and says what was missing', async () => {
    const c = await checksBy(spec, run([{ name: 'search', args: { city: 'Rome' } }, { name: 'book' }]));
    expect(c['tool-calls']!.verdict).toBe('fail');
    expect(expectationText(c['tool-calls']!)).toBe(
      'trajectory_match_unordered = no: unordered match fails: missing search({"city":"Paris"}); extra search({"city":"Rome"})',
    );
    // The expected calls once, as calls, and the run's as text: the failure's diff reads both.
    expect(c['tool-calls']!.evidence).toMatchObject({
      reference: [
        { tool: 'search', args: { city: 'Paris' } },
        { tool: 'book', args: {} },
      ],
      actual: ['search({"city":"Rome"})', 'book({})'],
    });
    expect(c['tool-calls']!.evidence).not.toHaveProperty('expected');
    // Each side one text, a call a line, which Vitest diffs line by line.
    expect(checkFailure(c['tool-calls']!)).toMatchObject({
      expected: 'search({"city":"Paris"})\nbook({})',
      actual: 'search({"city":"Rome"})\nbook({})',
      showDiff: true,
    });
  });

  it('says which side args subset and superset constrain, as agentevals compares them in each match mode', async () => {
    const spec = (match: string, args: string) =>
      oneCase(
        `tool_calls:\n  match: ${match}\n  args: ${args}\n  calls:\n    - { name: search, args: { city: Paris, date: monday } }`,
      );
    const run1 = run([{ name: 'search', args: { city: 'Rome' } }]);
    const summary = async (match: string, args: string) =>
      (await checksBy(spec(match, args), run1))['tool-calls']!.summary;
    expect(await summary('superset', 'superset')).toBe(
      'superset match fails: missing search({"city":"Paris","date":"monday"}); arguments superset: each argument of the expected call is in the run\'s, with the same value (it may give more)',
    );
    expect(await summary('superset', 'subset')).toMatch(
      /; arguments subset: each argument the run gave is in the expected call, with the same value \(it may leave some out\)$/,
    );
    // A subset match compares the other way round.
    expect(await summary('subset', 'subset')).toMatch(
      /^subset match fails: extra search\(\{"city":"Rome"\}\); arguments subset: each argument of the expected call is in the run's/,
    );
    expect(await summary('unordered', 'superset')).toMatch(
      /; arguments superset: for a missing call, each argument of the expected call is in the run's, .*; for an extra call, each argument the run gave is in the expected call/,
    );
    expect(await summary('strict', 'exact')).not.toContain('arguments');
  });

  it('fails a run without a trajectory, naming what is missing', async () => {
    const c = await checksBy(spec, { id: 'c', ledger: [], meta: {} });
    expect(c['tool-calls']).toMatchObject({
      verdict: 'fail',
      value: null,
      summary: 'the workup has no trajectory: the run recorded no steps',
    });
    expect(expectationText(c['tool-calls']!)).toBe(
      'trajectory_match_unordered = nothing: the workup has no trajectory: the run recorded no steps',
    );
  });
});

describe('task cases: tools', () => {
  const spec = oneCase(
    'tools:\n  must_call: [search, { name: book, min: 2 }]\n  must_not_call: [cancel]\n  max_calls: { search: 1 }\n  order: [search, book]',
  );

  it('passes a run that keeps every rule, with other calls in between', async () => {
    const c = await checksBy(
      spec,
      run([{ name: 'search' }, { name: 'think' }, { name: 'book' }, { name: 'book' }]),
    );
    for (const id of ['must-call', 'must-not-call', 'max-calls', 'call-order'])
      expect(c[id]!.verdict).toBe('pass');
  });

  it('fails each rule it breaks, naming the tool and the counts', async () => {
    const c = await checksBy(
      spec,
      run([{ name: 'book' }, { name: 'cancel' }, { name: 'search' }, { name: 'search' }]),
    );
    expect(c['must-call']!.summary).toBe(
      'book called 1 time, at least 2 required; the run called book, cancel, search, search',
    );
    expect(c['must-not-call']!.summary).toBe(
      'cancel called 1 time; the run called book, cancel, search, search',
    );
    expect(c['max-calls']!.summary).toBe(
      'search called 2 times, at most 1 allowed; the run called book, cancel, search, search',
    );
    expect(c['call-order']!.summary).toBe(
      'book is never called after search at call 3 of 4; the run called book, cancel, search, search',
    );
    for (const id of ['must-call', 'must-not-call', 'max-calls', 'call-order'])
      expect(c[id]!.verdict).toBe('fail');
  });

  it('fails every rule on a run without a trajectory: its calls are not recorded', async () => {
    const c = await checksBy(spec, { id: 'c', ledger: [], meta: {} });
    for (const id of ['must-call', 'must-not-call', 'max-calls', 'call-order'])
      expect(c[id]).toMatchObject({
        verdict: 'fail',
        summary: 'the workup has no trajectory: the run recorded no steps',
      });
  });
});

describe('task cases: answer', () => {
  const spec = oneCase(
    [
      'answer:',
      '  equals: "Booked HX42."',
      '  contains: HX42',
      '  not_contains: [sorry]',
      '  regex: /\\bHX\\d{2}\\b/',
      '  one_of: ["Booked HX42.", "Booked HX43."]',
      '  exact_match: booked hx42',
      '  f1: { value: "booked flight HX42", min: 0.8 }',
    ].join('\n'),
  );

  it('passes every check on the right answer (HotpotQA normalization for exact match and F1)', async () => {
    const c = await checksBy(spec, run([], '  Booked HX42.  '));
    expect(Object.values(c).map((x) => `${x.criterion}: ${x.verdict}`)).toEqual([
      'answer-equals: pass',
      'answer-contains: pass',
      'answer-not-contains: pass',
      'answer-regex: pass',
      'answer-one-of: pass',
      'answer-exact-match: pass',
      'answer-f1: pass',
    ]);
    expect(c['answer-f1']!.value).toBe(0.8);
  });

  it('fails each on a wrong answer, quoting it', async () => {
    const c = await checksBy(spec, run([], 'Sorry, HX4 is full.'));
    // not_contains is case-sensitive: "Sorry" is not "sorry".
    expect(c['answer-not-contains']!.verdict).toBe('pass');
    expect(c['answer-contains']!.summary).toBe(
      'answer contains "HX42": no, missing "HX42" (case-sensitive); the answer is "Sorry, HX4 is full."',
    );
    expect(expectationText(c['answer-f1']!)).toBe(
      'expected answer_f1 >= 0.8, got 0: answer F1 against "booked flight HX42": no (0); the answer is "Sorry, HX4 is full."',
    );
    expect(c['answer-regex']!.verdict).toBe('fail');
  });

  it('fails every answer check of a run that recorded no answer, naming what is missing', async () => {
    const c = await checksBy(spec, run([], null));
    for (const id of [
      'answer-equals',
      'answer-contains',
      'answer-not-contains',
      'answer-regex',
      'answer-f1',
    ]) {
      expect(c[id]).toMatchObject({
        verdict: 'fail',
        value: null,
        summary: 'the run recorded no final answer',
        evidence: { missing: 'the run recorded no final answer' },
      });
    }
    expect(expectationText(c['answer-f1']!)).toBe(
      'expected answer_f1 >= 0.8, got nothing: the run recorded no final answer',
    );
    const none = await checksBy(spec, { id: 'c', ledger: [], meta: {} });
    expect(none['answer-contains']!.summary).toBe(
      'the workup has no trajectory: the run recorded no final answer',
    );
  });

  it('takes the last answer step when the trajectory has no final_answer', async () => {
    const w = run([], null);
    w.trajectory!.steps.push({
      ...w.trajectory!.steps[0]!,
      step_id: 1,
      step_type: 'answer',
      content: 'Booked HX42.',
    } as never);
    expect((await checksBy(spec, w))['answer-equals']!.verdict).toBe('pass');
  });
});

describe('task cases: steps', () => {
  const spec = oneCase(
    'steps:\n  step_f1: 1\n  redundancy: 0\n  max_steps: 3\n  max_tool_errors: 0\n  max_tokens: 100\n  max_cost_usd: 0.01\n  max_latency_ms: 500',
    '    gold: [{ name: search }, { name: book }]\n',
  );

  it('scores step F1 against the case gold and holds each budget', async () => {
    const w = run([{ name: 'search' }, { name: 'book' }], 'ok', { total_tokens: 80, total_latency_ms: 400 });
    w.meta.cost_usd = 0.004;
    const c = await checksBy(spec, w);
    expect(c['step-f1']).toMatchObject({ verdict: 'pass', value: 1 });
    expect(c['max-steps']).toMatchObject({ verdict: 'fail', value: 4, summary: 'steps: 4, at most 3' });
    expect(c['max-tokens']).toMatchObject({ verdict: 'pass', value: 80 });
    expect(c['max-cost']).toMatchObject({ verdict: 'pass', value: 0.004, unit: 'usd' });
    expect(c['max-latency']).toMatchObject({
      verdict: 'pass',
      value: 400,
      summary: 'latency: 400 ms, at most 500',
    });
  });

  it('fails a run that repeats and errs', async () => {
    const c = await checksBy(spec, run([{ name: 'search' }, { name: 'search', error: 'timeout' }]));
    expect(c['step-f1']!.verdict).toBe('fail');
    expect(c.redundancy).toMatchObject({ verdict: 'fail', value: 0.5 });
    expect(c['max-tool-errors']).toMatchObject({ verdict: 'fail', summary: 'tool errors: 1, at most 0' });
  });

  it('never passes a budget the workup does not record: it is not measured, and says so', async () => {
    const c = await checksBy(spec, run([{ name: 'search' }]));
    expect(c['max-tokens']).toMatchObject({
      verdict: 'not-applicable',
      summary: 'the workup records no token counts',
    });
    expect(c['max-cost']).toMatchObject({
      verdict: 'not-applicable',
      summary: 'the workup records no cost (meta.json cost_usd)',
    });
    expect(c['max-latency']!.verdict).toBe('not-applicable');
  });

  it('fails the step budgets and scores of a run without a trajectory; a missing reference is not applicable', async () => {
    const c = await checksBy(spec, { id: 'c', ledger: [], meta: { cost_usd: 0.001 } });
    const missing = 'the workup has no trajectory: the run recorded no steps';
    expect(c['max-steps']).toMatchObject({ verdict: 'fail', value: null, threshold: 3, summary: missing });
    expect(c['max-tool-errors']).toMatchObject({ verdict: 'fail', summary: missing });
    expect(c['step-f1']).toMatchObject({ verdict: 'fail', summary: missing });
    expect(c.redundancy).toMatchObject({ verdict: 'fail', summary: missing });
    // A figure many formats do not record is not measured; one the run records is checked.
    expect(c['max-tokens']!.verdict).toBe('not-applicable');
    expect(c['max-cost']).toMatchObject({ verdict: 'pass', value: 0.001 });
    const noGold = oneCase('steps:\n  step_f1: 1');
    expect((await checksBy(noGold, run([{ name: 'search' }])))['step-f1']).toMatchObject({
      verdict: 'not-applicable',
      summary: 'no reference given and the workup has no gold trajectory',
    });
  });
});

describe('task cases: grounded', () => {
  const spec = cases(
    'id: set\ncases:\n  - id: c\n    workups: [grounded, uncited, dangling]\n    expect:\n      grounded: { citations_resolve: true, max_uncited: 0, citation_recall: 1, citation_precision: 0.5 }\n',
  );

  it('checks the citations of any note: pass on the grounded run, fail on uncited and dangling ones', async () => {
    const grounded = await checksBy(spec, await loadWorkup(`${ROOT}fixtures/workups/grounded`));
    expect(grounded['citations-resolve']!.verdict).toBe('pass');
    expect(grounded['max-uncited']!.verdict).toBe('pass');
    expect(grounded['citation-recall']!.verdict).toBe('pass');
    const uncited = await checksBy(spec, await loadWorkup(`${ROOT}fixtures/workups/uncited`));
    expect(uncited['max-uncited']).toMatchObject({
      verdict: 'fail',
      summary: '2 uncited claim sentences, at most 0 allowed',
    });
    const dangling = await checksBy(spec, await loadWorkup(`${ROOT}fixtures/workups/dangling`));
    expect(dangling['citations-resolve']).toMatchObject({
      verdict: 'fail',
      summary: '1 dangling: g99 at line 13:61',
    });
  });

  it('fails every citation check of a run that wrote no note, naming it', async () => {
    const c = await checksBy(spec, { id: 'grounded', ledger: [], meta: {} });
    for (const id of ['citations-resolve', 'max-uncited', 'citation-recall', 'citation-precision']) {
      expect(c[id]).toMatchObject({ verdict: 'fail', summary: 'the workup has no note: the run wrote none' });
    }
    expect(c['max-uncited']).toMatchObject({ threshold: 0, comparator: '<=' });
  });

  it('citation precision is not measured without an NLI model', async () => {
    const c = await checksBy(spec, await loadWorkup(`${ROOT}fixtures/workups/grounded`));
    expect(c['citation-precision']!.verdict).toBe('not-applicable');
    expect(c['citation-precision']!.summary).toMatch(/^not measured: citation precision needs an NLI model/);
  });
});

describe('task cases: judge', () => {
  const spec = oneCase(
    [
      'judge:',
      '  system: You are an impartial assessor of airline support replies.',
      '  criteria:',
      '    - id: polite',
      '      title: Politeness',
      '      question: Is the reply polite?',
      '      anchors: { 1: rude, 2: curt, 3: plain, 4: kind, 5: warm }',
      '      threshold: 4',
    ].join('\n'),
  );
  const w = { ...run([], 'Booked.'), note: undefined };

  it('scores each criterion with the rubric’s own system text, and fails below its mark', async () => {
    const { workup } = await import('../rubric/helpers.js');
    const judge = scriptedJudge({ polite: [3] });
    const c = await checksBy(spec, { ...workup(), id: 'c' }, { judge: { judge, samples: 1 } });
    expect(c['judge-polite']).toMatchObject({ verdict: 'fail', value: 3, specKind: 'cases', case: 'c' });
    expect(judge.requests[0]!.messages[0]!.content).toMatch(
      /^You are an impartial assessor of airline support replies\.\nJudge only the criterion/,
    );
  });

  it("reads a rubric file that many cases name (a default judge) once; a missing one is the file's problem, at the line naming it", async () => {
    const dir = await tmp();
    await copyFile(join(ROOT, 'needles/icd-203.rubric.yaml'), join(dir, 'tradecraft.rubric.yaml'));
    const file = join(dir, 'x.cases.yaml');
    const text = (rubric: string) =>
      `id: set\ndefaults:\n  judge: ${rubric}\ncases:\n  - id: a\n  - id: b\n  - id: c\n    expect: { steps: { max_steps: 3 } }\n`;
    const loaded = parseSpec(text('tradecraft.rubric.yaml'), file) as CasesSpec;
    const [a, b, c] = loaded.cases.map((one) => one.expect.judge);
    expect(a?.id).toBe('icd-203');
    expect(b).toBe(a);
    expect(c).toBe(a);
    expect(() => parseSpec(text('gone.rubric.yaml'), file)).toThrow(
      new UserError({
        file,
        line: 3,
        column: 10,
        message: `defaults.judge: gone.rubric.yaml is no such file (looked for ${join(dir, 'gone.rubric.yaml')})`,
      }),
    );
  });

  it('is not measured without a judge', async () => {
    const c = await checksBy(spec, w);
    expect(c['judge-polite']).toMatchObject({ verdict: 'not-applicable' });
    expect(c['judge-polite']!.summary).toMatch(/^not measured: no judge configured/);
  });
});

describe('task cases: the bundled examples', () => {
  it.each([
    ['support', 'change-flight-good', []],
    [
      'support',
      'change-flight-bad',
      ['tool-calls', 'must-not-call', 'call-order', 'answer-contains', 'answer-regex', 'step-recall'],
    ],
    ['coding', 'fix-pagination-good', []],
    [
      'coding',
      'fix-pagination-bad',
      ['must-call', 'call-order', 'answer-contains', 'answer-not-contains', 'max-tool-errors'],
    ],
  ])('%s/%s fails exactly %j', async (set, run, fails) => {
    const { loadSpec } = await import('../../src/specs/load.js');
    const spec = await loadSpec(`${ROOT}examples/${set}/${set}.cases.yaml`);
    const workup = await loadWorkup(`${ROOT}examples/${set}/runs/${run}`);
    const checks = await checksBy(spec as never, workup);
    expect(
      Object.values(checks)
        .filter((c) => c.verdict === 'fail')
        .map((c) => c.criterion),
    ).toEqual(fails);
    expect(Object.values(checks).some((c) => c.verdict === 'not-applicable')).toBe(false);
  });
});
