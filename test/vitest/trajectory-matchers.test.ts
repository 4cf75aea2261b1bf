import { stripVTControlCharacters } from 'node:util';
import { processError } from '@vitest/utils/error';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeStep, makeTrajectory, type Trajectory, toolCallTrajectory } from '../../src/model/trajectory.js';
import type { Workup } from '../../src/model/workup.js';
import { failure, fixture } from './helpers.js';

let grounded: Workup;
let guessed: Workup;

beforeAll(async () => {
  grounded = (await fixture('grounded')) as Workup;
  guessed = (await fixture('guessed')) as Workup;
});

function calls(...tools: Array<[string, Record<string, unknown>]>): Trajectory {
  return makeTrajectory({
    task_id: 'ref',
    steps: tools.map(([tool_name, tool_input], i) =>
      makeStep({ step_id: i + 1, step_type: 'tool_call', tool_name, tool_input }),
    ),
  });
}

describe('toMatchTrajectory', () => {
  it('uses the gold trajectory by default, and lists missing and extra calls', () => {
    expect(grounded).toMatchTrajectory(undefined, { mode: 'superset' });
    expect(grounded).not.toMatchTrajectory();
    expect(failure(() => expect(grounded).toMatchTrajectory())).toBe(
      [
        'expect(workup).toMatchTrajectory(reference)',
        '',
        'Expected the trajectory to match the reference (strict, arguments exact).',
        'Missing calls:',
        '  - graph.neighbors({"entity":"Ash Cell"})',
        '  - graph.neighbors({"entity":"Compound-Alpha"})',
        '  - graph.neighbors({"entity":"Wren"})',
        'Extra calls:',
        '  + graph.neighbors({"entity":"Depot-Seven"})',
        '  + graph.neighbors({"entity":"Ash Cell"})',
        '  + graph.neighbors({"entity":"Ash Cell"})',
        '  + graph.neighbors({"entity":"Compound-Alpha"})',
        '  + docs.search({"query":"Compound-Alpha"})',
        '  + graph.neighbors({"entity":"Wren"})',
      ].join('\n'),
    );
  });

  it("gives Vitest the expected calls and the run's, a call a line, to diff", () => {
    const ref = calls(['graph.neighbors', { entity: 'Halberd' }], ['docs.search', { query: 'x' }]);
    let error: (Error & { expected?: unknown; actual?: unknown }) | undefined;
    try {
      expect(grounded).toMatchTrajectory(ref, { mode: 'superset' });
    } catch (thrown) {
      error = thrown as Error & { expected?: unknown; actual?: unknown };
    }
    expect(error).toMatchObject({
      expected: 'graph.neighbors({"entity":"Halberd"})\ndocs.search({"query":"x"})',
      actual: expect.stringMatching(/^graph\.neighbors\(\{"entity":"Halberd"\}\)\ngraph\.neighbors\(/),
    });
    const diff = stripVTControlCharacters((processError(error) as { diff: string }).diff);
    expect(diff).toMatch(/^- Expected\n\+ Received\n\n {2}graph\.neighbors\(\{"entity":"Halberd"\}\)\n/);
    expect(diff).toContain('\n- docs.search({"query":"x"})\n');
    expect(diff).toContain('\n+ docs.search({"query":"Compound-Alpha"})\n');
  });

  it('takes an explicit reference and argument mode', () => {
    const ref = calls(['graph.neighbors', { entity: 'Halberd' }], ['docs.search', { query: 'x' }]);
    expect(grounded).toMatchTrajectory(ref, { mode: 'superset', toolArgs: 'ignore' });
    expect(grounded).not.toMatchTrajectory(ref, { mode: 'superset', toolArgs: 'exact' });
  });

  it('says which side subset and superset arguments constrain', () => {
    const ref = calls(['docs.search', { query: 'Compound-Alpha', top: 3 }]);
    expect(
      failure(() => expect(grounded).toMatchTrajectory(ref, { mode: 'superset', toolArgs: 'superset' })),
    ).toBe(
      [
        'expect(workup).toMatchTrajectory(reference)',
        '',
        'Expected the trajectory to match the reference (superset, arguments superset).',
        'Missing calls:',
        '  - docs.search({"query":"Compound-Alpha","top":3})',
        "Arguments (superset): each argument of the expected call is in the run's, with the same value (it may give more).",
      ].join('\n'),
    );
  });

  it('takes the reference three ways: a gold file, tool calls inline, and toolCallTrajectory, all alike', () => {
    const inline = [
      { name: 'graph.neighbors', args: { entity: 'Halberd' } },
      { name: 'docs.search', args: { query: 'x' } },
    ];
    expect(grounded).toMatchTrajectory(inline, { mode: 'superset', toolArgs: 'ignore' });
    expect(grounded).not.toMatchTrajectory(inline, { mode: 'superset', toolArgs: 'exact' });
    expect(grounded).toMatchTrajectory(toolCallTrajectory('ref', inline), {
      mode: 'superset',
      toolArgs: 'ignore',
    });
    // The workup's gold.trajectory.json, loaded with it, is the default and can be passed as it is.
    expect(grounded).toMatchTrajectory(grounded.gold, { mode: 'superset' });
    expect(() => expect(grounded).toMatchTrajectory([{ tool: 'x' }] as never)).toThrow(
      'toMatchTrajectory: expected a reference Trajectory (or a Workup with one, or a list of { name, args } tool calls), got [{"tool":"x"}]',
    );
  });

  it('fails, not throws, on a workup without a trajectory', () => {
    expect(failure(() => expect(guessed).toMatchTrajectory(calls()))).toBe(
      'expect(workup).toMatchTrajectory(reference)\n\nCannot match trajectories: the workup has no trajectory.',
    );
  });

  it('refuses an unknown mode', () => {
    expect(() => expect(grounded).toMatchTrajectory(undefined, { mode: 'loose' as never })).toThrow(
      'toMatchTrajectory: mode must be one of strict, unordered, subset, superset, got "loose"',
    );
  });
});

describe('seed 002 score matchers', () => {
  it('toHaveStepF1 against the gold trajectory', () => {
    // 4 gold calls, 7 made with 4 distinct keys matching: precision 5/7 (two Ash Cell calls count), recall 1.
    expect(grounded).toHaveStepF1(undefined, 0.8);
    expect(failure(() => expect(grounded).toHaveStepF1())).toBe(
      'expect(workup).toHaveStepF1(gold, bound)\n\nExpected step F1 of at least 1, but it is 0.833.',
    );
    expect(grounded).not.toHaveStepF1(grounded.gold!, 0.9);
  });

  it('toBeEfficient compares call counts with the gold', () => {
    expect(grounded).toBeEfficient(undefined, 0.5);
    expect(failure(() => expect(grounded).toBeEfficient(undefined, 0.6))).toBe(
      'expect(workup).toBeEfficient(gold, bound)\n\nExpected tool efficiency of at least 0.6, but it is 0.571.',
    );
  });

  it('toHaveRedundancyAtMost counts repeated calls', () => {
    expect(grounded).toHaveRedundancyAtMost(0.2);
    expect(failure(() => expect(grounded).toHaveRedundancyAtMost())).toBe(
      'expect(workup).toHaveRedundancyAtMost(bound)\n\nExpected redundancy of at most 0, but it is 0.143.',
    );
    expect(failure(() => expect(grounded).not.toHaveRedundancyAtMost(0.5))).toBe(
      'expect(workup).not.toHaveRedundancyAtMost(bound)\n\nExpected redundancy above 0.5, but it is 0.143.',
    );
  });

  it('toRecoverFromErrors: the timed-out query was retried', () => {
    expect(grounded).toRecoverFromErrors();
    const stuck = { ...grounded, trajectory: calls(['search', {}]) };
    stuck.trajectory.steps.push(makeStep({ step_id: 2, step_type: 'observation', error: 'boom' }));
    expect(failure(() => expect(stuck).toRecoverFromErrors())).toBe(
      'expect(workup).toRecoverFromErrors(bound)\n\nExpected error recovery of at least 1, but it is 0.',
    );
  });

  it('says what is missing when there is nothing to score', () => {
    expect(failure(() => expect(guessed).toHaveStepF1())).toBe(
      'expect(workup).toHaveStepF1(gold, bound)\n\nCannot measure step F1: the workup has no trajectory.',
    );
    expect(failure(() => expect({ ...grounded, gold: undefined }).toBeEfficient())).toBe(
      'expect(workup).toBeEfficient(gold, bound)\n\nCannot measure tool efficiency: no reference given and the workup has no gold trajectory.',
    );
  });
});
