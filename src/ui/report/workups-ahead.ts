import { isDeepStrictEqual } from 'node:util';
import type { TestCase, TestModule } from 'vitest/node';
import { historyOrder, trendCheckOf } from '../../history/entry.js';
import type { TrendCheck } from '../../history/types.js';
import { projectPaths } from '../../io/display-path.js';
import { isCheckMeta } from '../../report/checks.js';
import type { LoadedWorkup, WorkupPreload } from '../../report/workups.js';
import type { WorkupRef } from './answers.js';
import { runWorkupAnswer } from './workups.js';
import { type EncodedText, WrittenJson } from './written-json.js';

/** How a workup's answer written with no run begins: `workupAnswer` writes the run first. */
const NO_RUN = '{"run":""';

/** How long the answers are written before the event loop turns (the main process keeps answering the test workers). */
const SLICE_MS = 4;

/** One workup's answer written ahead: the checks it was written from, and its JSON after the run's id. */
interface Written {
  checks: readonly TrendCheck[];
  rest: EncodedText;
}

/** A workup file the run's tests check. */
interface Pending {
  /** Its path as the checks give it (the preload's key). */
  path: string;
  /** How many tests the collected modules declare under its describes. */
  expected: number;
  /** The checks of its tests that have ended, as the history keeps them, in the order they ended. */
  checks: TrendCheck[];
  /** Its answers (one per workup id its checks name), once written; dropped when another check of it ends. */
  written?: Map<string, Written>;
  /** Waiting for its workup to load, or in the queue to be written. */
  queued: boolean;
  /** Its workup let go by the preload, as far as this report goes (once written). */
  released?: boolean;
}

/**
 * Each workup's answer of the static report, written while the tests still run: a workup's answer and its JSON are most
 * of the report's cost (1,000 cases: 5.2 of its 7 MB of JSON), and the main process mostly waits while the workers run
 * the tests. A workup is written once every module of the run is collected and every test declared under its
 * describes has ended (its last check known), as its JSON after the run's id (not known before the end) in UTF-8,
 * worked through in slices of a few milliseconds like the workups' reading (`WorkupPreload`). At the end a written
 * answer is taken only where the run's checks of the workup are the very checks it was written from; any other is
 * built then, as before, so the page is the same either way.
 */
export class WorkupAnswersAhead {
  private readonly pending = new Map<string, Pending>();
  /** By the workup's path from the root (what the run's checks name), or null where two paths of checks name one. */
  private readonly byProjectPath = new Map<string, Pending | null>();
  private readonly pathOf: (file: string) => string;
  private collected = 0;
  private readonly queue: Array<{ pending: Pending; found: LoadedWorkup }> = [];
  private next = 0;
  private draining = false;
  private finished = false;
  /** Workups queued (their workup loading, or waiting to be written), and who waits for none to be. */
  private waiting = 0;
  private settled: Array<() => void> = [];

  /**
   * @param workups the run's workups as its reporters read them.
   * @param modules how many test modules the run collects: until then, a workup's checks may not all be declared.
   */
  constructor(
    private readonly workups: WorkupPreload<LoadedWorkup>,
    root: string,
    private readonly modules: number,
  ) {
    this.pathOf = projectPaths(root);
  }

  /** Counts the tests a collected module declares under each workup's describe (at the next turn of the event loop). */
  noteModule(module: TestModule): void {
    setImmediate(() => {
      for (const suite of module.children.allSuites()) {
        const path = suite.meta().needleworkWorkup;
        if (!path) continue;
        let tests = 0;
        for (const _ of suite.children.allTests()) tests++;
        this.of(path).expected += tests;
      }
      if (++this.collected === this.modules) for (const pending of this.pending.values()) this.ready(pending);
    });
  }

  /** Takes a finished test's check; its workup is written once its last check is in. */
  noteTest(test: TestCase): void {
    const meta = test.meta().needlework;
    if (!isCheckMeta(meta) || meta.workupPath === undefined) return;
    const pending = this.of(meta.workupPath);
    pending.checks.push(trendCheckOf(meta, test.result().state, this.pathOf));
    delete pending.written;
    this.ready(pending);
  }

  /**
   * Writes no more: the page is being built, and a workup still waiting to be written is built there, in its turn
   * (rather than written here meanwhile, in an order the page may already have passed).
   */
  finish(): void {
    this.finished = true;
  }

  /** Resolves once every workup queued so far is written (or found not ready after all). */
  written(): Promise<void> {
    if (this.waiting === 0) return Promise.resolve();
    return new Promise((done) => this.settled.push(done));
  }

