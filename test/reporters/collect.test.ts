import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reporter, TestModule } from 'vitest/node';
import type { CheckRecord } from '../../src/report/checks.js';
import { collectCaseCheck, collectChecks, collectModuleChecks } from '../../src/report/collect.js';
import { recordTrialStatistics } from '../../src/report/trials.js';
import { checkMeta, makeProject, removeProject, runVitest, testFileSource } from './harness.js';

// The reporters of one run (JUnit, HTML, trend, summary) each call collectChecks with the array of test modules Vitest
// hands them all; the collection and its trial statistics are made once per run.
describe('collectChecks shared by the reporters of one run', () => {
  let root: string;
  const seen: Array<{ run: number; checks: readonly CheckRecord[]; modules: readonly TestModule[] }> = [];
  const capture = (run: number): Reporter => ({
    onTestRunEnd(testModules) {
      seen.push({ run, checks: collectChecks(testModules, root), modules: testModules });
    },
  });

  beforeAll(async () => {
    const tests = ['t-1', 't-2'].map((task) => ({
      describe: ['spec', task],
      name: 'surfaced',
      meta: checkMeta({ spec: 'spec', workup: task, criterion: 'surfaced', task: 'task-a' }),
      outcome: 'pass' as const,
    }));
    root = await makeProject({ 'a.check.mjs': testFileSource(tests) });
    await runVitest(root, [capture(1), capture(1)]);
    await runVitest(root, [capture(2)]);
  });
  afterAll(() => removeProject(root));

  it('gives every reporter of a run the same frozen records, and a new run new ones', () => {
    const [a, b, c] = seen;
    expect(seen.map((s) => s.run)).toEqual([1, 1, 2]);
    expect(a!.modules).toBe(b!.modules);
    expect(b!.checks).toBe(a!.checks);
    expect(Object.isFrozen(a!.checks)).toBe(true);
    expect(a!.checks.map((r) => r.fullName)).toEqual(['spec > t-1 > surfaced', 'spec > t-2 > surfaced']);
    expect(c!.checks).not.toBe(a!.checks);
    expect(c!.checks.map((r) => [r.fullName, r.state])).toEqual(a!.checks.map((r) => [r.fullName, r.state]));
  });

  it('collects anew for another root', () => {
    const [a] = seen;
    const other = collectChecks(a!.modules, '/elsewhere');
    expect(other).not.toBe(a!.checks);
    expect(collectChecks(a!.modules, '/elsewhere')).toBe(other);
  });

  it('computes the trial statistics of one collection once', () => {
    const [a, , c] = seen;
    const stats = recordTrialStatistics(a!.checks);
    expect(recordTrialStatistics(a!.checks)).toBe(stats);
    expect(stats.map((s) => [s.criterion, s.overall.trials, s.overall.passes])).toEqual([['surfaced', 2, 2]]);
    expect(recordTrialStatistics(c!.checks)).not.toBe(stats);
    expect(recordTrialStatistics(c!.checks)).toEqual(stats);
  });
});

// A reporter collects each module's records as the module ends (`collectModuleChecks`, from `onTestModuleEnd`), while
// the next module runs, or each test's as the test ends (`collectCaseCheck`, from `onTestCaseResult`); the run's
// collection takes them as they are, in the same report order as without.
describe('collectModuleChecks and collectCaseCheck ahead of the run', () => {
  let root: string;
  const early: CheckRecord[][] = [];
  const ended: CheckRecord[] = [];
  let withEarly: readonly CheckRecord[] = [];
  let without: readonly CheckRecord[] = [];

  beforeAll(async () => {
    const file = (spec: string, tasks: string[]) =>
      testFileSource(
        tasks.map((task, i) => ({
          describe: [spec, task],
          name: i % 2 ? 'surfaced' : 'grounded',
          meta: checkMeta({ spec, workup: task, criterion: 'surfaced' }),
          outcome: i === 1 ? ('fail' as const) : ('pass' as const),
        })),
      );
    // Files whose report order (by file, then by full name) is not the order their tests were declared or run in.
    root = await makeProject({
      'z.check.mjs': file('zeta', ['t-9', 't-1', 't-5']),
      'a.check.mjs': file('alpha', ['t-3', 't-2']),
    });
    await runVitest(root, [
      {
        onTestCaseResult(test) {
          ended.push(collectCaseCheck(test, root));
        },
        onTestModuleEnd(testModule) {
          early.push([...collectModuleChecks(testModule, root)]);
        },
        onTestRunEnd(testModules) {
          withEarly = collectChecks(testModules, root);
        },
      },
    ]);
    await runVitest(root, [
      {
        onTestRunEnd(testModules) {
          without = collectChecks(testModules, root);
        },
      },
    ]);
  });
  afterAll(() => removeProject(root));

  it('gives the run the records collected as each module ended, in report order', () => {
    const shown = (records: readonly CheckRecord[]) => records.map((r) => [r.file, r.fullName, r.state]);
    expect(early).toHaveLength(2);
    expect(shown(withEarly)).toEqual(shown(without));
    expect(shown(withEarly)).toEqual([
      ['a.check.mjs', 'alpha > t-2 > surfaced', 'failed'],
      ['a.check.mjs', 'alpha > t-3 > grounded', 'passed'],
      ['z.check.mjs', 'zeta > t-1 > surfaced', 'failed'],
      ['z.check.mjs', 'zeta > t-5 > grounded', 'passed'],
      ['z.check.mjs', 'zeta > t-9 > grounded', 'passed'],
    ]);
    // The very records made as the modules ended: nothing was collected twice.
    for (const record of withEarly) expect(early.flat()).toContain(record);
  });

  it('gives the module and the run the record made as each test ended', () => {
    expect(ended).toHaveLength(5);
    for (const record of withEarly) expect(ended).toContain(record);
    expect(ended.find((r) => r.fullName === 'alpha > t-2 > surfaced')).toMatchObject({
      state: 'failed',
      errors: [{ name: 'Error', message: 'check failed' }],
      meta: { spec: 'alpha', workup: 't-2' },
    });
  });
});
