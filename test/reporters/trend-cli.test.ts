import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCli } from '../../src/cli/cli.js';
import { runRegressionGate, runTrend } from '../../src/cli/commands/trend.js';
import type { Io } from '../../src/cli/io.js';
import { UsageError, UserError } from '../../src/errors/index.js';
import type { TrendRun, TrendScope } from '../../src/history/types.js';
import { addToHistoryFile, trendCheck, trendRun } from './trend-data.js';

let dir: string;
let out: string[];
let err: string[];
let io: Io;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'needlework-trend-cli-'));
  out = [];
  err = [];
  io = { out: (t) => out.push(t), err: (t) => err.push(t), color: false };
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function history(name: string, values: number[]): Promise<string> {
  const file = join(dir, name);
  for (const [i, value] of values.entries())
    await addToHistoryFile(file, trendRun(i + 1, [trendCheck({ value })]));
  return file;
}

describe('needlework trend', () => {
  it('prints the table and exits 0 without a gate, even after a fall', async () => {
    const file = await history('t.json', [0.9, 0.5]);
    expect(await runTrend({ file }, io)).toBe(0);
    expect(out.join('\n')).toContain('Runs (last 2 of 2)');
    expect(out.join('\n')).toContain('compound-alpha  surfaced   recall  0.5   -0.4  █▁');
    expect(err).toEqual([]);
  });

  it('exits 1 with --fail-on-regression when a metric fell past its tolerance', async () => {
    const file = await history('t.json', [0.9, 0.5]);
    expect(await runTrend({ file, failOnRegression: true, tolerance: 0.02 }, io)).toBe(1);
    expect(err).toEqual([
      'vs 20261122T030100Z-00000001: 1 regressed',
      '  regressed: compound-alpha/grounded surfaced: pass (recall 0.9) -> pass (recall 0.5) (past the tolerance 0.02)',
      '  1 regressed, 0 fixed, 0 flaky, 0 moved, 0 still failing, 0 added, 0 removed, 0 unchanged',
    ]);
  });

  it('passes the gate within tolerance, with a wider --tolerance, and on a first run', async () => {
    expect(
      await runTrend(
        { file: await history('a.json', [0.9, 0.89]), failOnRegression: true, tolerance: 0.02 },
        io,
      ),
    ).toBe(0);
    expect(out.at(-1)).toBe('vs 20261122T030100Z-00000001: nothing regressed');
    expect(
      await runTrend(
        { file: await history('b.json', [0.9, 0.5]), failOnRegression: true, tolerance: 0.5 },
        io,
      ),
    ).toBe(0);
    expect(
      await runTrend({ file: await history('c.json', [0.9]), failOnRegression: true, tolerance: 0.02 }, io),
    ).toBe(0);
    expect(out.at(-1)).toBe('No baseline run to compare with yet.');
  });

  it('compares with the latest run of --baseline', async () => {
    const baseline = await history('main.json', [0.95]);
    const file = await history('t.json', [0.5, 0.9]);
    expect(await runTrend({ file, failOnRegression: true, tolerance: 0.02 }, io)).toBe(0);
    expect(await runTrend({ file, baseline, failOnRegression: true, tolerance: 0.02 }, io)).toBe(1);
    expect(err[1]).toBe(
      '  regressed: compound-alpha/grounded surfaced: pass (recall 0.95) -> pass (recall 0.9) (past the tolerance 0.02)',
    );
  });

  it('reports a missing history as a user mistake and a bad number as a usage error', async () => {
    await expect(runTrend({ file: join(dir, 'nope.json') }, io)).rejects.toThrow(UserError);
    await expect(runTrend({ file: join(dir, 'nope.json') }, io)).rejects.toThrow(
      'no such trend history (run the tests with the trend reporter first)',
    );
    await expect(runTrend({ file: 'x', last: Number.NaN }, io)).rejects.toThrow(
      new UsageError('--last expects a non-negative number, got NaN'),
    );
  });

  it('is registered on the command line with its options', async () => {
    const file = await history('t.json', [0.9, 0.5]);
    const result = { code: 0 };
    const cli = createCli(io, result);
    cli.parse(
      ['node', 'needlework', 'trend', file, '--fail-on-regression', '--tolerance', '0.5', '--last', '1'],
      {
        run: false,
      },
    );
    await cli.runMatchedCommand();
    expect(result.code).toBe(0);
    expect(out[0]).toContain('Runs (last 1 of 2)');
    cli.parse(['node', 'needlework', 'trend', file, '--fail-on-regression', '--tolerance', '0.02'], {
      run: false,
    });
    await cli.runMatchedCommand();
    expect(result.code).toBe(1);
  });

  it('offers the gate alone for needlework run, printing no table', async () => {
    const file = await history('t.json', [0.9, 0.5]);
    expect(await runRegressionGate({ history: file, failOnRegression: false, tolerance: 0.02 }, io)).toBe(0);
    expect(out).toEqual([
      'vs 20261122T030100Z-00000001: 1 regressed',
      '  regressed: compound-alpha/grounded surfaced: pass (recall 0.9) -> pass (recall 0.5) (past the tolerance 0.02)',
      '  1 regressed, 0 fixed, 0 flaky, 0 moved, 0 still failing, 0 added, 0 removed, 0 unchanged',
    ]);
    expect(await runRegressionGate({ history: file, failOnRegression: true, tolerance: 0.02 }, io)).toBe(1);
  });
});

