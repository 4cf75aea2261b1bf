import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors/index.js';
import {
  errorRecoveryRate,
  evaluateTrajectoryBatch,
  pairScores,
  redundancyRate,
  stepF1,
  stepPrecision,
  stepRecall,
  toolDistribution,
  toolEfficiency,
  trajectorySimilarity,
} from '../../src/metrics/trajectory/index.js';
import { makeStep, makeTrajectory, type StepType, type Trajectory } from '../../src/model/index.js';
import { loadWorkup } from '../../src/workup/load.js';
import { trajectoryPair } from '../reference/arbitraries.js';

type StepSpec = [StepType, string | null, Record<string, unknown> | null, string | null] | [StepType];

/** A trajectory from compact steps `[type, tool, input, error]`, ids 1, 2, ... unless `ids` is given. */
function traj(steps: StepSpec[], ids?: number[]): Trajectory {
  return makeTrajectory({
    task_id: 't',
    steps: steps.map(([step_type, tool_name = null, tool_input = null, error = null], i) =>
      makeStep({ step_id: ids?.[i] ?? i + 1, step_type, tool_name, tool_input, error }),
    ),
  });
}
const call = (tool: string, input: Record<string, unknown> | null = {}): StepSpec => [
  'tool_call',
  tool,
  input,
  null,
];
const empty = traj([['thought'], ['answer']]);

describe('the grounded fixture against its gold (values printed by the seed 002 Python)', async () => {
  const here = fileURLToPath(new URL('../../fixtures/workups/grounded', import.meta.url));
  const workup = await loadWorkup(here);
  const run = workup.trajectory as Trajectory;
  const gold = workup.gold as Trajectory;

  it('scores the detour through Depot-Seven, the retried call and the extra search', () => {
    // 7 calls; 5 are gold calls (Ash Cell twice), so precision 5/7; all 4 gold calls made
    expect(stepPrecision(run, gold)).toBe(0.7142857142857143);
    expect(stepRecall(run, gold)).toBe(1.0);
    expect(stepF1(run, gold)).toBe(0.8333333333333333);
    expect(toolEfficiency(run, gold)).toBe(0.5714285714285714);
    expect(redundancyRate(run)).toBe(0.14285714285714285);
    // the timed-out observation (step 9) is followed by the retried call (step 11)
    expect(errorRecoveryRate(run)).toBe(1.0);
    expect(trajectorySimilarity(run, gold)).toBe(0.7272727272727273);
    expect([...toolDistribution([run, gold])]).toEqual([
      ['graph.neighbors', 0.9090909090909091],
      ['docs.search', 0.09090909090909091],
    ]);
  });

  it('reports the batch as evaluate_trajectory_batch does', () => {
    const report = evaluateTrajectoryBatch([run, gold], [gold, run]);
    expect({ ...report, perTask: report.perTask.length }).toEqual({
      n: 2,
      passRate: 1.0,
      avgStepF1: 0.8333333333333333,
      avgEfficiency: 0.7857142857142857,
      avgRedundancy: 0.07142857142857142,
      avgErrorRecovery: 1.0,
      avgTokensPerTask: 417.5,
      avgLatencyMs: 4902.5,
      perTask: 2,
    });
    expect(report.perTask[0]).toEqual({
      taskId: 'grounded',
      succeeded: true,
      stepPrecision: 0.7142857142857143,
      stepRecall: 1.0,
      stepF1: 0.8333333333333333,
      efficiency: 0.5714285714285714,
      redundancy: 0.14285714285714285,
      errorRecovery: 1.0,
      totalTokens: 555,
      totalLatencyMs: 8405,
    });
  });
});

