import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { metricMeans } from '../../src/history/means.js';
import { MIGRATIONS } from '../../src/history/store/migrations.js';
import { openStore } from '../../src/history/store/open.js';
import { CHECKS_PER_STATEMENT } from '../../src/history/store/rows.js';
import type { Store } from '../../src/history/store/store.js';
import type { TrendRun } from '../../src/history/types.js';
import { useTmpDir } from '../helpers/tmp.js';
import { trendCheck, trendRun } from '../reporters/trend-data.js';
import { eachEngine, emptyEmbeddedStore } from './engines.js';

const tmp = useTmpDir();

/** Every kind of value a check row must carry back unchanged. */
function richRun(minute: number, extra: Partial<TrendRun> = {}): TrendRun {
  return trendRun(
    minute,
    [
      trendCheck({ case: 'refund-late', task: 'refund', trial: 2, reason: 'expected ≥ 0.8, found 0.9 «ok»' }),
      trendCheck({
        workup: 'w-bool',
        criterion: 'answered',
        metric: 'answer_em',
        value: true,
        trial: 'warm',
      }),
      trendCheck({ workup: 'w-na', value: null, verdict: 'not-applicable', state: 'skipped' }),
      trendCheck({
        workup: 'w-unit',
        criterion: 'pivots',
        metric: 'pivot_burden',
        value: 7,
        unit: 'queries',
        threshold: 5,
        comparator: '<=',
        verdict: 'fail',
        state: 'failed',
      }),
    ],
    {
      commit: 'c0ffee',
      branch: 'main',
      source: 'github',
      environment: { model: 'gpt-x', agentVersion: '1.2.0' },
      ...extra,
    },
  );
}

