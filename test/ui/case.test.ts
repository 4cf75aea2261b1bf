import { join } from 'node:path';
import { expect, it } from 'vitest';
import { openStore } from '../../src/history/store/open.js';
import type { TrendCheck } from '../../src/history/types.js';
import { caseChecks } from '../../src/ui/queries.js';
import { useTmpDir } from '../helpers/tmp.js';
import { emptyEmbeddedStore } from '../history/engines.js';
import { trendCheck, trendRun } from '../reporters/trend-data.js';

const tmp = useTmpDir();

/** The checks of case `refund` (task `refund-1`) on two criteria, and of a spec without cases (task `t-9`). */
function checks(answerFails: boolean): TrendCheck[] {
  const fail = { verdict: 'fail', state: 'failed' } as const;
  return [
    trendCheck({
      case: 'refund',
      task: 'refund-1',
      workup: 'w1',
      criterion: 'answer',
      ...(answerFails && fail),
    }),
    trendCheck({ case: 'refund', task: 'refund-1', workup: 'w1', criterion: 'recall' }),
    trendCheck({ case: 'other', task: 'refund-1', workup: 'w1', criterion: 'answer', ...fail }),
    trendCheck({ spec: 'needle', workup: 't-9', criterion: 'found', ...(answerFails && fail) }),
    trendCheck({ case: 'refund', task: 'refund-1', workup: 'w2', criterion: 'answer', state: 'skipped' }),
  ];
}

it("reads a case's newest runs in time order and each criterion's first failure, whatever order runs were added in", async () => {
  const store = await openStore(await emptyEmbeddedStore(join(await tmp(), 'store')));
  try {
    // Appended in this order: minute 9, then minutes 1 to 6 (the answer fails at 3 and 4), then minute 2, failing.
    for (const [minute, fails] of [
      [9, false],
      [1, false],
      [3, true],
      [4, true],
      [5, false],
      [6, false],
      [2, true],
    ] as const)
      await store.append(trendRun(minute, checks(fails)));
    const ref = { spec: 'compound-alpha', case: 'refund', task: 'refund-1' };
    const all = await caseChecks(store.engine, ref);
    expect(all.truncated).toBe(false);
    // Oldest first by the time the run ended, not by the order of the appends; the skipped check left out.
    expect(all.points.map((p) => `${p.time.slice(14, 16)} ${p.criterion} ${p.verdict}`)).toEqual([
      '01 answer pass',
      '01 recall pass',
      '02 answer fail',
      '02 recall pass',
      '03 answer fail',
      '03 recall pass',
      '04 answer fail',
      '04 recall pass',
      '05 answer pass',
      '05 recall pass',
      '06 answer pass',
      '06 recall pass',
      '09 answer pass',
      '09 recall pass',
    ]);
    // The lowest run number that failed is minute 3's; minute 2's, added after it, ended before it.
    expect([...all.firstFailures].map(([c, p]) => `${c} ${p.time.slice(14, 16)}`)).toEqual(['answer 02']);

    // The newest 3 runs by time: minute 9's was added first, before the three added last.
    const newest = await caseChecks(store.engine, ref, 3);
    expect(newest.truncated).toBe(true);
    expect(newest.points.map((p) => `${p.time.slice(14, 16)} ${p.criterion}`)).toEqual([
      '05 answer',
      '05 recall',
      '06 answer',
      '06 recall',
      '09 answer',
      '09 recall',
    ]);
    // A first failure is looked for in the whole history, not only among the checks shown.
    expect([...newest.firstFailures].map(([c, p]) => `${c} ${p.time.slice(14, 16)}`)).toEqual(['answer 02']);

    // A spec without cases: its case is the task alone.
    const needle = await caseChecks(store.engine, { spec: 'needle', task: 't-9' });
    expect(needle.points).toHaveLength(7);
    expect(needle.firstFailures.get('found')?.time.slice(14, 16)).toBe('02');
    expect((await caseChecks(store.engine, { spec: 'needle', case: 't-9', task: 't-9' })).points).toEqual([]);
  } finally {
    await store.close();
  }
});
