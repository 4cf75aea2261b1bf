import { describe, expect, it } from 'vitest';
import { checkWorkup } from '../../src/checks/check-workup.js';
import { trajectoryMatch } from '../../src/checks/trajectory.js';
import type { MatchTrajectoryOptions } from '../../src/metrics/trajectory/match.js';
import type { Check } from '../../src/model/check.js';
import { loadSpec } from '../../src/specs/load.js';
import { longestIncreasing, STEP_TEXT_LIMIT, workupAnswer } from '../../src/ui/workup-data.js';
import { loadWorkup } from '../../src/workup/load.js';
import { type CallSpec, checksBy, oneCase, run, wholeForm } from '../checks/helpers.js';

const ROOT = new URL('../../', import.meta.url).pathname;

describe('workupAnswer: the expected tool calls laid over the steps', () => {
  it("marks each call as the check's own match paired it: matched, out of order, missing, extra", async () => {
    const spec = oneCase(
      'tool_calls:\n  match: unordered\n  args: exact\n  calls:\n    - { name: search, args: { city: Paris } }\n    - { name: book }\n    - { name: pay }',
    );
    // The run books before it searches, never pays, and logs in first.
    const workup = run([{ name: 'login' }, { name: 'book' }, { name: 'search', args: { city: 'Paris' } }]);
    const check = (await checksBy(spec, workup))['tool-calls']!;
    expect(check.verdict).toBe('fail');
    const answer = workupAnswer(workup, [check], { run: 'r1' });
    const [expected] = answer.expected;
    expect(expected).toMatchObject({ spec: 'set', case: 'c', criterion: 'tool-calls', mode: 'unordered' });
    // Steps: 0 login, 1 its observation, 2 book, 3, 4 search, 5.
    expect(expected!.calls).toEqual([
      { tool: 'search', args: '{"city":"Paris"}', status: 'matched', step: 4 },
      { tool: 'book', args: '{}', status: 'out-of-order', step: 2 },
      { tool: 'pay', args: '{}', status: 'missing', after: 5 },
    ]);
    expect(expected!.counts).toEqual({ matched: 1, outOfOrder: 1, missing: 1, extra: 1 });
    expect(answer.steps.map((s) => s.marks ?? [])).toEqual([
      [{ expected: 0, status: 'extra' }],
      [],
      [{ expected: 0, status: 'out-of-order', call: 1 }],
      [],
      [{ expected: 0, status: 'matched', call: 0 }],
      [],
    ]);
    expect(answer.steps[0]).toMatchObject({ type: 'tool_call', tool: 'login', args: '{}', call: 0 });
    expect(answer.steps[1]).toMatchObject({ type: 'observation', tool: 'login', output: 'ok' });
  });

  it('tells extra calls a superset match allows from those a strict match counts', async () => {
    const superset = oneCase(
      'tool_calls:\n  match: superset\n  args: ignore\n  calls:\n    - { name: search }',
    );
    const workup = run([{ name: 'login' }, { name: 'search' }]);
    const answer = workupAnswer(workup, [(await checksBy(superset, workup))['tool-calls']!], { run: 'r' });
    expect(answer.steps[0]!.marks).toEqual([{ expected: 0, status: 'extra-allowed' }]);
    expect(answer.expected[0]!.counts).toEqual({ matched: 1, outOfOrder: 0, missing: 0, extra: 0 });
    const strict = oneCase('tool_calls:\n  match: strict\n  args: ignore\n  calls:\n    - { name: search }');
    const failed = workupAnswer(workup, [(await checksBy(strict, workup))['tool-calls']!], { run: 'r' });
    expect(failed.steps.flatMap((s) => s.marks ?? []).map((m) => m.status)).toEqual(['extra', 'extra']);
    expect(failed.expected[0]!.calls[0]).toMatchObject({ status: 'missing', after: -1 });
  });

  it('says the workup changed when its checks paired calls its trajectory does not have', async () => {
    const spec = oneCase(
      'tool_calls:\n  match: strict\n  args: ignore\n  calls:\n    - { name: a }\n    - { name: b }',
    );
    const check = (await checksBy(spec, run([{ name: 'a' }, { name: 'b' }])))['tool-calls']!;
    const now = run([{ name: 'a' }]);
    const answer = workupAnswer(now, [check], { run: 'r', path: 'runs/c' });
    expect(answer.problem).toEqual({
      kind: 'changed',
      message:
        "the workup's trajectory is not the one its checks matched (they name tool calls it does not have): runs/c changed since the run",
    });
    expect(answer.steps.every((s) => s.marks === undefined)).toBe(true);
  });

  it('reads evidence as untrusted data: a malformed alignment marks nothing', () => {
    const check: Check = {
      schema: 1,
      spec: 's',
      specKind: 'cases',
      workup: 'c',
      criterion: 'tool-calls',
      metric: 'trajectory_match_strict',
      value: false,
      verdict: 'fail',
      evidence: {
        reference: [{ tool: 'a', args: {} }],
        alignment: { pairs: [['0', 0]], missing: 'x', extra: [] },
      },
    };
    const answer = workupAnswer(run([{ name: 'a' }]), [check], { run: 'r' });
    expect(answer.problem?.kind).toBe('changed');
    expect(answer.expected[0]!.calls).toEqual([{ tool: 'a', args: '{}', status: 'unaligned' }]);
  });
});