  /**
   * The answer of `ref` in the run `run`, as written ahead, when the run's checks of it are those it was written from
   * (the same values, the same evidence) and its id names one file; else undefined, and the caller builds it. Each
   * answer is given once.
   */
  answer(ref: WorkupRef, run: string): WrittenJson | undefined {
    if (ref.path === undefined || ref.files.length > 1) return undefined;
    const answers = this.byProjectPath.get(ref.path)?.written;
    const written = answers?.get(ref.workup);
    if (!written || !sameChecks(written.checks, ref.checks)) return undefined;
    // Taken once: the page packs it and lets it go, rather than hold every workup's bytes to the end.
    answers!.delete(ref.workup);
    return new WrittenJson([`{"run":${JSON.stringify(run)}`, written.rest]);
  }

  private of(path: string): Pending {
    let pending = this.pending.get(path);
    if (!pending) {
      pending = { path, expected: 0, checks: [], queued: false };
      this.pending.set(path, pending);
      const named = this.pathOf(path);
      this.byProjectPath.set(named, this.byProjectPath.has(named) ? null : pending);
    }
    return pending;
  }

  /** Queues a workup whose checks are all in, once its workup is read (one the preload has not started is left). */
  private ready(pending: Pending): void {
    if (this.finished || pending.queued || pending.written || !this.complete(pending)) return;
    const found = this.workups.started(pending.path);
    if (!found) return;
    pending.queued = true;
    this.waiting++;
    void found.then(
      (loaded) => {
        this.queue.push({ pending, found: loaded });
        if (!this.draining) {
          this.draining = true;
          setImmediate(() => this.drain());
        }
      },
      () => {
        pending.queued = false;
        this.done();
      },
    );
  }

  private complete(pending: Pending): boolean {
    return this.collected >= this.modules && pending.checks.length === pending.expected;
  }

  private drain(): void {
    const sliceEnd = performance.now() + SLICE_MS;
    while (this.next < this.queue.length && performance.now() < sliceEnd) {
      const { pending, found } = this.queue[this.next++]!;
      if (this.next === 1024) {
        this.queue.splice(0, 1024);
        this.next = 0;
      }
      pending.queued = false;
      // A check that ended since it was queued either completes it again (written now) or not (left for later).
      if (!this.finished && this.complete(pending)) {
        pending.written = this.write(pending, found);
        // The workup is not needed here any more: read again at the end should a later check drop its answer.
        if (!pending.released) this.workups.release(pending.path);
        pending.released = true;
      }
      this.done();
    }
    if (this.next < this.queue.length) setImmediate(() => this.drain());
    else this.draining = false;
  }

  private done(): void {
    if (--this.waiting > 0) return;
    for (const resolve of this.settled.splice(0)) resolve();
  }

  /** Each workup id's answer of a workup file, in the run's order of its checks, written with no run. */
  private write(pending: Pending, found: LoadedWorkup): Map<string, Written> {
    const byId = new Map<string, TrendCheck[]>();
    for (const check of pending.checks) {
      const list = byId.get(check.workup);
      if (list) list.push(check);
      else byId.set(check.workup, [check]);
    }
    const path = this.pathOf(pending.path);
    const written = new Map<string, Written>();
    for (const [workup, list] of byId) {
      const checks = list.sort(historyOrder);
      const json = JSON.stringify(runWorkupAnswer('', { workup, path, files: [path], checks }, found));
      if (!json.startsWith(NO_RUN)) continue;
      const rest = json.slice(NO_RUN.length);
      written.set(workup, { checks, rest: { bytes: Buffer.from(rest), length: rest.length } });
    }
    return written;
  }
}

/** Every field of a check as the history keeps it: what two checks are compared by. */
const FIELDS = [
  'spec',
  'case',
  'workup',
  'task',
  'trial',
  'criterion',
  'metric',
  'value',
  'verdict',
  'state',
  'unit',
  'threshold',
  'comparator',
  'reason',
  'workupPath',
  'evidence',
] as const satisfies ReadonlyArray<keyof TrendCheck>;
// A field added to TrendCheck and not to FIELDS fails to compile here.
const everyField: Exclude<keyof TrendCheck, (typeof FIELDS)[number]> extends never ? true : false = true;
void everyField;

/** Whether two lists hold the same checks, field by field (evidence alike: as a rule the very same object). */
function sameChecks(a: readonly TrendCheck[], b: readonly TrendCheck[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    for (const field of FIELDS)
      if (!Object.is(x[field], y[field]) && (field !== 'evidence' || !isDeepStrictEqual(x[field], y[field])))
        return false;
  }
  return true;
}
