import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Ajv } from 'ajv';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors/index.js';
import { findRegressions } from '../../src/history/compare.js';
import { buildTrendRun } from '../../src/history/entry.js';
import { checkRegressions, formatRegression } from '../../src/history/gate.js';
import { appendRun, readHistory } from '../../src/history/history.js';
import { withLock } from '../../src/history/store/lock.js';
import { detectRevision } from '../../src/history/revision.js';
import type { TrendHistory } from '../../src/history/types.js';
import type { CheckRecord } from '../../src/report/checks.js';
import { sparkline } from '../../src/report/sparkline.js';
import { renderTrendTable } from '../../src/report/trend-table.js';
import trendSchema from '../../src/schemas/trend.schema.json' with { type: 'json' };
import { checkMeta } from './harness.js';
import { trendCheck, trendRun } from './trend-data.js';

const repoRoot = resolve(import.meta.dirname, '../..');
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'needlework-trend-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const validate = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(trendSchema);

function record(overrides: Partial<CheckRecord> & Pick<CheckRecord, 'meta'>): CheckRecord {
  return {
    name: 'n',
    suitePath: [],
    fullName: 'n',
    file: 'f.ts',
    state: 'passed',
    durationMs: 5,
    errors: [],
    ...overrides,
  };
}

describe('buildTrendRun', () => {
  it('records every check in byte order with a summary, and leaves plain tests out', () => {
    const run = buildTrendRun(
      [
        record({
          meta: checkMeta({ spec: 'b', workup: 'w', criterion: 'surfaced', value: 0.5, verdict: 'fail' }),
          state: 'failed',
        }),
        record({ meta: undefined }),
        record({
          meta: checkMeta({
            spec: 'B',
            workup: 'w',
            criterion: 'hops',
            metric: 'pivot_burden',
            value: 4,
            unit: 'queries',
            threshold: 6,
            comparator: '<=',
          }),
        }),
        record({
          meta: checkMeta({
            spec: 'b',
            workup: 'w',
            criterion: 'cost',
            value: null,
            verdict: 'not-applicable',
          }),
          state: 'skipped',
        }),
      ],
      { commit: 'abc123', branch: 'main', source: 'github' },
      new Date('2026-11-22T03:04:05.678Z'),
    );
    expect(run.id).toMatch(/^20261122T030405Z-[0-9a-f]{8}$/);
    expect({ ...run, id: '<id>' }).toEqual({
      id: '<id>',
      time: '2026-11-22T03:04:05.678Z',
      commit: 'abc123',
      branch: 'main',
      source: 'github',
      scope: { kind: 'full' },
      summary: { checks: 3, passed: 1, failed: 1, notApplicable: 1, skipped: 1, passRate: 0.5 },
      checks: [
        {
          spec: 'B',
          workup: 'w',
          criterion: 'hops',
          metric: 'pivot_burden',
          value: 4,
          unit: 'queries',
          threshold: 6,
          comparator: '<=',
          verdict: 'pass',
          state: 'passed',
        },
        {
          spec: 'b',
          workup: 'w',
          criterion: 'cost',
          metric: 'recall',
          value: null,
          threshold: 0.8,
          comparator: '>=',
          verdict: 'not-applicable',
          state: 'skipped',
        },
        {
          spec: 'b',
          workup: 'w',
          criterion: 'surfaced',
          metric: 'recall',
          value: 0.5,
          threshold: 0.8,
          comparator: '>=',
          verdict: 'fail',
          state: 'failed',
        },
      ],
      // The skipped check is no trial; each workup without a task is its own task.
      trials: [
        {
          spec: 'B',
          criterion: 'hops',
          task: 'w',
          metric: 'pivot_burden',
          trials: 1,
          passes: 1,
          notApplicable: 0,
        },
        {
          spec: 'b',
          criterion: 'surfaced',
          task: 'w',
          metric: 'recall',
          trials: 1,
          passes: 0,
          notApplicable: 0,
        },
      ],
    });
    expect(validate({ schema: 2, runs: [run] }), JSON.stringify(validate.errors)).toBe(true);
  });

  it("counts the trials of a task across its workups, and records each check's task and trial and the scope", () => {
    const trial = (workup: string, n: number, verdict: 'pass' | 'fail') =>
      record({
        meta: checkMeta({ spec: 's', workup, task: 'book-flight', trial: n, criterion: 'surfaced', verdict }),
      });
    const run = buildTrendRun(
      [trial('a', 1, 'pass'), trial('b', 2, 'fail'), trial('c', 3, 'pass')],
      {},
      new Date('2026-11-22T03:04:05.678Z'),
      { kind: 'partial', files: ['a.test.ts'], watch: true },
    );
    expect(run.trials).toEqual([
      {
        spec: 's',
        criterion: 'surfaced',
        task: 'book-flight',
        metric: 'recall',
        trials: 3,
        passes: 2,
        notApplicable: 0,
      },
    ]);
    expect(run.checks.map((c) => [c.workup, c.task, c.trial])).toEqual([
      ['a', 'book-flight', 1],
      ['b', 'book-flight', 2],
      ['c', 'book-flight', 3],
    ]);
    expect(run.scope).toEqual({ kind: 'partial', files: ['a.test.ts'], watch: true });
    expect(validate({ schema: 2, runs: [run] }), JSON.stringify(validate.errors)).toBe(true);
  });

  it('gives a null pass rate when nothing was decided', () => {
    expect(buildTrendRun([], {}).summary.passRate).toBeNull();
  });
});

