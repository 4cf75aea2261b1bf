import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCli } from '../../src/cli/cli.js';
import { runRegressionGate, runTrend } from '../../src/cli/commands/trend.js';
import type { Io } from '../../src/cli/io.js';
import { UsageError, UserError } from '../../src/errors/index.js';
import { appendRun } from '../../src/report/trend/history.js';
import { trendCheck, trendRun } from './trend-data.js';

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
  for (const [i, value] of values.entries()) await appendRun(file, trendRun(i + 1, [trendCheck({ value })]));
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
    expect(await runTrend({ file, failOnRegression: true }, io)).toBe(1);
    expect(err).toEqual([
      expect.stringMatching(/^1 regression against run 20261122T030100Z-00000001:$/),
      '  ✗ compound-alpha/grounded surfaced: recall 0.9 -> 0.5 (-0.4, allowed 0.02)',
    ]);
  });

  it('passes the gate within tolerance, with a wider --tolerance, and on a first run', async () => {
    expect(await runTrend({ file: await history('a.json', [0.9, 0.89]), failOnRegression: true }, io)).toBe(
      0,
    );
    expect(out.at(-1)).toBe('No regressions against run 20261122T030100Z-00000001.');
    expect(
      await runTrend(
        { file: await history('b.json', [0.9, 0.5]), failOnRegression: true, tolerance: 0.5 },
        io,
      ),
    ).toBe(0);
    expect(await runTrend({ file: await history('c.json', [0.9]), failOnRegression: true }, io)).toBe(0);
    expect(out.at(-1)).toBe('No baseline run to compare with yet.');
  });

  it('compares with the latest run of --baseline', async () => {
    const baseline = await history('main.json', [0.95]);
    const file = await history('t.json', [0.5, 0.9]);
    expect(await runTrend({ file, failOnRegression: true }, io)).toBe(0);
    expect(await runTrend({ file, baseline, failOnRegression: true }, io)).toBe(1);
    expect(err.at(-1)).toBe('  ✗ compound-alpha/grounded surfaced: recall 0.95 -> 0.9 (-0.05, allowed 0.02)');
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
    cli.parse(['node', 'needlework', 'trend', file, '--fail-on-regression'], { run: false });
    await cli.runMatchedCommand();
    expect(result.code).toBe(1);
  });

  it('offers the gate alone for needlework run, printing no table', async () => {
    const file = await history('t.json', [0.9, 0.5]);
    expect(await runRegressionGate({ history: file, failOnRegression: false }, io)).toBe(0);
    expect(out).toEqual([
      '1 regression against run 20261122T030100Z-00000001:',
      '  ✗ compound-alpha/grounded surfaced: recall 0.9 -> 0.5 (-0.4, allowed 0.02)',
    ]);
    expect(await runRegressionGate({ history: file, failOnRegression: true }, io)).toBe(1);
  });
});
