import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TestCase, TestModule, TestSpecification, Vitest } from 'vitest/node';
import { NeedleworkTrendReporter } from '../../reporters/trend.js';
import { describeScope, detectScope, scopeKey } from '../../src/history/scope.js';
import { openStore } from '../../src/history/store/open.js';
import { historyOf } from '../history/read.js';
import { checkMeta } from './harness.js';

describe('detectScope', () => {
  it('is full for a plain one-shot run, partial for file filters, -t, watch or the UI', () => {
    expect(detectScope({ config: {} })).toEqual({ kind: 'full' });
    expect(detectScope({ config: { watch: false }, filenamePattern: [] })).toEqual({ kind: 'full' });
    const scope = detectScope({
      config: { watch: true, ui: true, testNamePattern: /cheap/ },
      filenamePattern: ['flights.test.ts'],
    });
    expect(scope).toEqual({
      kind: 'partial',
      files: ['flights.test.ts'],
      testNamePattern: 'cheap',
      watch: true,
      ui: true,
    });
    expect(describeScope(scope)).toBe('partial (files flights.test.ts; -t "cheap"; watch; UI)');
  });

  it('makes runs alike when they ran the same filters, in any order, watched or not', () => {
    expect(scopeKey({ kind: 'full' })).toBe(scopeKey({ kind: 'full' }));
    expect(scopeKey({ kind: 'partial', files: ['a', 'b'] })).toBe(
      scopeKey({ kind: 'partial', files: ['b', 'a'], watch: true }),
    );
    expect(scopeKey({ kind: 'partial', files: ['a'] })).not.toBe(scopeKey({ kind: 'partial', files: ['b'] }));
    expect(scopeKey({ kind: 'partial', watch: true })).not.toBe(scopeKey({ kind: 'full' }));
  });
});