describe('step precision, recall and F1', () => {
  it('keys a call by tool and canonical arguments: key order is irrelevant, values and types are not', () => {
    const pred = traj([call('search', { b: 2, a: { y: 1, x: 0 } })]);
    expect(stepPrecision(pred, traj([call('search', { a: { x: 0, y: 1 }, b: 2 })]))).toBe(1);
    expect(stepPrecision(pred, traj([call('search', { a: { x: 0, y: 1 }, b: '2' })]))).toBe(0);
    expect(stepPrecision(pred, traj([call('lookup', { a: { x: 0, y: 1 }, b: 2 })]))).toBe(0);
    // no input (null) and an empty input ({}) are different calls, as json.dumps writes "null" and "{}"
    expect(stepPrecision(traj([call('search', null)]), traj([call('search', {})]))).toBe(0);
  });

  it('counts repeated predicted calls each time in precision, and gold ones each time in recall', () => {
    const pred = traj([call('a'), call('a'), call('b')]);
    const gold = traj([call('a'), call('c'), call('c')]);
    expect(stepPrecision(pred, gold)).toBe(2 / 3);
    expect(stepRecall(pred, gold)).toBe(1 / 3);
    expect(stepF1(pred, gold)).toBe((2 * (2 / 3) * (1 / 3)) / (2 / 3 + 1 / 3));
  });

  it('defines the empty cases as the seed does', () => {
    const some = traj([call('a')]);
    expect(stepPrecision(empty, empty)).toBe(1);
    expect(stepPrecision(empty, some)).toBe(0);
    expect(stepRecall(some, empty)).toBe(1);
    expect(stepRecall(empty, empty)).toBe(1);
    expect(stepF1(empty, empty)).toBe(1);
    expect(stepF1(traj([call('a')]), traj([call('b')]))).toBe(0);
  });

  it('looks only at tool_call steps', () => {
    const pred = traj([['observation', 'a', {}, null], call('b')]);
    expect(stepPrecision(pred, traj([call('b')]))).toBe(1);
  });
});

describe('toolEfficiency and redundancyRate', () => {
  it('divides the gold count by the larger count', () => {
    const two = traj([call('a'), call('b')]);
    const four = traj([call('a'), call('b'), call('a'), call('c')]);
    expect(toolEfficiency(four, two)).toBe(0.5);
    expect(toolEfficiency(two, four)).toBe(1);
    expect(toolEfficiency(empty, empty)).toBe(1);
    expect(toolEfficiency(two, empty)).toBe(0);
  });

  it('counts calls that repeat an earlier call exactly', () => {
    expect(redundancyRate(traj([call('a', { q: 1 }), call('a', { q: 1 }), call('a', { q: 1 })]))).toBe(2 / 3);
    expect(redundancyRate(traj([call('a', { q: 1 }), call('a', { q: 2 })]))).toBe(0);
    expect(redundancyRate(empty)).toBe(0);
  });
});

describe('errorRecoveryRate', () => {
  it('is the fraction of errors after which an error-free tool call or answer follows', () => {
    const t = traj([
      call('a'),
      ['observation', null, null, 'timeout'],
      call('a'),
      ['observation', null, null, 'boom'],
    ]);
    expect(errorRecoveryRate(t)).toBe(0.5);
    expect(errorRecoveryRate(traj([['tool_call', 'a', {}, 'bad args'], ['answer']]))).toBe(1);
    // a thought or an observation after the error is not a recovery
    expect(errorRecoveryRate(traj([['observation', null, null, 'x'], ['thought'], ['observation']]))).toBe(0);
  });

  it('is 1 with no errors, and counts an empty error message as an error (the seed tests `is not None`)', () => {
    expect(errorRecoveryRate(empty)).toBe(1);
    expect(errorRecoveryRate(traj([['observation', null, null, '']]))).toBe(0);
  });

  it('orders by step_id, not by position, as the seed does', () => {
    // the error has id 5; the later-positioned call has id 3, so it does not count as after the error
    const t = traj([['observation', null, null, 'x'], call('a')], [5, 3]);
    expect(errorRecoveryRate(t)).toBe(0);
    expect(errorRecoveryRate(traj([call('a'), ['observation', null, null, 'x']], [9, 2]))).toBe(1);
  });
});

