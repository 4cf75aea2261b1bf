import { describe, expect, it } from 'vitest';
import { type TrialCheck, tallyTrials } from '../../src/trials/tally.js';

function check(fields: Partial<TrialCheck> & Pick<TrialCheck, 'workup'>): TrialCheck {
  return {
    spec: 'spec',
    criterion: 'c',
    metric: 'm',
    verdict: 'pass',
    value: true,
    ...fields,
  };
}

/** spec / criterion / case / task of each group, in the order the tally gives them. */
const order = (checks: TrialCheck[]) =>
  tallyTrials(checks).map((g) => [g.spec, g.criterion, g.case ?? '-', g.task].join(' / '));

describe('tallyTrials', () => {
  it('groups by spec x criterion x case x task in byte order of each (upper case before lower, a prefix first)', () => {
    const checks = [
      check({ spec: 'b', workup: 'w1', task: 'x' }),
      check({ spec: 'B', workup: 'w2', task: 'x' }),
      check({ spec: 'a', criterion: 'z', case: 'case-10', workup: 'w3', task: 'é' }),
      check({ spec: 'a', criterion: 'z', case: 'case-1', workup: 'w4', task: 'q' }),
      check({ spec: 'a', criterion: 'z', case: 'case-1', workup: 'w5', task: 'Q' }),
      check({ spec: 'a', criterion: 'y', case: 'case-2', workup: 'w6', task: 'e' }),
      check({
        spec: 'a',
        criterion: 'z',
        case: 'case-1',
        workup: 'w7',
        task: 'q',
        verdict: 'fail',
        value: false,
      }),
    ];
    expect(order(checks)).toEqual([
      'B / c / - / x',
      'a / y / case-2 / e',
      'a / z / case-1 / Q',
      'a / z / case-1 / q',
      'a / z / case-10 / é',
      'b / c / - / x',
    ]);
    const q = tallyTrials(checks).find((g) => g.task === 'q');
    expect(q).toMatchObject({ case: 'case-1', trials: 2, passes: 1, values: [] });
  });

  it('orders a criterion holding checks of a task case and of none by the key "case NUL task"', () => {
    const checks = [
      check({ case: 'x', workup: 'w1', task: 't1' }),
      check({ workup: 'w2', task: 'x' }),
      check({ workup: 'w3', task: 'w' }),
      check({ workup: 'w4', task: 'y' }),
      check({ case: 'x', workup: 'w5', task: 't0' }),
    ];
    // "w" < "x" < "x\0t0" < "x\0t1" < "y".
    expect(order(checks)).toEqual([
      'spec / c / - / w',
      'spec / c / - / x',
      'spec / c / x / t0',
      'spec / c / x / t1',
      'spec / c / - / y',
    ]);
  });

  it('takes a workup without a task as its own task, counts not-applicable apart and skips what did not run', () => {
    const groups = tallyTrials([
      check({ workup: 'solo', value: 0.5, unit: 'ms', comparator: '<=' }),
      check({ workup: 'solo', verdict: 'not-applicable', value: null }),
      check({ workup: 'solo', verdict: 'fail', value: Number.NaN }),
      check({ workup: 'solo', verdict: 'fail', value: 9, state: 'skipped' }),
      check({ workup: 'solo', verdict: 'fail', value: 9, state: 'pending' }),
    ]);
    expect(groups).toEqual([
      {
        spec: 'spec',
        criterion: 'c',
        task: 'solo',
        metric: 'm',
        unit: 'ms',
        lowerIsBetter: true,
        trials: 2,
        passes: 1,
        notApplicable: 1,
        values: [0.5],
      },
    ]);
    // The fields in the order `TaskTrials` lists them (JSON written from a group keeps it).
    expect(Object.keys(groups[0]!)).toEqual([
      'spec',
      'criterion',
      'task',
      'metric',
      'unit',
      'lowerIsBetter',
      'trials',
      'passes',
      'notApplicable',
      'values',
    ]);
  });
});