describe('the trend reporter and partial runs', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'needlework-scope-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  function fakeVitest(config: Record<string, unknown>, filenamePattern?: string[]): Vitest {
    return { config: { root, ...config }, filenamePattern } as unknown as Vitest;
  }

  it('leaves a partial run out of the history unless asked, and says so', async () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      const skip = new NeedleworkTrendReporter();
      skip.onInit(fakeVitest({ watch: true }, ['a.test.ts']));
      await skip.onTestRunEnd([]);
      expect(await readdir(root)).toEqual([]);
      expect(String(write.mock.calls.at(-1)?.[0])).toBe(
        `needlework: partial (files a.test.ts; watch) run not added to the results store ${join(root, '.needlework', 'store')} (set the trend reporter's partialRuns: 'record' to add it)\n`,
      );
      const record = new NeedleworkTrendReporter({ partialRuns: 'record' });
      record.onInit(fakeVitest({ watch: true }, ['a.test.ts']));
      await record.onTestRunEnd([]);
      const full = new NeedleworkTrendReporter();
      full.onInit(fakeVitest({}));
      await full.onTestRunEnd([]);
      const store = await openStore(join(root, '.needlework', 'store'), { mustExist: true });
      const history = await historyOf(store);
      await store.close();
      expect(history.runs.map((run) => run.scope)).toEqual([
        { kind: 'partial', files: ['a.test.ts'], watch: true },
        { kind: 'full' },
      ]);
    } finally {
      write.mockRestore();
    }
  }, 120_000);

  /** A collected spec module with no workup suites. */
  const collected = { children: { allSuites: () => [] } } as unknown as TestModule;
  /** `n` spec files of `bytes` each, written under the project root (the reporter reads their sizes). */
  const specs = async (n: number, bytes = 1_000) => {
    await mkdir(join(root, 'needles'), { recursive: true });
    return Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const moduleId = join(root, 'needles', `s${i}.cases.yaml`);
        await writeFile(moduleId, 'x'.repeat(bytes));
        return { moduleId } as TestSpecification;
      }),
    );
  };
  /** Ends the run of `reporter`, which opened `store` early: the run is appended through it, and its lock released. */
  const appendsThroughIt = async (reporter: NeedleworkTrendReporter, store: string) => {
    await reporter.onTestRunEnd([]);
    expect(reporter.failure).toBeUndefined();
    expect(reporter.appendedRun).toBeDefined();
    expect(await stat(`${store}.lock`).catch(() => undefined)).toBeUndefined();
    const opened = await openStore(store, { mustExist: true });
    const history = await historyOf(opened);
    await opened.close();
    expect(history.runs.map((run) => run.id)).toEqual([reporter.appendedRun]);
  };
  /** The project's files beside the spec files the tests write. */
  const written = async () => (await readdir(root)).filter((name) => name !== 'needles');
  const until = async (ok: () => Promise<boolean>) => {
    for (let i = 0; i < 200 && !(await ok()); i++) await new Promise((done) => setTimeout(done, 50));
  };

  it('opens the store of a run of small specs when the run starts, and appends through it', async () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const store = join(root, '.needlework', 'store');
    const lock = `${store}.lock`;
    try {
      const reporter = new NeedleworkTrendReporter();
      reporter.onInit(fakeVitest({}));
      reporter.onTestRunStart(await specs(2));
      // Before any spec is collected: the main thread is idle while the test worker starts.
      await until(async () => (await stat(lock).catch(() => undefined)) !== undefined);
      expect((await stat(lock)).isFile()).toBe(true);
      reporter.onTestModuleCollected(collected);
      reporter.onTestModuleCollected(collected);
      await appendsThroughIt(reporter, store);
    } finally {
      write.mockRestore();
    }
  }, 120_000);

  /** A finished needlework test of the spec module `module`, as Vitest hands it to reporters. */
  const test = (module: object, workup: string, state: 'passed' | 'failed' = 'passed') =>
    ({
      id: `t-${workup}`,
      name: 'surfaced',
      parent: module,
      module,
      location: { line: 1, column: 1 },
      options: { mode: 'run' },
      meta: () => ({
        needlework: checkMeta({
          spec: 's0',
          workup,
          criterion: 'surfaced',
          ...(state === 'failed' && { verdict: 'fail' }),
        }),
      }),
      result: () => ({ state, errors: [] }),
      diagnostic: () => ({ duration: 1 }),
    }) as unknown as TestCase;
  /** A spec module of `workups`' tests, ended. */
  const moduleOf = (workups: string[]) => {
    const module = {
      type: 'module',
      moduleId: join(root, 'needles', 's0.cases.yaml'),
      relativeModuleId: 'needles/s0.cases.yaml',
    };
    const tests = workups.map((w, i) => test(module, w, i % 2 ? 'failed' : 'passed'));
    return Object.assign(module, {
      children: { allTests: () => tests, allSuites: () => [] },
    }) as unknown as TestModule & {
      children: { allTests(): TestCase[] };
    };
  };
  /** The workups of a stored run's checks in the order they were stored (`ord`). */
  const storedOrder = async (store: string, id: string) => {
    const opened = await openStore(store, { mustExist: true });
    try {
      const rows = await opened.engine.query<{ workup: string }>(
        'SELECT workup FROM needlework_checks WHERE run = (SELECT seq FROM needlework_runs WHERE id = $1) ORDER BY ord',
        [id],
      );
      return { stored: rows.map((r) => r.workup), read: (await opened.run(id))?.checks.map((c) => c.workup) };
    } finally {
      await opened.close();
    }
  };

  /**
   * A run of one spec module whose tests end in the order w-c, w-a, w-b, reported as they end from the `reported`-th
   * on: the workups of its stored checks in the order stored, and as read.
   */
  const runReporting = async (reported: number, { lockedUntilTheEnd = false } = {}) => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const lock = join(root, '.needlework', 'store.lock');
    try {
      if (lockedUntilTheEnd) {
        // Another live process (this one, by its pid) appending to the store when the run starts.
        await mkdir(join(root, '.needlework'), { recursive: true });
        const holder = { token: 'other', pid: process.pid, host: hostname(), time: new Date().toISOString() };
        await writeFile(lock, JSON.stringify(holder));
      }
      const reporter = new NeedleworkTrendReporter();
      reporter.onInit(fakeVitest({}));
      reporter.onTestRunStart(await specs(1));
      const module = moduleOf(['w-c', 'w-a', 'w-b']);
      reporter.onTestModuleCollected(module);
      for (const t of [...module.children.allTests()].slice(reported)) {
        await new Promise((done) => setTimeout(done, 100));
        reporter.onTestCaseResult(t);
      }
      reporter.onTestModuleEnd(module);
      if (lockedUntilTheEnd) await rm(lock);
      await reporter.onTestRunEnd([module]);
      expect(reporter.failure).toBeUndefined();
      return await storedOrder(join(root, '.needlework', 'store'), reporter.appendedRun!);
    } finally {
      write.mockRestore();
    }
  };

  it("streams each test's check into the store as the test ends, and the run reads back in the history's order", async () => {
    expect(await runReporting(0)).toEqual({ stored: ['w-c', 'w-a', 'w-b'], read: ['w-a', 'w-b', 'w-c'] });
  }, 120_000);

  it('appends the run in one piece when a test was never reported as it ended, with every check', async () => {
    expect(await runReporting(1)).toEqual({ stored: ['w-a', 'w-b', 'w-c'], read: ['w-a', 'w-b', 'w-c'] });
  }, 120_000);

  it('does not wait through its tests for a store another process holds: it opens it after them and appends in one piece', async () => {
    // Had it waited for the lock from the start, it would have streamed the checks once the lock came free, in the
    // order they ended.
    expect(await runReporting(0, { lockedUntilTheEnd: true })).toEqual({
      stored: ['w-a', 'w-b', 'w-c'],
      read: ['w-a', 'w-b', 'w-c'],
    });
  }, 120_000);

  it('closes a store it opened early when the run cannot be appended, so its lock is released', async () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const lock = `${join(root, '.needlework', 'store')}.lock`;
    try {
      const reporter = new NeedleworkTrendReporter();
      reporter.onInit(fakeVitest({}));
      reporter.onTestRunStart(await specs(1));
      reporter.onTestModuleCollected(collected);
      await until(async () => (await stat(lock).catch(() => undefined)) !== undefined);
      // A module Vitest could not have given: reading its checks throws before the append.
      const broken = new Proxy(
        {},
        {
          get() {
            throw new Error('no module');
          },
        },
      ) as unknown as TestModule;
      await expect(reporter.onTestRunEnd([broken])).rejects.toThrow('no module');
      expect(await stat(lock).catch(() => undefined)).toBeUndefined();
    } finally {
      write.mockRestore();
    }
  }, 120_000);

  it('opens nothing early for a run it will not append', async () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      const reporter = new NeedleworkTrendReporter();
      reporter.onInit(fakeVitest({ watch: true }, ['a.test.ts']));
      reporter.onTestRunStart(await specs(1));
      reporter.onTestModuleCollected(collected);
      await new Promise((done) => setTimeout(done, 300));
      expect(await written()).toEqual([]);
      await reporter.onTestRunEnd([]);
      expect(await written()).toEqual([]);
    } finally {
      write.mockRestore();
    }
  });
});