describe("workupAnswer: a passing check's slim evidence, completed from the workup's calls", () => {
  /** The view of one tool-calls check of `calls` against `expected`, from its evidence and from the whole form. */
  function views(calls: CallSpec[], expected: CallSpec[], options: MatchTrajectoryOptions = {}) {
    const workup = run(calls);
    const reference = run(expected);
    const { measured } = trajectoryMatch(workup, reference.trajectory, options);
    const check = { spec: 's', ...measured };
    // The whole form as a store row holds it (JSON text), as every check before the slim form wrote it.
    const whole = JSON.parse(
      JSON.stringify({
        ...wholeForm(workup, reference, options),
        ...(measured.verdict === 'fail' && { actual: measured.evidence!['actual'] }),
      }),
    );
    return {
      evidence: measured.evidence!,
      verdict: measured.verdict,
      slim: workupAnswer(workup, [check], { run: 'r' }),
      whole: workupAnswer(workup, [{ ...check, evidence: whole }], { run: 'r' }),
    };
  }

  it('shows from either form the same expected calls, marks and counts', () => {
    const abc = [{ name: 'a', args: { x: 1 } }, { name: 'b' }, { name: 'c', args: { y: [2, 3] } }];
    const kinds = {
      'strict pass': views(abc, abc),
      'unordered pass, out of order': views([abc[2]!, abc[0]!, abc[1]!], abc, { mode: 'unordered' }),
      'superset arguments': views(
        [{ name: 'a', args: { x: 1, more: true } }],
        [{ name: 'a', args: { x: 1 } }],
        {
          toolArgs: 'superset',
        },
      ),
      'subset arguments, alike': views([abc[0]!], [abc[0]!], { toolArgs: 'subset' }),
      'superset match, an extra call allowed': views([{ name: 'login' }, ...abc], abc, { mode: 'superset' }),
      'subset match, an expected call left out': views([abc[0]!], abc, { mode: 'subset' }),
      'key order': views([{ name: 'a', args: { x: 1, y: 2 } }], [{ name: 'a', args: { y: 2, x: 1 } }]),
      failing: views([abc[1]!, abc[0]!], abc),
    };
    for (const [kind, v] of Object.entries(kinds)) {
      expect(v.slim, kind).toEqual(v.whole);
      expect(v.slim.problem, kind).toBeUndefined();
      expect(v.slim.expected[0]!.calls.length, kind).toBeGreaterThan(0);
      // A pass is slim (its mark: the count of calls), a failure whole.
      expect('calls' in v.evidence, kind).toBe(v.verdict === 'pass');
      expect('reference' in v.evidence, kind).toBe(
        ['superset arguments', 'subset match, an expected call left out', 'key order', 'failing'].includes(
          kind,
        ),
      );
    }
    expect(kinds['strict pass'].slim.expected[0]!.calls).toEqual([
      { tool: 'a', args: '{"x":1}', status: 'matched', step: 0 },
      { tool: 'b', args: '{}', status: 'matched', step: 2 },
      { tool: 'c', args: '{"y":[2,3]}', status: 'matched', step: 4 },
    ]);
    expect(kinds['unordered pass, out of order'].slim.expected[0]!.counts).toEqual({
      matched: 2,
      outOfOrder: 1,
      missing: 0,
      extra: 0,
    });
    expect(kinds['superset arguments'].slim.expected[0]!.calls[0]!.args).toBe('{"x":1}');
    expect(kinds['key order'].slim.expected[0]!.calls[0]!.args).toBe('{"y":2,"x":1}');
    expect(kinds['superset match, an extra call allowed'].slim.steps[0]!.marks).toEqual([
      { expected: 0, status: 'extra-allowed' },
    ]);
    expect(
      kinds['subset match, an expected call left out'].slim.expected[0]!.calls.map((c) => c.status),
    ).toEqual(['matched', 'missing-allowed', 'missing-allowed']);
  });

  it('says the workup changed when its calls are not the ones a pass was checked on, though as many', () => {
    const calls = [{ name: 'a', args: { x: 1 } }, { name: 'b' }];
    const { measured } = trajectoryMatch(run(calls), run(calls).trajectory);
    const check = { spec: 's', ...measured };
    const changed =
      "the workup's trajectory is not the one its checks matched (they name tool calls it does not have): runs/c changed since the run";
    for (const now of [[{ name: 'a', args: { x: 2 } }, { name: 'b' }], [{ name: 'a', args: { x: 1 } }]]) {
      const answer = workupAnswer(run(now), [check], { run: 'r', path: 'runs/c' });
      expect(answer.problem).toEqual({ kind: 'changed', message: changed });
      // The expected calls were the run's: none to show, none marked.
      expect(answer.expected[0]!.calls).toEqual([]);
      expect(answer.steps.every((s) => s.marks === undefined)).toBe(true);
    }
  });
});

