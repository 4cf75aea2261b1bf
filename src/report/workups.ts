import { resolve } from 'node:path';
import type { TaskMeta } from 'vitest';
import type { TestModule } from 'vitest/node';
import { isUserError } from '../errors/index.js';
import type { Workup } from '../model/workup.js';
import { loadWorkup } from '../workup/load.js';
import type { CheckRecord } from './checks.js';

/** A workup as a reporter got it: loaded, or the reason it could not be. */
export type LoadedWorkup = { workup: Workup } | { error: string };

/**
 * Work a reporter does once per workup that its checks name (load the workup, read its meta), started while the
 * tests still run: the main process idles while a worker runs the tests, so a workup read as soon as its tests are
 * collected costs no time at the end of the run (at 10,000 workups the HTML reporter's reading took 3 s after the
 * last test). Each workup once, in order; `load` turns a failure into a value. Loads read their files synchronously,
 * so the queue is worked in slices of a few milliseconds, each followed by a turn of the event loop: the main process
 * keeps answering the test worker while it reads.
 */
export class WorkupPreload<T> {
  private readonly results = new Map<string, Promise<T>>();
  private readonly queue: Array<{ path: string; done: (value: T) => void; fail: (error: unknown) => void }> =
    [];
  private next = 0;
  private draining = false;

  /**
   * @param load reads one workup's value.
   * @param described the value a workup's describe carries in its meta, when it carries one: that workup is not read.
   */
  constructor(
    private readonly load: (path: string) => Promise<T>,
    private readonly described: (meta: TaskMeta) => T | undefined = () => undefined,
  ) {}

  /**
   * Starts on every workup a collected test module checks (its describes' `needleworkWorkup`), or takes what its
   * describe carries (`described`): a module's tests are reported collected before they run, so most of the reading is
   * done by the time they end. The module's describes are walked at the next turn of the event loop, not in the reporter's `onTestModuleCollected`: Vitest answers the
   * test worker's collection only once every reporter's hook has returned, and the worker waits for that answer
   * before it runs the module's tests (the walk over 10,000 describes was 0.19 s of that wait, in a profile at load 10).
   */
  noteModule(module: TestModule): void {
    setImmediate(() => {
      for (const suite of module.children.allSuites()) {
        const meta = suite.meta();
        const path = meta.needleworkWorkup;
        if (!path) continue;
        const value = this.described(meta);
        if (value === undefined) this.start(path);
        else if (!this.results.has(path)) this.results.set(path, Promise.resolve(value));
      }
    });
  }

  /** Every workup the checks name, by `workupPath`: those started during the run, and the rest now. */
  async forChecks(checks: readonly CheckRecord[]): Promise<Map<string, T>> {
    const paths = new Set<string>();
    for (const check of checks) if (check.meta?.workupPath) paths.add(check.meta.workupPath);
    for (const path of paths) this.start(path);
    const out = new Map<string, T>();
    for (const path of paths) out.set(path, await this.results.get(path)!);
    return out;
  }

  /** The value of a workup this preload has started on (loading or loaded), or undefined when it has not. */
  started(path: string): Promise<T> | undefined {
    return this.results.get(path);
  }

  /** The value of one workup: started on now if it was not (read again if it was let go). */
  value(path: string): Promise<T> {
    this.start(path);
    return this.results.get(path)!;
  }

  /**
   * Lets a workup go (a preload of one reader, done with it: 10,000 workups are tens of megabytes held to the end of the
   * run); it is read again if asked for after all.
   */
  release(path: string): void {
    this.results.delete(path);
  }

  private start(path: string): void {
    if (this.results.has(path)) return;
    this.results.set(path, new Promise<T>((done, fail) => this.queue.push({ path, done, fail })));
    if (!this.draining) {
      this.draining = true;
      setImmediate(() => void this.drain());
    }
  }

  private async drain(): Promise<void> {
    const sliceEnd = performance.now() + SLICE_MS;
    while (this.next < this.queue.length && performance.now() < sliceEnd) {
      const { path, done, fail } = this.queue[this.next++]!;
      // Taken entries are dropped a block at a time: the queue neither keeps the whole run nor shifts per item.
      if (this.next === 1024) {
        this.queue.splice(0, 1024);
        this.next = 0;
      }
      await this.load(path).then(done, fail);
    }
    if (this.next < this.queue.length) setImmediate(() => void this.drain());
    else this.draining = false;
  }
}

/** How long the preload reads before it lets the event loop turn. */
const SLICE_MS = 4;

/**
 * The workups of a run, each loaded once for the reporters that show them (HTML, OTel), from the paths the checks
 * give (relative to `root` or absolute). A workup that does not load is kept as its error message: the report still
 * shows its checks and says why the note is missing.
 */
export function workupLoader(root: string): WorkupPreload<LoadedWorkup> {
  return new WorkupPreload(async (path) => {
    try {
      return { workup: await loadWorkup(resolve(root, path)) };
    } catch (error) {
      if (!isUserError(error) && !(error instanceof Error)) throw error;
      return { error: (error as Error).message };
    }
  });
}

/** The loaders of the runs in progress: by the run's specifications, then by project root. */
const runLoaders = new WeakMap<object, Map<string, WorkupPreload<LoadedWorkup>>>();

/**
 * The workup loader of one run, shared by every reporter of that run that shows workups (HTML, OTel), so that each
 * workup is read once between them: at 10,000 workups each reporter's own reading held 35 MB in the main process and
 * doubled its reading while the tests ran. A run is known by its `specifications`, the array Vitest hands every
 * reporter's `onTestRunStart`; a new run (watch mode) gets a new loader and reads its workups afresh.
 */
export function runWorkupLoader(specifications: object, root: string): WorkupPreload<LoadedWorkup> {
  let byRoot = runLoaders.get(specifications);
  if (!byRoot) {
    byRoot = new Map();
    runLoaders.set(specifications, byRoot);
  }
  let loader = byRoot.get(root);
  if (!loader) {
    loader = workupLoader(root);
    byRoot.set(root, loader);
  }
  return loader;
}

/** The workup loader of one run if a reporter of it made one (`runWorkupLoader`), without making one. */
export function existingRunWorkupLoader(
  specifications: object,
  root: string,
): WorkupPreload<LoadedWorkup> | undefined {
  return runLoaders.get(specifications)?.get(root);
}