eachEngine((engine, server) => {
  /** A fresh store of this engine. */
  const fresh = async (): Promise<{ location: string; store: Store }> => {
    const location =
      engine === 'embedded'
        ? await emptyEmbeddedStore(join(await tmp(), 'store'))
        : await server().database(`c_${randomBytes(4).toString('hex')}`);
    return { location, store: await openStore(location) };
  };

  it('gives back every run as it was appended: checks, cases, reasons, trials, booleans, units, environment', async () => {
    const { store } = await fresh();
    try {
      const runs = [
        richRun(1),
        richRun(2, { branch: 'topic', baseBranch: 'main', scope: { kind: 'partial', files: ['a.test.ts'] } }),
      ];
      for (const run of runs) await store.append(run);
      expect(await store.run(runs[0]!.id)).toEqual(runs[0]);
      expect(await store.run(runs[1]!.id)).toEqual(runs[1]);
      expect(await store.run('nope')).toBeUndefined();
      expect(await store.count()).toBe(2);
      expect(await store.ids()).toEqual(runs.map((r) => r.id));
    } finally {
      await store.close();
    }
  });

  it('gives back floats exactly, and the ones JSON cannot write as numbers', async () => {
    const { store } = await fresh();
    try {
      const run = trendRun(1, [
        trendCheck({ workup: 'w-float', value: 0.1 + 0.2, threshold: 1e-300 }),
        trendCheck({ workup: 'w-tiny', value: 5e-324, threshold: 1.7976931348623157e308 }),
        trendCheck({
          workup: 'w-infinite',
          value: Number.POSITIVE_INFINITY,
          threshold: Number.NEGATIVE_INFINITY,
          verdict: 'fail',
          state: 'failed',
        }),
        trendCheck({ workup: 'w-nan', value: Number.NaN, verdict: 'fail', state: 'failed' }),
      ]);
      await store.append(run);
      expect(await store.run(run.id)).toEqual(run);
      expect(await store.latest()).toEqual(run);
      // Their mean is over the values that are numbers, as `metricMeans` takes it (the store keeps its means).
      expect((await store.overview(1)).series.map((s) => s.means)).toEqual([[(0.1 + 0.2 + 5e-324) / 2]]);
      expect((await store.overview(1)).series).toEqual(metricMeans([run]));
    } finally {
      await store.close();
    }
  });

  it('gives back text as a parameter carries it: tabs, newlines, carriage returns, quotes, backslashes, \\N, astral characters; a lone surrogate as U+FFFD', async () => {
    const { store } = await fresh();
    try {
      const reason = 'tab\there\nline\r\nnext "quoted" back\\slash \\N 🧵 ';
      const evidence = { path: 'a\\b\tc\r\nd \\N', calls: [{ tool: 'q"\\', args: { x: '\u0007' } }] };
      const run = trendRun(1, [
        trendCheck({
          spec: 's\t1',
          case: '\\N',
          workup: 'w',
          reason: `${reason}\uD800 and \uDC00.`,
          evidence,
        }),
        trendCheck({ spec: 's\t1', workup: 'w-empty', reason: '', trial: 'warm\n"up"' }),
      ]);
      await store.append(run);
      expect((await store.run(run.id, { whole: true }))?.checks[0]?.evidence).toEqual(evidence);
      const back = await store.run(run.id);
      expect(back?.checks[0]?.reason).toBe(`${reason}\uFFFD and \uFFFD.`);
      expect(back?.checks.map((c) => [c.spec, c.case, c.trial, c.reason])).toEqual([
        ['s\t1', '\\N', undefined, `${reason}\uFFFD and \uFFFD.`],
        ['s\t1', undefined, 'warm\n"up"', ''],
      ]);
    } finally {
      await store.close();
    }
  });

  it('records its schema version once, reopens without migrating again, and refuses a newer schema naming the store', async () => {
    const { location, store } = await fresh();
    await store.append(richRun(1));
    const migrations = await store.engine.query<{ version: number }>(
      'SELECT version FROM needlework_migrations ORDER BY version',
    );
    expect(migrations).toEqual(MIGRATIONS.map(({ version }) => ({ version })));
    await store.engine.query("INSERT INTO needlework_migrations (version, name) VALUES (999, 'future')");
    await store.close();
    const error = await openStore(location).catch((e: Error) => e);
    expect((error as Error).message).toMatch(
      /^\S+: cannot open the results store: its schema is version 999, newer than this needlework knows \(6\); upgrade needlework$/,
    );
    expect((error as Error).message).not.toContain('\n');
  });

  it('finds the latest run by scope, branch and order, whatever order the runs were added in', async () => {
    const { store } = await fresh();
    try {
      const a = richRun(1);
      const b = richRun(2, { branch: 'topic', baseBranch: 'main' });
      const c = richRun(3, { scope: { kind: 'partial', testNamePattern: 'cheap' } });
      const d = richRun(4);
      for (const run of [d, b, a, c]) await store.append(run);
      expect((await store.latest())?.id).toBe(d.id);
      expect((await store.latest({ branch: 'main', scopeKey: 'full', before: d }))?.id).toBe(a.id);
      expect((await store.latest({ branch: 'topic' }))?.id).toBe(b.id);
      expect((await store.latest({ excludeId: d.id, scopeKey: 'full', branch: 'main' }))?.id).toBe(a.id);
      expect(await store.latest({ branch: 'none' })).toBeUndefined();
      expect(await store.count({ notScopeKey: 'full', after: a, before: d })).toBe(1);
    } finally {
      await store.close();
    }
  });

  it("computes each metric's mean per run as metricMeans does, for the last n runs", async () => {
    const { store } = await fresh();
    try {
      const runs = [richRun(1), richRun(2), richRun(3)];
      runs[1]!.checks[0]!.value = 0.5;
      runs[2]!.checks[1]!.value = false;
      for (const run of runs) await store.append(run);
      const overview = await store.overview(2);
      expect(overview.total).toBe(3);
      expect(overview.runs.map((r) => r.id)).toEqual([runs[1]!.id, runs[2]!.id]);
      expect(overview.runs[0]?.summary).toEqual(runs[1]!.summary);
      expect(overview.series).toEqual(metricMeans(runs.slice(1)));
    } finally {
      await store.close();
    }
  });

  it('appends a run of more checks than one statement takes whole, in order, with its means', async () => {
    const { store } = await fresh();
    try {
      const checks = Array.from({ length: CHECKS_PER_STATEMENT + 3 }, (_, i) =>
        trendCheck({ workup: `w-${String(i).padStart(5, '0')}`, value: (i % 10) / 10, reason: `check ${i}` }),
      );
      const run = trendRun(1, checks);
      await store.append(run);
      expect(await store.run(run.id)).toEqual(run);
      expect((await store.overview(1)).series).toEqual(metricMeans([run]));
    } finally {
      await store.close();
    }
  });

  it('appends nothing of a run whose checks fail in a later statement (one transaction for all)', async () => {
    const { store } = await fresh();
    try {
      await store.append(richRun(1));
      // A NUL, which PostgreSQL's text cannot hold, in a check past the first statement's.
      const checks = Array.from({ length: CHECKS_PER_STATEMENT + 2 }, (_, i) =>
        trendCheck({ workup: `w-${i}`, reason: i === CHECKS_PER_STATEMENT + 1 ? 'a \u0000 NUL' : 'ok' }),
      );
      await expect(store.append(trendRun(2, checks))).rejects.toThrow();
      const [runs] = await store.engine.query<{ n: number }>(
        'SELECT count(*)::integer AS n FROM needlework_runs',
      );
      const [rows] = await store.engine.query<{ n: number }>(
        'SELECT count(*)::integer AS n FROM needlework_checks',
      );
      const [means] = await store.engine.query<{ n: number }>(
        'SELECT count(*)::integer AS n FROM needlework_run_metrics',
      );
      expect([runs?.n, rows?.n, means?.n]).toEqual([1, 4, 3]);
    } finally {
      await store.close();
    }
  });

  it('prunes to the last n runs and by age, with their checks, and keeps everything by default', async () => {
    const { store } = await fresh();
    try {
      for (let m = 1; m <= 5; m++) await store.append(richRun(m));
      expect(await store.prune({})).toBe(0);
      expect(await store.prune({ keepLast: 3 })).toBe(2);
      expect(await store.count()).toBe(3);
      expect(await store.prune({ olderThan: new Date(Date.UTC(2026, 10, 22, 3, 4)) })).toBe(1);
      expect(await store.ids()).toEqual([richRun(4).id, richRun(5).id]);
      for (const table of ['needlework_checks', 'needlework_run_metrics']) {
        const [orphans] = await store.engine.query<{ n: number }>(
          `SELECT count(*)::integer AS n FROM ${table} c WHERE NOT EXISTS (SELECT 1 FROM needlework_runs r WHERE r.seq = c.run)`,
        );
        expect(orphans?.n, table).toBe(0);
      }
      // The checks of the runs kept are all there.
      const [kept] = await store.engine.query<{ n: number }>(
        'SELECT count(*)::integer AS n FROM needlework_checks',
      );
      expect(kept?.n).toBe(2 * richRun(1).checks.length);
    } finally {
      await store.close();
    }
  });

  it('imports only the runs it does not hold yet', async () => {
    const { store } = await fresh();
    try {
      await store.append(richRun(1));
      expect(await store.import([richRun(1), richRun(2)])).toEqual({ added: 1, present: 1 });
      expect(await store.count()).toBe(2);
    } finally {
      await store.close();
    }
  });

  it('appends nothing of a run whose insert fails (one transaction per run)', async () => {
    const { store } = await fresh();
    try {
      await store.append(richRun(1));
      // The same id again: the run row is refused, and none of its checks may stay behind.
      await expect(store.append(richRun(1))).rejects.toThrow();
      const [rows] = await store.engine.query<{ n: number }>(
        'SELECT count(*)::integer AS n FROM needlework_checks',
      );
      expect(rows?.n).toBe(4);
    } finally {
      await store.close();
    }
  });
});