/**
 * A run of `trials` trials of which the first `passes` pass (the value is the verdict): trials of task `t`, or with
 * `task: null` workups that name no task (each its own task of one trial).
 */
function trialRun(
  minute: number,
  passes: number,
  trials: number,
  extra: Partial<TrendRun> = {},
  task: string | null = 't',
) {
  const checks = Array.from({ length: trials }, (_, i) =>
    trendCheck({
      workup: `w-${String(i + 1).padStart(2, '0')}`,
      ...(task !== null && { task, trial: i + 1 }),
      criterion: 'grounded',
      metric: 'grounded',
      value: i < passes,
      verdict: i < passes ? 'pass' : 'fail',
    }),
  );
  return trendRun(minute, checks, extra);
}

describe('needlework trend: the statistical gate (the default)', () => {
  async function write(name: string, runs: TrendRun[]): Promise<string> {
    const file = join(dir, name);
    for (const run of runs) await addToHistoryFile(file, run);
    return file;
  }

  it('fails on a significant drop, naming the counts, the p-value and the test', async () => {
    const file = await write('t.json', [trialRun(1, 27, 30), trialRun(2, 12, 30)]);
    expect(await runRegressionGate({ history: file, failOnRegression: true }, io)).toBe(1);
    expect(err).toEqual([
      'vs 20261122T030100Z-00000001: 1 regressed',
      '  regressed: compound-alpha/t grounded: 27/30 passed -> 12/30 passed (p < 0.001, exact test)',
      '  exact test at level 0.05: compound-alpha grounded: regressed: pass rate 27/30 (90%) -> 12/30 (40%) over 1 case, p < 0.001 (Cochran-Mantel-Haenszel test, stratified by case)',
      '    ↓ t: 27/30 (90%) -> 12/30 (40%), p < 0.001 (Mantel-Haenszel z-test)',
      '  1 regressed, 0 fixed, 0 flaky, 0 moved, 0 still failing, 0 added, 0 removed, 0 unchanged',
    ]);
  });

  it('names each case that flipped from pass to fail with one trial a side, and says one trial cannot tell', async () => {
    // Workups naming no task are each their own case: 10 cases of one trial, paired across the runs; two fell.
    const file = await write('t.json', [trialRun(1, 8, 10, {}, null), trialRun(2, 6, 10, {}, null)]);
    expect(await runRegressionGate({ history: file, failOnRegression: true }, io)).toBe(1);
    expect(err).toEqual([
      'vs 20261122T030100Z-00000001: 2 regressed; 2 still failing',
      '  regressed: compound-alpha/w-07 grounded: pass -> fail (one trial a side)',
      '  regressed: compound-alpha/w-08 grounded: pass -> fail (one trial a side)',
      '  2 regressed, 0 fixed, 0 flaky, 0 moved, 2 still failing, 0 added, 0 removed, 6 unchanged',
      '  note: one trial a side cannot tell a regression from chance: record several trials of each task (workups sharing a meta.task) and the exact test decides (docs/gate.md)',
    ]);
    // With repeats, the same fall (8/10 -> 6/10 of one task) is within the noise: no regression, and it says why.
    const repeats = await write('r.json', [trialRun(1, 8, 10), trialRun(2, 6, 10)]);
    expect(await runRegressionGate({ history: repeats, failOnRegression: true }, io)).toBe(0);
    expect(out).toEqual([
      'vs 20261122T030100Z-00000001: nothing regressed, 1 flaky',
      '  flaky: compound-alpha/t grounded: 8/10 passed -> 6/10 passed',
      '  exact test at level 0.05: compound-alpha grounded: flaky (passes in some trials and fails in others on case t); no significant change: pass rate 8/10 (80%) -> 6/10 (60%) over 1 case, p = 0.314 (exact conditional test, stratified by case); the smallest drop detectable is 57 points',
      '  0 regressed, 0 fixed, 1 flaky, 0 moved, 0 still failing, 0 added, 0 removed, 0 unchanged',
    ]);
  });

  it('compares only the cases both runs hold, and says which were added and removed', async () => {
    const tasks = (minute: number, spec: Array<[string, number]>) =>
      trendRun(
        minute,
        spec.flatMap(([task, passes]) =>
          trialRun(minute, passes, 10, {}, task).checks.map((c) => ({ ...c, workup: `${task}/${c.workup}` })),
        ),
      );
    const file = await write('t.json', [
      tasks(1, [
        ['a', 10],
        ['b', 10],
      ]),
      tasks(2, [
        ['a', 10],
        ['c', 0],
      ]),
    ]);
    // Pooled, 20/20 -> 10/20 would be a regression; case by case nothing that both runs hold changed.
    expect(await runRegressionGate({ history: file, failOnRegression: true }, io)).toBe(0);
    // Nothing both runs hold changed; the added case fails all its trials: a failure the baseline did not have, named.
    expect(out).toEqual([
      'vs 20261122T030100Z-00000001: nothing regressed; 1 added (1 failing), 1 removed',
      '  added, failing: compound-alpha/c grounded: - -> 0/10 passed',
      '  0 regressed, 0 fixed, 0 flaky, 0 moved, 0 still failing, 1 added, 1 removed, 1 unchanged',
    ]);
  });

  it('reports an improvement and a flaky criterion', async () => {
    const up = await write('up.json', [trialRun(1, 10, 30), trialRun(2, 28, 30)]);
    expect(await runRegressionGate({ history: up, failOnRegression: true }, io)).toBe(0);
    expect(out).toEqual([
      'vs 20261122T030100Z-00000001: nothing regressed, 1 fixed',
      '  fixed: compound-alpha/t grounded: 10/30 passed -> 28/30 passed (exact test)',
      '  exact test at level 0.05: compound-alpha grounded: improved: pass rate 10/30 (33%) -> 28/30 (93%) over 1 case, p < 0.001 (Cochran-Mantel-Haenszel test, stratified by case)',
      '  0 regressed, 1 fixed, 0 flaky, 0 moved, 0 still failing, 0 added, 0 removed, 0 unchanged',
    ]);
    out.length = 0;
    const flaky = await write('flaky.json', [trialRun(1, 5, 5), trialRun(2, 4, 5)]);
    expect(await runRegressionGate({ history: flaky, failOnRegression: true }, io)).toBe(0);
    expect(out).toEqual([
      'vs 20261122T030100Z-00000001: nothing regressed, 1 flaky',
      '  flaky: compound-alpha/t grounded: 5/5 passed -> 4/5 passed',
      '  exact test at level 0.05: compound-alpha grounded: flaky (passes in some trials and fails in others on case t); no significant change: pass rate 5/5 (100%) -> 4/5 (80%) over 1 case, p = 0.500 (exact conditional test, stratified by case); the smallest drop detectable is 83 points',
      '  0 regressed, 0 fixed, 1 flaky, 0 moved, 0 still failing, 0 added, 0 removed, 0 unchanged',
    ]);
  });

  it('compares like with like: a full run with the last full run, a partial run only with the same filters', async () => {
    const partial: TrendScope = { kind: 'partial', files: ['a.test.ts'] };
    const file = await write('t.json', [
      trialRun(1, 30, 30),
      trialRun(2, 3, 30, { scope: partial }),
      trialRun(3, 29, 30),
    ]);
    // The full run is compared with the first full run, not with the partial run between them.
    expect(await runRegressionGate({ history: file, failOnRegression: true }, io)).toBe(0);
    expect(out[0]).toBe('vs 20261122T030100Z-00000001: nothing regressed, 1 flaky');
    await addToHistoryFile(file, trialRun(4, 3, 30, { scope: { kind: 'partial', files: ['b.test.ts'] } }));
    expect(await runRegressionGate({ history: file, failOnRegression: true }, io)).toBe(0);
    expect(out.at(-1)).toBe(
      'No baseline run of the same scope (partial (files b.test.ts)) to compare with yet: 3 earlier runs are of another scope.',
    );
  });

  it('takes --level on the command line, and refuses it out of range', async () => {
    const file = await write('t.json', [trialRun(1, 8, 10), trialRun(2, 6, 10)]);
    const result = { code: 0 };
    const cli = createCli(io, result);
    cli.parse(['node', 'needlework', 'trend', file, '--fail-on-regression', '--level', '0.4'], {
      run: false,
    });
    await cli.runMatchedCommand();
    expect(result.code).toBe(1);
    expect(err[0]).toBe('vs 20261122T030100Z-00000001: 1 regressed');
    expect(err[2]).toMatch(
      /^ {2}exact test at level 0\.4: compound-alpha grounded: regressed: pass rate 8\/10/,
    );
    await expect(runTrend({ file, level: 0.7 }, io)).rejects.toThrow(
      new UsageError('--level expects a probability between 0 and 0.5, like 0.05; got 0.7'),
    );
  });

  it('reads the results store by default, importing needlework-report/trend.json on first use and saying so', async () => {
    const cwd = process.cwd();
    process.chdir(dir);
    const store = process.env.NEEDLEWORK_STORE;
    delete process.env.NEEDLEWORK_STORE;
    try {
      await expect(runTrend({}, io)).rejects.toThrow(
        '.needlework/store: no such results store (run the tests with the trend reporter first)',
      );
      await write('needlework-report/trend.json', [trialRun(1, 3, 3), trialRun(2, 3, 3)]);
      expect(await runTrend({}, io)).toBe(0);
      expect(out[0]).toBe(
        'needlework: imported 2 runs from needlework-report/trend.json into the new results store .needlework/store (the file is no longer written; `needlework trend export` writes one)',
      );
      expect(out[1]).toMatch(/^Runs \(last 2 of 2\)\n/);
      // Imported once: the next use reads the store and says nothing of the file.
      await write('needlework-report/trend.json', [trialRun(3, 3, 3)]);
      out.length = 0;
      expect(await runTrend({}, io)).toBe(0);
      expect(out[0]).toMatch(/^Runs \(last 2 of 2\)\n/);
      // A folder that is not a store is one line saying so, not EISDIR.
      await expect(runTrend({ file: 'needlework-report' }, io)).rejects.toThrow(
        'needlework-report: cannot open the results store: the folder holds files but is not a needlework store (it has no PG_VERSION)',
      );
    } finally {
      if (store !== undefined) process.env.NEEDLEWORK_STORE = store;
      process.chdir(cwd);
    }
  }, 120_000);
});
