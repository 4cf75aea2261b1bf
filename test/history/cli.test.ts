import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareStored } from '../../src/history/gate.js';
import { openStore } from '../../src/history/store/open.js';
import type { TrendRun } from '../../src/history/types.js';
import { BIN, needlework, needleworkWithEnv } from '../helpers/needlework-run.js';
import { useTmpDir } from '../helpers/tmp.js';
import { trendCheck, trendRun } from '../reporters/trend-data.js';
import { emptyEmbeddedStore } from './engines.js';
import { historyOf } from './read.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const tmp = useTmpDir();

/** A run of `passes` out of 10 trials of one task, on a branch. */
function trials(minute: number, passes: number, extra: Partial<TrendRun> = {}): TrendRun {
  const checks = Array.from({ length: 10 }, (_, i) =>
    trendCheck({
      workup: `w${i}`,
      task: 'bridge',
      trial: i + 1,
      value: i < passes ? 1 : 0,
      verdict: i < passes ? 'pass' : 'fail',
    }),
  );
  return trendRun(minute, checks, extra);
}

describe('the gate reads its baseline from the store', () => {
  it("compares a pull request's run with its base branch's latest run, and a branch's run with its previous run", async () => {
    const location = await emptyEmbeddedStore(join(await tmp(), 'store'));
    const store = await openStore(location);
    const main1 = trials(1, 10, { branch: 'main' });
    const topic = trials(2, 0, { branch: 'topic' });
    const main2 = trials(3, 10, { branch: 'main' });
    const pr = trials(4, 10, { branch: 'topic', baseBranch: 'main' });
    const main3 = trials(5, 1, { branch: 'main' });
    for (const run of [main1, topic, main2, pr, main3]) await store.append(run);
    await store.close();

    // The pull request's run: main's latest run (main3, 1 of 10), not topic's previous one (0 of 10).
    const forPr = await compareStored({ history: location, current: pr.id });
    expect(forPr.baseline?.id).toBe(main3.id);
    expect(forPr.comparison?.criteria.map((c) => c.status)).toEqual(['improved']);
    // A run on main: main's previous run (main2, 10 of 10), never the pull request's run between them.
    const onMain = await compareStored({ history: location });
    expect(onMain.current?.id).toBe(main3.id);
    expect(onMain.baseline?.id).toBe(main2.id);
    expect(onMain.comparison?.criteria.map((c) => c.status)).toEqual(['regressed']);
    expect(onMain.comparison?.counts.regressed).toBe(1);
    // The first run of a branch has no baseline, and says which branch it looked on.
    const first = await compareStored({ history: location, current: main1.id });
    expect(first.baseline).toBeUndefined();
    expect(first.branch).toBe('main');
  }, 120_000);
});

