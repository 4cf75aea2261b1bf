import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { summarize } from '../../src/history/entry.js';
import { openStore } from '../../src/history/store/open.js';
import type { Store } from '../../src/history/store/store.js';
import type { TrendCheck, TrendRun } from '../../src/history/types.js';
import { useTmpDir } from '../helpers/tmp.js';
import { trendCheck, trendRun } from '../reporters/trend-data.js';
import { eachEngine, emptyEmbeddedStore } from './engines.js';

const tmp = useTmpDir();

/** 2,500 checks of 250 cases x 5 trials x 2 criteria, some failing, one of them a unit metric. */
function manyChecks(): TrendCheck[] {
  const checks: TrendCheck[] = [];
  for (let c = 0; c < 250; c++)
    for (let trial = 1; trial <= 5; trial++) {
      checks.push(
        trendCheck({
          case: `case-${c}`,
          workup: `w-${c}-${trial}`,
          task: `case-${c}`,
          trial,
          value: (c % 10) / 10,
        }),
        trendCheck({
          case: `case-${c}`,
          workup: `w-${c}-${trial}`,
          task: `case-${c}`,
          trial,
          criterion: 'pivots',
          metric: 'pivot_burden',
          value: trial + c,
          unit: 'queries',
          threshold: 100,
          comparator: '<=',
          ...(c + trial > 100 && { verdict: 'fail', state: 'failed' }),
          evidence: { path: [`p\t${c}`] },
        }),
      );
    }
  return checks;
}

/** The checks in the order a test run might end them: shuffled by a fixed permutation. */
function arrivalOrder<T>(items: readonly T[]): T[] {
  const out = [...items];
  let seed = 7;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 48271) % 2147483647;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** A run's row as `needlework ui` and `trend` read it, and its metric means. */
async function stored(store: Store, id: string) {
  const run = await store.run(id, { whole: true });
  const means = await store.engine.query(
    `SELECT m.spec, m.criterion, m.metric, m.unit, m.lower_is_better, m.mean FROM needlework_run_metrics m
     JOIN needlework_runs r ON r.seq = m.run WHERE r.id = $1 ORDER BY m.spec, m.criterion`,
    [id],
  );
  return { run, means };
}

eachEngine((engine, server) => {
  const fresh = async (): Promise<Store> =>
    openStore(
      engine === 'embedded'
        ? await emptyEmbeddedStore(join(await tmp(), 'store'))
        : await server().database(`s_${randomBytes(4).toString('hex')}`),
    );

  const provisional = (run: TrendRun): TrendRun => ({
    ...run,
    id: `streaming-${randomBytes(4).toString('hex')}`,
    summary: summarize([]),
    checks: [],
    trials: [],
  });

  if (engine === 'server') {
    it('appends in one piece on a server: it opens no transaction held for a whole test run', async () => {
      const store = await fresh();
      try {
        expect(store.streamAppend(trendRun(1, [trendCheck()]))).toBeUndefined();
      } finally {
        await store.close();
      }
    });
    return;
  }

  it('appends checks sent in the order their tests ended as the run appended in one piece: the same run, trials and metric means', async () => {
    const store = await fresh();
    try {
      const whole = trendRun(1, manyChecks(), { commit: 'c0ffee', branch: 'main' });
      await store.append(whole);
      const streamedRun = trendRun(2, manyChecks(), { commit: 'c0ffee', branch: 'main' });
      const stream = store.streamAppend(provisional(streamedRun))!;
      const arrived = arrivalOrder(streamedRun.checks);
      for (let at = 0; at < arrived.length; at += 333) stream.add(arrived.slice(at, at + 333));
      expect(stream.added).toBe(streamedRun.checks.length);
      await stream.finish(streamedRun);
      const a = await stored(store, whole.id);
      const b = await stored(store, streamedRun.id);
      expect(b.run).toEqual(streamedRun);
      expect(b.means).toEqual(a.means);
      expect({ ...b.run, id: '', time: '' }).toEqual({ ...a.run, id: '', time: '' });
      // Stored as they arrived, read back in the history's order.
      const [firstRow] = await store.engine.query<{ workup: string; criterion: string }>(
        `SELECT workup, criterion FROM needlework_checks WHERE run = (SELECT seq FROM needlework_runs WHERE id = $1)
         ORDER BY ord LIMIT 1`,
        [streamedRun.id],
      );
      expect(firstRow).toEqual({ workup: arrived[0]!.workup, criterion: arrived[0]!.criterion });
      expect(await store.count()).toBe(2);
      expect((await store.latest())?.id).toBe(streamedRun.id);
    } finally {
      await store.close();
    }
  });

  it('leaves nothing when abandoned, or when a check cannot be stored (a NUL), and the store goes on appending', async () => {
    const store = await fresh();
    try {
      const run = trendRun(1, manyChecks());
      const abandoned = store.streamAppend(provisional(run))!;
      abandoned.add(run.checks.slice(0, 1200));
      await abandoned.abandon();
      const broken = trendRun(2, [...manyChecks(), trendCheck({ workup: 'w-nul', reason: 'a \u0000 NUL' })]);
      const failing = store.streamAppend(provisional(broken))!;
      failing.add(broken.checks.slice(-1));
      failing.add(broken.checks.slice(0, -1));
      await expect(failing.finish(broken)).rejects.toThrow(/unsupported Unicode escape sequence/);
      const [rows] = await store.engine.query<{ runs: number; checks: number }>(
        `SELECT (SELECT count(*)::integer FROM needlework_runs) AS runs,
                (SELECT count(*)::integer FROM needlework_checks) AS checks`,
      );
      expect(rows).toEqual({ runs: 0, checks: 0 });
      await store.append(run);
      expect(await store.run(run.id, { whole: true })).toEqual(run);
    } finally {
      await store.close();
    }
  });
});