describe('the trend JSON Schema', () => {
  it('rejects an entry with a missing verdict or a pass rate above 1', () => {
    const run = trendRun(1, [trendCheck()]);
    expect(validate({ schema: 2, runs: [run] })).toBe(true);
    const { verdict: _, ...noVerdict } = trendCheck();
    expect(validate({ schema: 2, runs: [{ ...run, checks: [noVerdict] }] })).toBe(false);
    expect(validate({ schema: 2, runs: [{ ...run, summary: { ...run.summary, passRate: 1.5 } }] })).toBe(
      false,
    );
  });
});

describe('detectRevision', () => {
  const noGit = async () => undefined;

  it('prefers the pull request head branch on GitHub', async () => {
    expect(
      await detectRevision(
        '.',
        { GITHUB_SHA: 'a1', GITHUB_REF_NAME: '12/merge', GITHUB_HEAD_REF: 'feature' },
        noGit,
      ),
    ).toEqual({ commit: 'a1', branch: 'feature', source: 'github' });
    expect(
      await detectRevision('.', { GITHUB_SHA: 'a1', GITHUB_REF_NAME: 'main', GITHUB_HEAD_REF: '' }, noGit),
    ).toEqual({
      commit: 'a1',
      branch: 'main',
      source: 'github',
    });
  });

  it('reads GitLab variables', async () => {
    expect(await detectRevision('.', { CI_COMMIT_SHA: 'b2', CI_COMMIT_REF_NAME: 'dev' }, noGit)).toEqual({
      commit: 'b2',
      branch: 'dev',
      source: 'gitlab',
    });
  });

  it('falls back to git, and names no branch on a detached HEAD', async () => {
    const git = (branch: string) => async (args: string[]) => (args.includes('--abbrev-ref') ? branch : 'c3');
    expect(await detectRevision('.', {}, git('topic'))).toEqual({
      commit: 'c3',
      branch: 'topic',
      source: 'git',
    });
    expect(await detectRevision('.', {}, git('HEAD'))).toEqual({ commit: 'c3', source: 'git' });
    expect(await detectRevision('.', {}, noGit)).toEqual({});
  });
});

describe('findRegressions', () => {
  const base = trendRun(1, [
    trendCheck({ value: 0.9 }),
    trendCheck({
      criterion: 'hops',
      metric: 'pivot_burden',
      value: 4,
      unit: 'queries',
      threshold: 6,
      comparator: '<=',
    }),
    trendCheck({ criterion: 'flag', metric: 'grounded', value: true, threshold: undefined }),
  ]);

  it('flags a score that fell by more than the tolerance, and not one that fell by exactly it', () => {
    const within = trendRun(2, [trendCheck({ value: 0.88 }), ...base.checks.slice(1)]);
    expect(findRegressions(base, within)).toEqual([]);
    const beyond = trendRun(2, [trendCheck({ value: 0.85 }), ...base.checks.slice(1)]);
    const [regression] = findRegressions(base, beyond);
    expect(regression).toMatchObject({ criterion: 'surfaced', before: 0.9, after: 0.85, reason: 'worse' });
    expect(formatRegression(regression!)).toBe(
      'compound-alpha/grounded surfaced: recall 0.9 -> 0.85 (-0.05, allowed 0.02)',
    );
    expect(findRegressions(base, beyond, { tolerance: 0.1 })).toEqual([]);
  });

  it('treats a rise as the regression of a lower-is-better metric, with a relative tolerance for units', () => {
    const rise = (value: number) =>
      trendRun(2, [base.checks[0]!, { ...base.checks[1]!, value }, base.checks[2]!]);
    expect(findRegressions(base, rise(3))).toEqual([]);
    expect(findRegressions(base, rise(4.4))).toEqual([]);
    expect(findRegressions(base, rise(5)).map(formatRegression)).toEqual([
      'compound-alpha/grounded hops: pivot_burden 4 queries -> 5 queries (+1, allowed 0.4)',
    ]);
  });

  it('flags a boolean that became false and a verdict that became fail', () => {
    const now = trendRun(2, [
      trendCheck({ value: 0.89, verdict: 'fail', threshold: 0.895 }),
      base.checks[1]!,
      { ...base.checks[2]!, value: false },
    ]);
    expect(findRegressions(base, now).map((r) => [r.criterion, r.reason])).toEqual([
      ['surfaced', 'verdict'],
      ['flag', 'worse'],
    ]);
  });

  it('does not compare checks missing from either run or not applicable', () => {
    const now = trendRun(2, [
      trendCheck({ value: null, verdict: 'not-applicable' }),
      trendCheck({ workup: 'new', value: 0 }),
    ]);
    expect(findRegressions(base, now)).toEqual([]);
  });
});

