import { describe, expect, it } from 'vitest';
import type { RunSource } from '../../src/history/store/source.js';
import type { TrendRun } from '../../src/history/types.js';
import type { CheckRecord } from '../../src/report/checks.js';
import {
  afterTrendBaseline,
  afterTrendWrite,
  type LentBaseline,
  type LentStore,
  lendTrendBaseline,
  lendTrendStore,
  trackTrendWrite,
  trendWriteBegun,
} from '../../src/report/pending-trend.js';
import { gateOf, runHistory } from '../../src/report/run-history.js';
import { trendCheck, trendRun } from './trend-data.js';

/** A stand-in for what a trend write lends: the reads only pass it along. */
const store: LentStore = { store: { name: 'lent-store' } as RunSource, run: {} as TrendRun, checks: [] };

/** A write that can be finished from outside, as a trend reporter's append is. */
function controlledWrite(): { promise: Promise<void>; finish(): void; fail(error: Error): void } {
  let finish!: () => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return { promise, finish, fail };
}

describe('a trend write lending its open store to the reports of its run', () => {
  it('runs each read waiting for the write with the store it lends, and the write waits for them', async () => {
    const write = controlledWrite();
    const tracked = trackTrendWrite('/store/a', write.promise);
    const seen: string[] = [];
    const reads = Promise.all([
      afterTrendWrite('/store/a', async (lent) => `junit read ${lent?.store.name}`),
      afterTrendWrite('/store/a', async (lent) => `html read ${lent?.store.name}`),
    ]);
    const lending = lendTrendStore('/store/a', store).then(() => seen.push('lent'));
    expect(await reads).toEqual(['junit read lent-store', 'html read lent-store']);
    await lending;
    expect(seen).toEqual(['lent']);
    write.finish();
    await tracked;
  });

  it('gives a read that comes after the lending no store, and only once the write has ended', async () => {
    const write = controlledWrite();
    trackTrendWrite('/store/b', write.promise);
    await lendTrendStore('/store/b', store);
    const order: string[] = [];
    const late = afterTrendWrite('/store/b', async (lent) => {
      order.push('read');
      return lent;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    order.push('write ends');
    write.finish();
    expect(await late).toBeUndefined();
    expect(order).toEqual(['write ends', 'read']);
  });

  it('gives the waiting reads no store when the write fails before lending, and they still run', async () => {
    const write = controlledWrite();
    trackTrendWrite('/store/c', write.promise).catch(() => undefined);
    const read = afterTrendWrite('/store/c', async (lent) => (lent ? 'lent' : 'opens the store itself'));
    write.fail(new Error('the store cannot be opened'));
    expect(await read).toBe('opens the store itself');
  });

  it('passes a read failure to that read alone', async () => {
    const write = controlledWrite();
    trackTrendWrite('/store/d', write.promise);
    const failing = afterTrendWrite('/store/d', async () => {
      throw new Error('the baseline query failed');
    });
    const other = afterTrendWrite('/store/d', async (lent) => lent?.store.name);
    await lendTrendStore('/store/d', store);
    await expect(failing).rejects.toThrow('the baseline query failed');
    expect(await other).toBe('lent-store');
    write.finish();
  });

  it('reads at once, with no store, where no write is in progress', async () => {
    expect(await afterTrendWrite('/store/none', async (lent) => lent ?? 'no write')).toBe('no write');
  });
});

describe('a trend write lending the baseline it read before its append', () => {
  const lent: LentBaseline = {
    run: { id: 'this run' } as TrendRun,
    checks: [],
    baseline: { id: 'baseline' } as TrendRun,
    gate: undefined,
  };

  it('starts the gate reads waiting for it at once, without waiting for them, and the append goes on', async () => {
    const write = controlledWrite();
    trackTrendWrite('/store/e', write.promise);
    let finishRead!: () => void;
    const slowRead = new Promise<void>((resolve) => {
      finishRead = resolve;
    });
    let began: string | undefined;
    let done = false;
    const gate = afterTrendBaseline('/store/e', async (given) => {
      began = given?.baseline?.id;
      await slowRead;
      return given?.baseline?.id;
    }).finally(() => {
      done = true;
    });
    const charts = afterTrendWrite('/store/e', async (given) => given?.store.name);
    lendTrendBaseline('/store/e', lent);
    await null;
    // The gate read has begun with the baseline, and the write goes on to lend its store while that read still runs.
    expect(began).toBe('baseline');
    await lendTrendStore('/store/e', store);
    expect(done).toBe(false);
    expect(await charts).toBe('lent-store');
    finishRead();
    expect(await gate).toBe('baseline');
    write.finish();
  });

  it('gives the baseline to a read that comes after it was lent, before the write ends', async () => {
    const write = controlledWrite();
    trackTrendWrite('/store/f', write.promise);
    lendTrendBaseline('/store/f', lent);
    expect(await afterTrendBaseline('/store/f', async (given) => given?.run.id)).toBe('this run');
    write.finish();
  });

  it('gives the gate reads nothing, once the write has ended, when it ended before reading a baseline', async () => {
    const write = controlledWrite();
    trackTrendWrite('/store/g', write.promise).catch(() => undefined);
    const order: string[] = [];
    const read = afterTrendBaseline('/store/g', async (given) => {
      order.push('read');
      return given ?? 'reads the baseline itself';
    });
    order.push('write fails');
    write.fail(new Error('the store cannot be opened'));
    expect(await read).toBe('reads the baseline itself');
    expect(order).toEqual(['write fails', 'read']);
  });
});

describe("a run's reports under a trend write", () => {
  it('have their gate while the append runs, and their charts once it has appended', async () => {
    const write = controlledWrite();
    trackTrendWrite('/store/h', write.promise);
    const checks: CheckRecord[] = [];
    const history = runHistory(checks, '/store/h', '/', new Date());
    const gate = history.gate();
    let charted: unknown = 'waiting';
    const charts = history.charted().then((value) => {
      charted = value;
    });
    await null;
    const run = trendRun(2, [trendCheck()]);
    const baseline = trendRun(1, [trendCheck()]);
    // The gate the trend write computed (with its run's gate options) is the one every report renders.
    const computed = gateOf(run, baseline, { tolerance: 0.5 });
    lendTrendBaseline('/store/h', { run, checks, baseline, gate: computed });
    expect(await gate).toBe(computed);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(charted).toBe('waiting');
    const overview = { total: 2, runs: [], series: [] };
    await lendTrendStore('/store/h', {
      store: { name: 'lent', overview: async () => overview } as unknown as RunSource,
      run,
      checks,
    });
    await charts;
    expect(charted).toBe(overview);
    write.finish();
  });

  it("let the store's thread start before they build: they wait until the write's store is being opened", async () => {
    const write = controlledWrite();
    const opening = controlledWrite();
    trackTrendWrite('/store/i', write.promise, opening.promise);
    let begun = false;
    const waiting = trendWriteBegun().then(() => {
      begun = true;
    });
    // The store's opening takes turns of the event loop (its folder, its lock): a microtask is not enough.
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(begun).toBe(false);
    opening.finish();
    await waiting;
    expect(begun).toBe(true);
    // A write whose store never reaches its thread (it failed first) holds no report back once it has ended.
    const failed = controlledWrite();
    trackTrendWrite('/store/j', failed.promise, new Promise(() => undefined)).catch(() => undefined);
    const after = trendWriteBegun();
    failed.fail(new Error('cannot open'));
    await after;
    write.finish();
  });
});