describe('workupAnswer: the note, the ledger and the required path', () => {
  it('resolves each citation to its ledger entry, marks dangling and failed ones, and counts citations per entry', async () => {
    const workup = await loadWorkup(`${ROOT}fixtures/workups/dangling`);
    const answer = workupAnswer(workup, [], { run: 'r', path: 'fixtures/workups/dangling' });
    const citations = answer.note!.sections.flatMap((s) =>
      s.segments.flatMap((g) => g.sentences.flatMap((t) => t.citations)),
    );
    const g99 = citations.find((c) => c.id === 'g99')!;
    expect(g99).toEqual({ id: 'g99', status: 'dangling' });
    const g1 = citations.find((c) => c.id === 'g1')!;
    expect(answer.ledger[g1.entry!]).toMatchObject({
      id: 'g1',
      store: 'graph',
      query: 'neighbors("Halberd")',
    });
    expect(answer.ledger[g1.entry!]!.results[0]).toEqual({
      subject: 'Halberd',
      relation: 'MEMBER_OF',
      object: 'Ash Cell',
    });
    expect(answer.ledger.find((e) => e.id === 'g1')!.cited).toBe(
      citations.filter((c) => c.id === 'g1').length,
    );
    expect(answer.ledger.find((e) => e.id === 'g3')).toMatchObject({
      error: 'timeout after 5000 ms',
      resultCount: 0,
    });
    expect(answer.note!.counts.dangling).toBe(1);
  });

  it("lays a needle's required path over the ledger: each hop on the entry that returned it", async () => {
    const workup = await loadWorkup(`${ROOT}fixtures/workups/grounded`);
    const needle = await loadSpec(`${ROOT}needles/compound-alpha.needle.yaml`);
    const checks = await checkWorkup(workup, [needle]);
    const traversed = checks.find((c) => c.criterion === 'traversed')!;
    expect(traversed.verdict).toBe('pass');
    const answer = workupAnswer(workup, checks, { run: 'r' });
    const [path] = answer.paths;
    expect(path!.hops.map((h) => h.status)).toEqual(path!.required.map(() => 'traversed'));
    for (const [k, hop] of path!.hops.entries()) {
      expect(answer.ledger[hop.entry!]!.id).toBe(hop.ledgerId);
      expect(answer.ledger[hop.entry!]!.hops).toContainEqual({ path: 0, hop: k });
    }
    expect(answer.checks.map((c) => c.criterion)).toEqual(checks.map((c) => c.criterion));
  });
});

describe('workupAnswer: what it cannot show', () => {
  it('without a workup, keeps the checks and the problem', () => {
    const answer = workupAnswer(
      undefined,
      [
        {
          spec: 's',
          criterion: 'x',
          metric: 'm',
          value: 0.5,
          verdict: 'fail',
          workup: 'w-1',
          task: 't',
          reason: 'low',
        },
      ],
      {
        run: 'r',
        path: 'runs/w-1',
        problem: { kind: 'gone', message: 'the workup file runs/w-1 is no longer there' },
      },
    );
    expect(answer).toEqual({
      run: 'r',
      workup: 'w-1',
      path: 'runs/w-1',
      task: 't',
      problem: { kind: 'gone', message: 'the workup file runs/w-1 is no longer there' },
      checks: [{ spec: 's', criterion: 'x', metric: 'm', value: 0.5, verdict: 'fail', reason: 'low' }],
      steps: [],
      ledger: [],
      expected: [],
      paths: [],
    });
  });

  it('cuts a step text longer than the limit and says how long it was', () => {
    const workup = run([{ name: 'read' }]);
    workup.trajectory!.steps[1]!.tool_output = 'x'.repeat(STEP_TEXT_LIMIT + 5);
    const answer = workupAnswer(workup, [], { run: 'r' });
    expect(answer.steps[1]!.output).toHaveLength(STEP_TEXT_LIMIT);
    expect(answer.steps[1]!.cut).toEqual({ output: STEP_TEXT_LIMIT + 5 });
  });
});

describe('longestIncreasing', () => {
  it('keeps one longest strictly increasing run of the values, by index', () => {
    expect([...longestIncreasing([0, 1, 2])].sort()).toEqual([0, 1, 2]);
    expect([...longestIncreasing([1, 0])]).toHaveLength(1);
    expect([...longestIncreasing([3, 0, 1, 2])].sort()).toEqual([1, 2, 3]);
    expect([...longestIncreasing([])]).toEqual([]);
  });
});