describe.skipIf(!existsSync(BIN))('the store on the command line (needs `npm run build`)', () => {
  it('exports, imports (naming the runs it cannot read) and prunes, and refuses a folder that is not a store', async () => {
    const dir = await tmp();
    await emptyEmbeddedStore(join(dir, '.needlework', 'store'));
    const runs = [trials(1, 10, { root: '/home/ci/project' }), trials(2, 9)];
    // What the UI's workup view reads goes out and comes back: the run's root, a check's workup path and evidence.
    const first = runs[0] as TrendRun;
    first.checks[0] = {
      ...(first.checks[0] as TrendRun['checks'][number]),
      workupPath: 'workups/w0',
      evidence: { reference: [{ tool: 'search', args: { q: 'refund' } }], alignment: { pairs: [[0, 0]] } },
    };
    const bad = { ...trials(3, 8), summary: { passRate: 2 } };
    await writeFile(join(dir, 'in.json'), JSON.stringify({ schema: 2, runs: [...runs, bad] }));

    const imported = await needlework(dir, 'trend', 'import', 'in.json');
    expect(imported.code).toBe(1);
    expect(imported.stdout).toContain('needlework: imported 2 runs from in.json into .needlework/store');
    expect(imported.stderr.trim()).toBe(
      `in.json: run 3 (${bad.id}): /summary must have required property 'checks'; not imported`,
    );
    expect((await needlework(dir, 'trend', 'import', 'in.json')).stdout).toContain(
      'imported 0 runs from in.json into .needlework/store (2 already there)',
    );

    const exported = await needlework(dir, 'trend', 'export', '--out', 'out.json');
    expect(exported.code).toBe(0);
    expect(JSON.parse(await readFile(join(dir, 'out.json'), 'utf8'))).toEqual({ schema: 2, runs });
    // An export reads back as a source of its own.
    expect((await needlework(dir, 'trend', 'out.json')).stdout).toMatch(/^Runs \(last 2 of 2\)/);

    const pruned = await needlework(dir, 'prune', '--keep-last', '1');
    expect(pruned.stdout.trim()).toBe('needlework: pruned 1 run from .needlework/store; 1 run kept');
    const badAge = await needlework(dir, 'prune', '--older-than', 'soon');
    expect(badAge.code).toBe(2);
    expect(badAge.stderr).toContain(
      '--older-than expects a whole number of hours, days or weeks, like 90d, 12h or 4w; got soon',
    );

    await mkdir(join(dir, 'reports'));
    await writeFile(join(dir, 'reports', 'junit.xml'), '<testsuites/>');
    const folder = await needlework(dir, 'trend', 'reports');
    expect(folder.code).toBe(1);
    expect(folder.stderr.trim()).toBe(
      'error reports: cannot open the results store: the folder holds files but is not a needlework store (it has no PG_VERSION)',
    );
    expect(folder.stderr).not.toContain('EISDIR');
  }, 300_000);

  it('reports a store it cannot reach in one line and exits 1, and still writes the JUnit and HTML reports', async () => {
    const dir = await tmp();
    await cp(join(ROOT, 'needles'), join(dir, 'needles'), { recursive: true });
    await cp(join(ROOT, 'fixtures/workups/grounded'), join(dir, 'workups/grounded'), { recursive: true });
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    const url = 'postgres://ci:secret@127.0.0.1:1/needlework';
    const result = await needlework(dir, 'run', 'workups', '--store', url);
    expect(result.code).toBe(1);
    const lines = result.stderr.split('\n').filter((line) => line.includes('results store'));
    expect(lines).toEqual([
      'needlework: postgres://ci:***@127.0.0.1:1/needlework: cannot open the results store: connect ECONNREFUSED 127.0.0.1:1',
    ]);
    expect(result.stderr).not.toContain('secret');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(dir, 'needlework-report', 'junit.xml'))).toBe(true);
    expect(existsSync(join(dir, 'needlework-report', 'report.html'))).toBe(true);
  }, 300_000);

  it('refuses a store URL of an unknown scheme wherever a store is named, and creates nothing', async () => {
    const dir = await tmp();
    await cp(join(ROOT, 'needles'), join(dir, 'needles'), { recursive: true });
    await cp(join(ROOT, 'fixtures/workups/grounded'), join(dir, 'workups/grounded'), { recursive: true });
    const refused =
      'unknown scheme "postgress://"; a results store is a folder or a postgres:// (postgresql://) URL: did you mean postgres://?';
    const url = 'postgress://ci:secret@db/x';
    for (const args of [
      ['run', 'workups', '--store', url],
      ['trend', '--store', url],
      ['prune', '--keep-last', '3', '--store', url],
    ]) {
      const result = await needlework(dir, args[0]!, ...args.slice(1));
      expect(result.code, args.join(' ')).not.toBe(0);
      expect(result.stderr).toContain(`--store: postgress://ci:***@db/x: ${refused}`);
      expect(result.stderr).not.toContain('secret');
      expect(result.stderr).not.toMatch(/\n\s+at |❯/);
    }
    const env = await needleworkWithEnv(dir, { NEEDLEWORK_STORE: 'postgress://db/x' }, 'trend');
    expect(env.code).toBe(1);
    expect(env.stderr).toContain(`NEEDLEWORK_STORE: postgress://db/x: ${refused}`);
    expect(existsSync(join(dir, 'postgress:'))).toBe(false);
    expect(existsSync(join(dir, '.needlework'))).toBe(false);
  }, 120_000);

  it('keeps every run of `needlework run` in the embedded store, with its environment, and `trend` shows them', async () => {
    const dir = await tmp();
    await cp(join(ROOT, 'needles'), join(dir, 'needles'), { recursive: true });
    await cp(join(ROOT, 'fixtures/workups/grounded'), join(dir, 'workups/grounded'), { recursive: true });
    await writeFile(
      join(dir, 'workups/grounded/meta.json'),
      JSON.stringify({ model: 'gpt-test', agentVersion: '2.1.0' }),
    );
    await emptyEmbeddedStore(join(dir, '.needlework', 'store'));
    // The spec's describe of each workup carries the model and agent version its meta names (`needleworkEnvironment`):
    // the trend reporter takes them from there, alone or beside the HTML report.
    for (const reporters of [['--reporter', 'needlework-trend'], []]) {
      const result = await needlework(dir, 'run', 'workups', ...reporters);
      expect(result.stdout).toMatch(
        /trend run \S+ appended to the results store \.needlework\/store \(\d runs?\)/,
      );
    }
    const store = await openStore(join(dir, '.needlework', 'store'));
    const { runs } = await historyOf(store);
    await store.close();
    expect(runs).toHaveLength(2);
    expect(runs.map((run) => run.environment)).toEqual([
      { model: 'gpt-test', agentVersion: '2.1.0' },
      { model: 'gpt-test', agentVersion: '2.1.0' },
    ]);
    expect(runs[1]?.checks.length).toBeGreaterThan(0);
    expect((await needlework(dir, 'trend')).stdout).toMatch(/^Runs \(last 2 of 2\)/);
  }, 300_000);
});