describe('trajectorySimilarity and toolDistribution', () => {
  it('compares tool-name sequences with difflib ratio', () => {
    const a = traj([call('search'), call('read'), call('search')]);
    const b = traj([call('search', { q: 'other args' }), call('search')]);
    expect(trajectorySimilarity(a, b)).toBe(0.8);
    expect(trajectorySimilarity(empty, empty)).toBe(1);
    expect(trajectorySimilarity(a, empty)).toBe(0);
  });

  it('orders tools by count, ties in first-seen order, integer-like names and null included', () => {
    const t = traj([call('z'), call('1'), call('z'), call('1'), ['tool_call', null, null, null], call('b')]);
    expect([...toolDistribution([t])]).toEqual([
      ['z', 2 / 6],
      ['1', 2 / 6],
      [null, 1 / 6],
      ['b', 1 / 6],
    ]);
    expect(toolDistribution([empty]).size).toBe(0);
    expect(toolDistribution([]).size).toBe(0);
  });
});

describe('evaluateTrajectoryBatch', () => {
  it('rejects predictions and golds of different lengths as a user error', () => {
    expect(() => evaluateTrajectoryBatch([empty], [])).toThrow(UserError);
    expect(() => evaluateTrajectoryBatch([empty], [])).toThrow(
      'evaluateTrajectoryBatch: expected as many gold trajectories as predicted ones, got 1 predicted and 0 gold',
    );
  });

  it('reports an empty batch with n 0 and no averages', () => {
    expect(evaluateTrajectoryBatch([], [])).toEqual({
      n: 0,
      passRate: null,
      avgStepF1: null,
      avgEfficiency: null,
      avgRedundancy: null,
      avgErrorRecovery: null,
      avgTokensPerTask: null,
      avgLatencyMs: null,
      perTask: [],
    });
  });
});

describe('properties', () => {
  it('keeps every score in [0, 1], F1 the harmonic mean, and agrees with the batch rows', () => {
    fc.assert(
      fc.property(trajectoryPair, ([pred, gold]) => {
        const p = stepPrecision(pred, gold);
        const r = stepRecall(pred, gold);
        const scores = [p, r, stepF1(pred, gold), toolEfficiency(pred, gold), redundancyRate(pred)];
        scores.push(errorRecoveryRate(pred), trajectorySimilarity(pred, gold));
        for (const s of scores) expect(s >= 0 && s <= 1).toBe(true);
        expect(stepF1(pred, gold)).toBe(p + r === 0 ? 0 : (2 * p * r) / (p + r));
        const row = evaluateTrajectoryBatch([pred], [gold]).perTask[0];
        expect(row?.stepF1).toBe(stepF1(pred, gold));
        expect(row?.redundancy).toBe(redundancyRate(pred));
        expect(row?.efficiency).toBe(toolEfficiency(pred, gold));
      }),
      { numRuns: 300 },
    );
  });

  it('gives in pairScores, from one numbering of the calls, the values of the single-metric functions', () => {
    fc.assert(
      fc.property(trajectoryPair, ([pred, gold]) => {
        expect(pairScores(pred, gold)).toEqual({
          stepPrecision: stepPrecision(pred, gold),
          stepRecall: stepRecall(pred, gold),
          stepF1: stepF1(pred, gold),
          toolEfficiency: toolEfficiency(pred, gold),
          redundancyRate: redundancyRate(pred),
          errorRecoveryRate: errorRecoveryRate(pred),
        });
      }),
      { numRuns: 500 },
    );
  });

  it('scores a trajectory against itself as perfect on step F1 and similarity', () => {
    fc.assert(
      fc.property(trajectoryPair, ([pred]) => {
        expect(stepF1(pred, pred)).toBe(1);
        expect(trajectorySimilarity(pred, pred)).toBe(1);
        expect(toolEfficiency(pred, pred)).toBe(1);
      }),
      { numRuns: 200 },
    );
  });

  it('sums the tool distribution to 1', () => {
    fc.assert(
      fc.property(trajectoryPair, ([pred, gold]) => {
        const shares = [...toolDistribution([pred, gold]).values()];
        if (shares.length > 0) expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
      }),
      { numRuns: 200 },
    );
  });
});
