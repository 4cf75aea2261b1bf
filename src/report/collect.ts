import { relative, sep } from 'node:path';
import type { TestCase, TestModule, Vitest } from 'vitest/node';
import { byteCompare } from '../model/order.js';
import { type CheckError, type CheckRecord, isCheckMeta, sortChecks } from './checks.js';
import { stripAnsi } from './text.js';

// Vitest hands every reporter's onTestRunEnd the same array of test modules, made afresh for each run: the JUnit,
// HTML, trend and summary reporters of one run share one collection (10,000 cases: 30,000 records) instead of each
// walking the tests again, and the statistics computed from the records are shared too (report/trials.ts). Keyed weakly
// by that array, so a watch re-run collects anew and nothing outlives its run.
const collected = new WeakMap<readonly TestModule[], { root: string; checks: readonly CheckRecord[] }>();

/**
 * Turns Vitest's finished test modules into check records, in report order. Works the same on a live run and on
 * `--merge-reports` blobs, because it reads only what the blobs carry: names, results, durations and `meta()`.
 * The reporters of one run get the same frozen array (none may change it or its records).
 *
 * @param root the project root the `file` of each record is made relative to (Vitest's `config.root`).
 */
export function collectChecks(testModules: readonly TestModule[], root: string): readonly CheckRecord[] {
  const cached = collected.get(testModules);
  if (cached?.root === root) return cached.checks;
  const checks = Object.freeze(collectAll(testModules, root));
  collected.set(testModules, { root, checks });
  return checks;
}

// A module's records, made once: by `collectModuleChecks` as the module ends, else when the run's are collected.
const byModule = new WeakMap<TestModule, { root: string; file: string; checks: readonly CheckRecord[] }>();

/**
 * Collects one finished test module's records ahead of the run's end, for `collectChecks` to take as they are: a
 * reporter calls it from `onTestModuleEnd`, while the test worker runs the next module and this process mostly waits
 * (10,000 cases: 0.2 s of the run's end, before the store's append could be built).
 */
export function collectModuleChecks(testModule: TestModule, root: string): readonly CheckRecord[] {
  return moduleChecks(testModule, root).checks;
}

/** A module's records in report order (see `sortChecks`), and the file they are in. */
function moduleChecks(
  testModule: TestModule,
  root: string,
): { file: string; checks: readonly CheckRecord[] } {
  const cached = byModule.get(testModule);
  if (cached?.root === root) return cached;
  const checks: CheckRecord[] = [];
  for (const test of testModule.children.allTests()) checks.push(collectCaseCheck(test, root));
  const made = { root, file: moduleFile(testModule, root), checks: sortChecks(checks) };
  byModule.set(testModule, made);
  return made;
}

// A finished test's record, made once: by `collectCaseCheck` as the test ends, else with its module's.
const byTest = new WeakMap<TestCase, { root: string; check: CheckRecord }>();

/**
 * The record of one finished test, ahead of its module's: a reporter calls it from `onTestCaseResult`, while the tests
 * run and this process mostly waits. What it reads is final once the test has ended (Vitest reports a test's result
 * after its retries and its `afterEach` hooks), so the module's and the run's records are this one.
 */
export function collectCaseCheck(test: TestCase, root: string): CheckRecord {
  const cached = byTest.get(test);
  if (cached?.root === root) return cached.check;
  const check = toRecord(test, moduleFile(test.module, root));
  byTest.set(test, { root, check });
  return check;
}

const moduleFiles = new WeakMap<TestModule, { root: string; file: string }>();

/**
 * A module's file as its records name it: Vitest's own relative id, computed where the file was collected, so shards
 * checked out at different paths on different CI machines still name a file the same way in a merged report.
 */
function moduleFile(testModule: TestModule, root: string): string {
  const cached = moduleFiles.get(testModule);
  if (cached?.root === root) return cached.file;
  const file = (testModule.relativeModuleId || relative(root, testModule.moduleId)).split(sep).join('/');
  moduleFiles.set(testModule, { root, file });
  return file;
}

function collectAll(testModules: readonly TestModule[], root: string): CheckRecord[] {
  const modules = testModules.map((testModule) => moduleChecks(testModule, root));
  // Each module sorted already: modules of distinct files are put in order by file (report order sorts by file first);
  // two modules of one file (one file in two projects) have their records sorted together, as one list.
  if (new Set(modules.map((m) => m.file)).size < modules.length)
    return sortChecks(modules.flatMap((m) => m.checks));
  return [...modules].sort((a, b) => byteCompare(a.file, b.file)).flatMap((m) => m.checks);
}

function toRecord(test: TestCase, file: string): CheckRecord {
  const result = test.result();
  const suitePath: string[] = [];
  for (let parent = test.parent; parent.type === 'suite'; parent = parent.parent)
    suitePath.unshift(parent.name);
  const meta = test.meta().needlework;
  const record: CheckRecord = {
    name: test.name,
    suitePath,
    fullName: [...suitePath, test.name].join(' > '),
    file,
    state: result.state,
    durationMs: test.diagnostic()?.duration ?? 0,
    errors: (result.errors ?? []).map(toError),
  };
  if (test.location) record.line = test.location.line;
  if (result.state === 'skipped') {
    const note = result.note ?? (test.options.mode === 'todo' ? 'todo' : undefined);
    if (note !== undefined) record.skipNote = note;
  }
  if (isCheckMeta(meta)) record.meta = meta;
  return record;
}

function toError(error: { name?: string; message?: string; stack?: string }): CheckError {
  const out: CheckError = { name: error.name ?? 'Error', message: stripAnsi(error.message ?? '') };
  if (error.stack) out.stack = stripAnsi(error.stack);
  return out;
}

/**
 * Asks Vitest to record where each test stands (`CheckRecord.line`), unless the user's config says otherwise: the
 * reporters that link a test to its line call it from `onInit`, before any test file is collected.
 */
export function recordTestLocations(vitest: Vitest): void {
  vitest.config.includeTaskLocation ??= true;
  for (const project of vitest.projects) project.config.includeTaskLocation ??= true;
}
