import { join } from 'node:path';
import { expect, it } from 'vitest';
import { compare } from '../../src/history/compare.js';
import { findBaseline } from '../../src/history/gate.js';
import { openStore } from '../../src/history/store/open.js';
import type { TrendRun } from '../../src/history/types.js';
import { UiData } from '../../src/ui/data.js';
import { useTmpDir } from '../helpers/tmp.js';
import { emptyEmbeddedStore } from '../history/engines.js';
import { fill, history, makeRun } from './history.js';

const tmp = useTmpDir();

it("finds each run's baseline as the gate does, and reads the change column's runs in one statement a group", async () => {
  const store = await openStore(await emptyEmbeddedStore(join(await tmp(), 'store')));
  try {
    const pr: TrendRun = { ...makeRun({ minute: 7, branch: 'feature/y' }), baseBranch: 'main' };
    const partial: TrendRun = {
      ...makeRun({ minute: 8, failing: (c) => c === 2 }),
      scope: { kind: 'partial', testNamePattern: 'refund' },
    };
    const runs = [...history(), pr, partial, makeRun({ minute: 9, failing: (c) => c === 2 })];
    await fill(store, runs);
    const data = new UiData(store);
    for (const run of runs)
      expect(await data.baselineOf(run), run.id).toBe((await findBaseline(store, run)).run?.id);

    let reads = 0;
    const query = store.engine.query.bind(store.engine);
    store.engine.query = ((sql: string, params?: readonly unknown[]) => {
      if (/^SELECT seq::integer AS seq, id, time_text/.test(sql)) reads++;
      return query(sql, params);
    }) as typeof store.engine.query;
    const ids = runs.map((run) => run.id).reverse();
    const changes = await data.changesOf(ids, () => false);
    // Every run in one read (their baselines among them); one a run before.
    expect(reads).toBe(1);
    // The last two runs, then their baselines: two reads.
    reads = 0;
    await new UiData(store).changesOf(ids.slice(0, 2), () => false);
    expect(reads).toBe(2);
    expect(changes.map((c) => c.id)).toEqual(ids);
    const fresh = new UiData(store);
    for (const change of changes) expect(change).toEqual(await fresh.change(change.id));
    const byId = new Map(changes.map((c) => [c.id, c]));
    // A pull request's run against the latest of its base branch; a partial run has none of its scope before it.
    expect(byId.get(pr.id)?.baseline).toBe(runs.at(-1)?.id);
    expect(byId.get(partial.id)?.baseline).toBeUndefined();
    expect(byId.get(runs.at(-1)?.id ?? '')?.baseline).toBe(runs[4]?.id);

    // A page that went away is not answered further.
    let asked = 0;
    expect(await new UiData(store).changesOf(ids, () => asked++ > 2)).toHaveLength(2);
  } finally {
    await store.close();
  }
});

it("serves the comparison a run's gate kept for its baseline without reading a check, and compares any other pair", async () => {
  const store = await openStore(await emptyEmbeddedStore(join(await tmp(), 'store')));
  try {
    const runs = history();
    await fill(store, runs);
    const [run, baseline, other] = [runs[4], runs[3], runs[1]] as [TrendRun, TrendRun, TrendRun];
    const gate = compare(run, baseline);
    // What the UI answers when it compares the two runs itself.
    const computed = await new UiData(store).compare(run.id);
    expect(computed?.baseline?.id).toBe(baseline.id);
    await store.keepComparison(run.id, gate);

    let checksRead = 0;
    const query = store.engine.query.bind(store.engine);
    store.engine.query = ((sql: string, params?: readonly unknown[]) => {
      if (/needlework_checks/.test(sql)) checksRead++;
      return query(sql, params);
    }) as typeof store.engine.query;
    const data = new UiData(store);
    // The same answer to the byte, from what the gate kept, neither run's checks read: for the Compare view and for
    // the change column.
    expect(JSON.stringify(await data.compare(run.id))).toBe(JSON.stringify(computed));
    expect(JSON.stringify(await new UiData(store).compare(run.id, baseline.id))).toBe(
      JSON.stringify({ ...computed, chosen: true }),
    );
    const [change] = await new UiData(store).changesOf([run.id], () => false);
    expect(change).toMatchObject({ id: run.id, baseline: baseline.id, regressed: gate.counts.regressed });
    expect(checksRead).toBe(0);

    // Another baseline is compared here: what the gate kept is of its own baseline only.
    const against = await new UiData(store).compare(run.id, other.id);
    expect(checksRead).toBeGreaterThan(0);
    expect(against?.baseline?.id).toBe(other.id);
    expect(JSON.stringify(against)).not.toBe(JSON.stringify({ ...computed, chosen: true }));

    // Kept by another version of needlework (whose comparison may differ): not read.
    await store.keepComparison(run.id, { ...gate, counts: { ...gate.counts, regressed: 99 } });
    expect((await new UiData(store).compare(run.id))?.counts.regressed).toBe(99);
    await store.engine.query("UPDATE needlework_comparisons SET version = '0.0.0-other'");
    expect(await store.keptComparisons([run.id])).toEqual(new Map());
    expect((await new UiData(store).compare(run.id))?.counts.regressed).toBe(gate.counts.regressed);

    // Gone with its run.
    await store.prune({ keepLast: 1 });
    const [left] = await store.engine.query<{ n: number }>(
      'SELECT count(*)::integer AS n FROM needlework_comparisons',
    );
    expect(left?.n).toBe(0);
  } finally {
    await store.close();
  }
});

it('keeps no comparison that JSON cannot carry whole', async () => {
  const store = await openStore(await emptyEmbeddedStore(join(await tmp(), 'store')));
  try {
    const runs = history();
    await fill(store, runs);
    const gate = compare(runs[4] as TrendRun, runs[3] as TrendRun);
    const [first] = gate.changes;
    if (!first?.after) throw new Error('the history has a change');
    first.after.mean = Number.NaN;
    await store.keepComparison((runs[4] as TrendRun).id, gate);
    expect(await store.keptComparisons([(runs[4] as TrendRun).id])).toEqual(new Map());
  } finally {
    await store.close();
  }
});
