import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Ajv } from 'ajv';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors/index.js';
import { compare, hasRegressed } from '../../src/history/compare.js';
import { buildTrendRun, trendCheckOf, trendRunOf } from '../../src/history/entry.js';
import { compareStored } from '../../src/history/gate.js';
import { readHistory, serializeHistory } from '../../src/history/history.js';
import { detectRevision } from '../../src/history/revision.js';
import type { TrendRun } from '../../src/history/types.js';
import { projectPaths } from '../../src/io/display-path.js';
import type { CheckRecord } from '../../src/report/checks.js';
import { gateText } from '../../src/report/gate-text.js';
import { sparkline } from '../../src/report/sparkline.js';
import { renderTrendTable } from '../../src/report/trend-table.js';
import trendSchema from '../../src/schemas/trend.schema.json' with { type: 'json' };
import { checkMeta } from './harness.js';
import { trendCheck, trendRun } from './trend-data.js';

const _repoRoot = resolve(import.meta.dirname, '../..');
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

  it("keeps the run's root and each check's workup path (from that root) and evidence, for the workup view", () => {
    const meta = (workupPath: string) =>
      checkMeta({
        spec: 's',
        workup: 'w',
        criterion: 'tool-calls',
        workupPath,
        evidence: { mode: 'strict', alignment: { pairs: [[0, 0]], missing: [], extra: [] } },
      });
    const run = buildTrendRun(
      [record({ meta: meta('/project/runs/w') }), record({ meta: meta('/elsewhere/w') })],
      {},
      new Date('2026-11-22T03:04:05.678Z'),
      { kind: 'full' },
      '/project',
    );
    expect(run.root).toBe('/project');
    expect(run.checks.map((c) => c.workupPath)).toEqual(['runs/w', '/elsewhere/w']);
    expect(run.checks[0]!.evidence).toEqual({
      mode: 'strict',
      alignment: { pairs: [[0, 0]], missing: [], extra: [] },
    });
    expect(validate({ schema: 2, runs: [run] }), JSON.stringify(validate.errors)).toBe(true);
  });

  it("orders checks by the history's keys whatever order their tests ended in: a task's trials by number, labels after", () => {
    const metas = [
      checkMeta({ spec: 's', workup: 'w', criterion: 'c', case: 'k', task: 't', trial: 10 }),
      checkMeta({ spec: 's', workup: 'w', criterion: 'c', case: 'k', task: 't', trial: 'warm' }),
      checkMeta({ spec: 's', workup: 'w', criterion: 'c', case: 'k', task: 't', trial: 2 }),
      checkMeta({ spec: 's', workup: 'w', criterion: 'c', case: 'k', task: 't' }),
      checkMeta({ spec: 's', workup: 'v', criterion: 'c', case: 'k', task: 't', trial: 1 }),
    ];
    const order = (recorded: typeof metas) =>
      buildTrendRun(
        recorded.map((meta) => record({ meta })),
        {},
      ).checks.map((c) => `${c.workup} ${c.trial ?? '-'}`);
    expect(order(metas)).toEqual(['v 1', 'w -', 'w 2', 'w 10', 'w warm']);
    expect(order([...metas].reverse())).toEqual(order(metas));
  });

  it('makes the same run of checks made as their tests ended (trendRunOf) as of the tests collected after them', () => {
    const metas = [
      checkMeta({ spec: 's', workup: 'b', criterion: 'c', value: 0.5, unit: 'ms' }),
      checkMeta({ spec: 's', workup: 'a', criterion: 'c', verdict: 'fail' }),
      checkMeta({ spec: 's', workup: 'a', criterion: 'd', case: 'k', task: 't', trial: 2 }),
      checkMeta({ spec: 's', workup: 'a', criterion: 'd', case: 'k', task: 't', trial: 1 }),
    ];
    const states = ['passed', 'failed', 'passed', 'skipped'] as const;
    const records = metas.map((meta, i) => record({ meta, state: states[i]! }));
    const rest = [
      { commit: 'c0ffee', branch: 'main' },
      new Date('2026-11-28T12:00:00Z'),
      { kind: 'full' },
      '/project',
    ] as const;
    const built = buildTrendRun(records, ...rest);
    // As the trend reporter makes them: in the order the tests ended, each check as its test ended.
    const ended = [3, 0, 2, 1].map((i) => trendCheckOf(metas[i]!, states[i]!, projectPaths('/project')));
    const streamed = trendRunOf(ended, ...rest);
    expect({ ...streamed, id: built.id }).toEqual(built);
    expect(streamed.checks.map((c) => `${c.workup} ${c.criterion} ${c.trial ?? '-'}`)).toEqual([
      'a c -',
      'a d 1',
      'a d 2',
      'b c -',
    ]);
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

describe('compare, with a tolerance', () => {
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
  const of = (criterion: string) => base.checks.find((c) => c.criterion === criterion)!;
  const lines = (now: TrendRun, options = {}) =>
    gateText(compare(now, base, options)).rows.map((r) => `${r.status}: ${r.line}`);

  it('moves a score that fell by more than the tolerance, and not one that fell by exactly it', () => {
    const within = trendRun(2, [trendCheck({ value: 0.88 }), of('hops'), of('flag')]);
    expect(lines(within)).toEqual([]);
    const beyond = trendRun(2, [trendCheck({ value: 0.85 }), of('hops'), of('flag')]);
    // The default gate names the move and holds verdicts only; a tolerance given holds the value too.
    expect(lines(beyond)).toEqual([
      'moved: compound-alpha/grounded surfaced: pass (recall 0.9) -> pass (recall 0.85) (past the tolerance 0.02, worse)',
    ]);
    expect(hasRegressed(compare(beyond, base))).toBe(false);
    expect(lines(beyond, { tolerance: 0.02 })).toEqual([
      'regressed: compound-alpha/grounded surfaced: pass (recall 0.9) -> pass (recall 0.85) (past the tolerance 0.02)',
    ]);
    expect(lines(beyond, { tolerance: 0.1 })).toEqual([]);
  });

  it('treats a rise as the worsening of a lower-is-better metric, with a relative tolerance for units', () => {
    const rise = (value: number) => trendRun(2, [of('surfaced'), { ...of('hops'), value }, of('flag')]);
    expect(lines(rise(3), { relativeTolerance: 0.1 })).toEqual([
      'moved: compound-alpha/grounded hops: pass (pivot_burden 4 queries) -> pass (pivot_burden 3 queries) (past the tolerance 10%, better)',
    ]);
    expect(lines(rise(4.4), { relativeTolerance: 0.1 })).toEqual([]);
    expect(lines(rise(5), { relativeTolerance: 0.1 })).toEqual([
      'regressed: compound-alpha/grounded hops: pass (pivot_burden 4 queries) -> pass (pivot_burden 5 queries) (past the tolerance 10%)',
    ]);
  });

  it('calls a verdict that became fail a regression under every option, one trial a side', () => {
    const now = trendRun(2, [
      trendCheck({ value: 0.89, verdict: 'fail', threshold: 0.895 }),
      of('hops'),
      { ...of('flag'), value: false, verdict: 'fail' },
    ]);
    for (const options of [{}, { tolerance: 0.02 }, { relativeTolerance: 0.5 }, { level: 0.01 }]) {
      const comparison = compare(now, base, options);
      expect(comparison.changes.map((c) => [c.criterion, c.status, c.basis])).toEqual([
        ['flag', 'regressed', 'one-trial'],
        ['surfaced', 'regressed', 'one-trial'],
      ]);
      expect(comparison.oneTrial).toBe(true);
    }
  });

  it('does not call the hand-written tests of a vitest run removed when needlework run ran the specs alone', () => {
    const matcher = trendCheck({ spec: 'matcher', workup: 'grounded', criterion: 'traversed' });
    const vitestRun = trendRun(1, [...base.checks, matcher]);
    const specsOnly = trendRun(2, base.checks);
    const comparison = compare(specsOnly, vitestRun);
    expect(comparison.counts.removed).toBe(0);
    expect(comparison.otherTests).toEqual({ baselineOnly: 1, currentOnly: 0 });
    expect(gateText(comparison).notes).toEqual([
      '1 check of hand-written tests in the baseline not compared: this run ran the YAML specs only (needlework run), the baseline its test files too (vitest run)',
    ]);
    expect(compare(vitestRun, specsOnly).otherTests).toEqual({ baselineOnly: 0, currentOnly: 1 });
    // Both ran hand-written tests: a test one run lacks is removed, as any case.
    const fewer = compare(trendRun(3, [...base.checks, { ...matcher, workup: 'other' }]), vitestRun);
    expect(fewer.counts).toMatchObject({ removed: 1, added: 1 });
  });

  it('does not compare checks missing from either run, and counts them apart', () => {
    const now = trendRun(2, [
      trendCheck({ value: null, verdict: 'not-applicable' }),
      trendCheck({ workup: 'new', value: 0 }),
    ]);
    const comparison = compare(now, base);
    expect(hasRegressed(comparison)).toBe(false);
    expect(comparison.counts).toMatchObject({ added: 1, removed: 2, unchanged: 1 });
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

describe('readHistory', () => {
  it('reads a version 1 history as full runs with counted trials, leaving the file alone', async () => {
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
    expect(await readFile(file, 'utf8')).toBe(text);
    const written = JSON.parse(serializeHistory(read).toString());
    expect(validate(written), JSON.stringify(validate.errors)).toBe(true);
  });

  it('refuses a file that is not a trend history, saying what was expected', async () => {
    const file = join(dir, 'trend.json');
    await writeFile(file, '{"runs": [');
    await expect(readHistory(file)).rejects.toThrow(UserError);
    await writeFile(file, '{"something": "else"}');
    await expect(readHistory(file)).rejects.toThrow(
      'not a needlework trend history: expected an object with "schema": 2 (or 1) and a "runs" array',
    );
  });
});

describe('compareStored', () => {
  it('compares the latest run with the one before, or with the latest of a baseline history', async () => {
    const file = join(dir, 'trend.json');
    const baseline = join(dir, 'main.json');
    const write = (path: string, runs: TrendRun[]) => writeFile(path, serializeHistory({ schema: 2, runs }));
    await write(baseline, [trendRun(1, [trendCheck({ value: 0.5 })])]);
    await write(file, [trendRun(2, [trendCheck({ value: 0.9 })])]);
    const tolerance = 0.02;
    expect((await compareStored({ history: file, tolerance })).baseline).toBeUndefined();
    await write(file, [trendRun(2, [trendCheck({ value: 0.9 })]), trendRun(3, [trendCheck({ value: 0.7 })])]);
    const stored = await compareStored({ history: file, tolerance });
    expect(gateText(stored.comparison!).rows.map((r) => r.line)).toEqual([
      'compound-alpha/grounded surfaced: pass (recall 0.9) -> pass (recall 0.7) (past the tolerance 0.02)',
    ]);
    expect(hasRegressed((await compareStored({ history: file, baseline, tolerance })).comparison!)).toBe(
      false,
    );
  });
});
