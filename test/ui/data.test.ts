import { join } from 'node:path';
import { expect, it } from 'vitest';
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