describe('sparkline', () => {
  it('scales between the minimum and maximum, draws gaps and flat series', () => {
    expect(sparkline([0, 0.5, 1])).toBe('▁▅█');
    expect(sparkline([2, undefined, 9])).toBe('▁ █');
    expect(sparkline([0.7, 0.7])).toBe('▄▄');
    expect(sparkline([])).toBe('');
  });
});

describe('renderTrendTable', () => {
  it('shows runs with pass-rate deltas and each metric mean with its delta and sparkline', () => {
    const runs = [
      trendRun(1, [trendCheck({ value: 1 }), trendCheck({ workup: 'w2', value: 0.8 })], {
        commit: 'abcdef123',
        branch: 'main',
      }),
      trendRun(2, [trendCheck({ value: 0.6, verdict: 'fail' }), trendCheck({ workup: 'w2', value: 0.8 })]),
      trendRun(3, [trendCheck({ value: 0.9 }), trendCheck({ workup: 'w2', value: 0.9 })]),
    ];
    expect(renderTrendTable({ schema: 2, runs }, { last: 10 })).toMatchInlineSnapshot(`
      "Runs (last 3 of 3)
      run                        time                 commit   branch  pass rate  Δ    pass  fail  n/a
      20261122T030100Z-00000001  2026-11-22 03:01:00  abcdef1  main    100.0%          2     0     0
      20261122T030200Z-00000002  2026-11-22 03:02:00  -        -       50.0%      -50  1     1     0
      20261122T030300Z-00000003  2026-11-22 03:03:00  -        -       100.0%     +50  2     0     0
      pass rate █▁█

      Metrics (mean over workups)
      spec            criterion  metric  mean  Δ     trend
      compound-alpha  surfaced   recall  0.9   +0.2  █▁█"
    `);
    expect(renderTrendTable({ schema: 2, runs: [] })).toBe('No runs recorded yet.');
  });
});

