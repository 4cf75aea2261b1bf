import { isDeepStrictEqual } from 'node:util';
import type { TestCase, TestModule } from 'vitest/node';
import { historyOrder, trendCheckOf } from '../../history/entry.js';
import type { TrendCheck } from '../../history/types.js';
import { projectPaths } from '../../io/display-path.js';
import { isCheckMeta } from '../../report/checks.js';
import { type AnswerWriting, answerKey, type WriteRequest, type WrittenAnswers } from './answer-writer.js';
import type { WorkupRef } from './answers.js';
import { WrittenJson } from './written-json.js';

/** A workup file the run's tests check. */
interface Pending {
  /** Its path as the checks give it. */
  path: string;
  /** How many tests the collected modules declare under its describes. */
  expected: number;
  /** The checks of its tests that have ended, as the history keeps them, in the order they ended. */
  checks: TrendCheck[];
  /** Its answers asked for: per workup id, the checks (in the run's order) each is written from. */
  asked?: Map<string, TrendCheck[]>;
}

/**
 * Each workup's answer of the static report, written while the tests still run: a workup's answer and its JSON are most
 * of the report's cost (1,000 cases: 5.2 of its 7 MB of JSON), and they are written where `writing` writes them (in a
 * thread of their own, see `answerWriting`), off the main thread, which answers the test workers and writes every
 * report at the end. A workup is asked for once every module of the run is collected (until then another module may
 * check it too) and every test declared under its describes has ended: its answer with no run (the run's id is known
 * only at the end), its checks in the run's order. At the end (`finish`) an answer is taken only where the run's checks
 * of the workup are the very checks it was written from; any other is built then, as before, so the page is the same
 * either way.
 */
export class WorkupAnswersAhead {
  private readonly pending = new Map<string, Pending>();
  /** By the workup's path from the root (what the run's checks name), or null where two paths of checks name one. */
  private readonly byProjectPath = new Map<string, Pending | null>();
  private readonly pathOf: (file: string) => string;
  private collected = 0;
  private finished = false;
  /** Answers to ask for at the next turn of the event loop: one message for those of one turn. */
  private asking: WriteRequest[] = [];

  /**
   * @param modules how many test modules the run collects.
   * @param writing where the answers are written.
   */
  constructor(
    root: string,
    private readonly modules: number,
    private readonly writing: AnswerWriting,
  ) {
    this.pathOf = projectPaths(root);
  }

  /**
   * Counts the tests a collected module declares under each workup's describe, and has their workups read (at the next
   * turn of the event loop: Vitest runs the module's tests once every reporter's hook has returned).
   */
  noteModule(module: TestModule): void {
    setImmediate(() => {
      const paths: string[] = [];
      for (const suite of module.children.allSuites()) {
        const path = suite.meta().needleworkWorkup;
        if (!path) continue;
        let tests = 0;
        for (const _ of suite.children.allTests()) tests++;
        const pending = this.of(path);
        if (pending.expected === 0) paths.push(path);
        pending.expected += tests;
      }
      if (!this.finished && paths.length > 0) this.writing.read(paths);
      if (++this.collected === this.modules) for (const pending of this.pending.values()) this.ready(pending);
    });
  }

  /** Takes a finished test's check; its workup's answer is asked for once its last check is in. */
  noteTest(test: TestCase): void {
    const meta = test.meta().needlework;
    if (!isCheckMeta(meta) || meta.workupPath === undefined) return;
    const pending = this.of(meta.workupPath);
    pending.checks.push(trendCheckOf(meta, test.result().state, this.pathOf));
    this.ready(pending);
  }

  /**
   * Asks for no more answers, and resolves the answers written: a function giving the answer of `ref` in the run `run`
   * where the run's checks of it are those it was written from (the same values, the same evidence) and its id names
   * one file, else undefined (the caller builds it). Each answer is given once: the page packs it and lets it go.
   */
  async finish(): Promise<(ref: WorkupRef, run: string) => WrittenJson | undefined> {
    this.finished = true;
    this.send();
    const written = await this.writing.finish();
    return (ref, run) => this.answer(written, ref, run);
  }

  /** Stops writing (a run that ends without its report, or a new run). */
  close(): void {
    this.finished = true;
    this.writing.close();
  }

  private answer(written: WrittenAnswers, ref: WorkupRef, run: string): WrittenJson | undefined {
    if (ref.path === undefined || ref.files.length > 1) return undefined;
    const pending = this.byProjectPath.get(ref.path);
    const checks = pending?.asked?.get(ref.workup);
    if (!pending || !checks || !sameChecks(checks, ref.checks)) return undefined;
    const key = answerKey(pending.path, ref.workup);
    const text = written.get(key);
    if (!text) return undefined;
    written.delete(key);
    return new WrittenJson([`{"run":${JSON.stringify(run)}`, text]);
  }

  private of(path: string): Pending {
    let pending = this.pending.get(path);
    if (!pending) {
      pending = { path, expected: 0, checks: [] };
      this.pending.set(path, pending);
      const named = this.pathOf(path);
      this.byProjectPath.set(named, this.byProjectPath.has(named) ? null : pending);
    }
    return pending;
  }

  /** Asks for a workup's answers once its checks are all in (once: a check that ends after leaves it to the end). */
  private ready(pending: Pending): void {
    if (this.finished || pending.asked || this.collected < this.modules) return;
    if (pending.checks.length !== pending.expected) return;
    const byId = new Map<string, TrendCheck[]>();
    for (const check of pending.checks) {
      const list = byId.get(check.workup);
      if (list) list.push(check);
      else byId.set(check.workup, [check]);
    }
    for (const list of byId.values()) list.sort(historyOrder);
    pending.asked = byId;
    if (this.asking.length === 0) setImmediate(() => this.send());
    this.asking.push({
      path: pending.path,
      named: this.pathOf(pending.path),
      answers: [...byId].map(([workup, checks]) => ({ workup, checks })),
    });
  }

  private send(): void {
    if (this.asking.length === 0) return;
    this.writing.write(this.asking);
    this.asking = [];
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