describe('appendRun', () => {
  it('keeps only the last maxRuns, oldest dropped, and leaves no temporary or lock file', async () => {
    const file = join(dir, 'nested', 'trend.json');
    for (let minute = 1; minute <= 5; minute++)
      await appendRun(file, trendRun(minute, [trendCheck()]), { maxRuns: 3 });
    const history = await readHistory(file);
    expect(history.runs.map((run) => run.time.slice(11, 16))).toEqual(['03:03', '03:04', '03:05']);
    expect(await readdir(join(dir, 'nested'))).toEqual(['trend.json']);
    expect(validate(JSON.parse(await readFile(file, 'utf8')))).toBe(true);
  });

  it('keeps runs in time order when an older run arrives late, one run per line', async () => {
    const file = join(dir, 'trend.json');
    await appendRun(file, trendRun(5, [trendCheck()]));
    await appendRun(file, trendRun(9, [trendCheck()]));
    await appendRun(file, trendRun(7, [trendCheck()]));
    const text = await readFile(file, 'utf8');
    expect(text.split('\n').map((line) => /^\{"id":"([^"]+)","time":/.exec(line)?.[1] ?? line)).toEqual([
      '{"schema":2,"runs":[',
      '20261122T030500Z-00000005',
      '20261122T030700Z-00000007',
      '20261122T030900Z-00000009',
      ']}',
      '',
    ]);
    expect(validate(JSON.parse(text))).toBe(true);
  });

  it('keeps every other run byte for byte on the fast path: text in any script, JSON escapes, long ids with quotes', async () => {
    const file = join(dir, 'trend.json');
    const named = (workup: string) => [trendCheck({ workup, spec: 'compound-α' })];
    const longId = `run "${'é'.repeat(300)}" \\ done`;
    await appendRun(file, trendRun(3, named('résumé-工作-🧵')));
    await appendRun(file, trendRun(8, named('plain'), { id: longId }));
    // A \u escape is valid JSON that serialising again would not write (it writes é itself): only a line kept as
    // its bytes keeps it.
    await writeFile(file, (await readFile(file, 'utf8')).replace('résumé', 'r\\u00e9sum\\u00e9'));
    const before = await readFile(file);
    expect(before.toString('utf8')).toContain('r\\u00e9sum\\u00e9');
    await appendRun(file, trendRun(5, named('late')));
    // The fast path moves bytes and checks none; the reader checks them all (the reporter never writes such an id).
    await expect(readHistory(file)).rejects.toThrow(/trend\.json:4:7: runs\[2\]\.id must match/);
    const runs = (JSON.parse(await readFile(file, 'utf8')) as TrendHistory).runs;
    expect(runs.map((run) => [run.id, run.checks[0]!.workup])).toEqual([
      ['20261122T030300Z-00000003', 'résumé-工作-🧵'],
      ['20261122T030500Z-00000005', 'late'],
      [longId, 'plain'],
    ]);
    // The runs that were there are the same bytes: the late run's line went in between them.
    const lines = before.toString('utf8').split('\n');
    const after = (await readFile(file, 'utf8')).split('\n');
    expect(after[1]).toBe(lines[1]);
    expect(after[3]).toBe(lines[2]);
  });

  it('appends to a hand-formatted history by parsing it, and writes it back in its own layout', async () => {
    const file = join(dir, 'trend.json');
    await writeFile(file, JSON.stringify({ schema: 2, runs: [trendRun(1, [trendCheck()])] }, null, 2));
    await appendRun(file, trendRun(2, [trendCheck()]));
    expect((await readHistory(file)).runs.map((run) => run.id)).toEqual([
      '20261122T030100Z-00000001',
      '20261122T030200Z-00000002',
    ]);
    expect((await readFile(file, 'utf8')).split('\n')).toHaveLength(5);
  });

  it('reads a version 1 history as full runs with counted trials, and rewrites it as version 2 on the next append', async () => {
    const file = join(dir, 'trend.json');
    const {
      scope: _scope,
      trials: _trials,
      ...v1
    } = trendRun(1, [trendCheck(), trendCheck({ workup: 'guessed', verdict: 'fail' })]);
    const text = `{"schema":1,"runs":[\n${JSON.stringify(v1)}\n]}\n`;
    await writeFile(file, text);
    const read = await readHistory(file);
    expect(read.schema).toBe(2);
    expect(read.runs[0]?.scope).toEqual({ kind: 'full' });
    expect(read.runs[0]?.trials.map((t) => [t.task, t.trials, t.passes])).toEqual([
      ['grounded', 1, 1],
      ['guessed', 1, 0],
    ]);
    // Reading leaves the file alone; appending migrates it.
    expect(await readFile(file, 'utf8')).toBe(text);
    await appendRun(file, trendRun(2, [trendCheck()]));
    const written = JSON.parse(await readFile(file, 'utf8'));
    expect(written.schema).toBe(2);
    expect(written.runs).toHaveLength(2);
    expect(validate(written), JSON.stringify(validate.errors)).toBe(true);
  });

  it('refuses to overwrite a file that is not a trend history', async () => {
    const file = join(dir, 'trend.json');
    await writeFile(file, '{"runs": [');
    await expect(appendRun(file, trendRun(1, []))).rejects.toThrow(UserError);
    await writeFile(file, '{"something": "else"}');
    await expect(appendRun(file, trendRun(1, []))).rejects.toThrow(
      'not a needlework trend history: expected an object with "schema": 2 (or 1) and a "runs" array',
    );
    expect(await readFile(file, 'utf8')).toBe('{"something": "else"}');
  });

  it('rejects a maxRuns that is not a positive integer', async () => {
    await expect(appendRun(join(dir, 't.json'), trendRun(1, []), { maxRuns: 0 })).rejects.toThrow(
      'maxRuns must be a positive integer, got 0',
    );
  });

  it('breaks a lock left by a crashed process (dead pid) and one older than staleMs', async () => {
    const file = join(dir, 'trend.json');
    await writeFile(
      `${file}.lock`,
      JSON.stringify({ token: 'x', pid: 2 ** 22 + 7, host: (await import('node:os')).hostname() }),
    );
    await appendRun(file, trendRun(1, [trendCheck()]), { timeoutMs: 5000 });
    await writeFile(`${file}.lock`, ''); // a holder that died between open() and write()
    const old = new Date(Date.now() - 60_000);
    await utimes(`${file}.lock`, old, old);
    await appendRun(file, trendRun(2, [trendCheck()]), { timeoutMs: 5000 });
    expect((await readHistory(file)).runs).toHaveLength(2);
    expect(await readdir(dir)).toEqual(['trend.json']);
  });

  it('waits for a live lock and gives up with a message naming it', async () => {
    const lock = join(dir, 'busy.lock');
    await withLock(lock, async () => {
      await expect(withLock(lock, async () => 'never', { timeoutMs: 50 })).rejects.toThrow(
        new RegExp(
          `^timed out waiting for the lock ${lock}, held by pid ${process.pid} on ${hostname()} since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z; delete it if no run is writing$`,
        ),
      );
    });
    expect(await withLock(lock, async () => 'free again')).toBe('free again');
  });

  it('loses no run when 8 processes append at once', async () => {
    await symlink(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const child = join(dir, 'append.mjs');
    const file = join(dir, 'trend.json');
    const perProcess = 5;
    // Each child loads the TypeScript source through Vite's module runner, reports ready, waits for "go" so all 8
    // contend for the lock together, then appends its runs one after another.
    await writeFile(
      child,
      `import { runnerImport } from 'vite';
const { module } = await runnerImport(${JSON.stringify(join(repoRoot, 'src/history/history.ts'))}, { configFile: false, logLevel: 'silent' });
process.stdout.write('ready\\n');
process.stdin.once('data', async () => {
  for (let i = 0; i < ${perProcess}; i++) {
    const time = new Date(Date.UTC(2026, 0, 1, 0, 0, Number(process.argv[2]) * 10 + i)).toISOString();
    await module.appendRun(${JSON.stringify(file)}, { id: '20260101T000000Z-' + (Number(process.argv[2]) * 10 + i).toString(16).padStart(8, '0'), time, scope: { kind: 'full' }, summary: { checks: 0, passed: 0, failed: 0, notApplicable: 0, skipped: 0, passRate: null }, checks: [], trials: [] }, { maxRuns: 1000 });
  }
  process.exit(0);
});
`,
    );
    const children = Array.from({ length: 8 }, (_, p) =>
      spawn(process.execPath, [child, String(p)], { cwd: dir }),
    );
    const exits = children.map(
      (proc) =>
        new Promise<number | null>((done) => {
          let stderr = '';
          proc.stderr.on('data', (d) => {
            stderr += d;
          });
          proc.on('exit', (code) => {
            if (code !== 0) console.error(stderr);
            done(code);
          });
        }),
    );
    await Promise.all(
      children.map((proc) => new Promise<void>((ready) => proc.stdout.once('data', () => ready()))),
    );
    for (const proc of children) proc.stdin.write('go\n');
    expect(await Promise.all(exits)).toEqual(Array(8).fill(0));
    const ids = (await readHistory(file)).runs.map((run) => run.id).sort();
    const expected = Array.from({ length: 8 }, (_, p) =>
      Array.from(
        { length: perProcess },
        (_, i) => `20260101T000000Z-${(p * 10 + i).toString(16).padStart(8, '0')}`,
      ),
    )
      .flat()
      .sort();
    expect(ids).toEqual(expected);
    expect((await readdir(dir)).sort()).toEqual(['append.mjs', 'node_modules', 'trend.json']);
  }, 60_000);
});

describe('checkRegressions', () => {
  it('compares the latest run with the one before, or with the latest of a baseline history', async () => {
    const file = join(dir, 'trend.json');
    const baseline = join(dir, 'main.json');
    await appendRun(baseline, trendRun(1, [trendCheck({ value: 0.5 })]));
    await appendRun(file, trendRun(2, [trendCheck({ value: 0.9 })]));
    const method = 'tolerance';
    expect((await checkRegressions({ history: file, method })).baseline).toBeUndefined();
    await appendRun(file, trendRun(3, [trendCheck({ value: 0.7 })]));
    expect((await checkRegressions({ history: file, method })).regressions.map(formatRegression)).toEqual([
      'compound-alpha/grounded surfaced: recall 0.9 -> 0.7 (-0.2, allowed 0.02)',
    ]);
    expect((await checkRegressions({ history: file, baseline, method })).regressions).toEqual([]);
  });
});
