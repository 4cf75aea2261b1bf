import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultReporters } from '../../src/cli/commands/run-reporters.js';
import { inCI } from '../../src/io/ci.js';
import { readReport } from '../../src/ui/report/read.js';
import { needleworkReporters } from '../../src/vitest/reporters.js';
import { BIN, needlework } from '../helpers/needlework-run.js';
import { useTmpDir } from '../helpers/tmp.js';

const tmp = useTmpDir();

/** A refund bot's two cases, one run each: each answers with the refund word or not. */
async function project(dir: string, answers: { late: boolean; damaged: boolean }): Promise<void> {
  await mkdir(join(dir, 'needles'), { recursive: true });
  await writeFile(
    join(dir, 'needles/refunds.cases.yaml'),
    [
      'id: refunds',
      'cases:',
      '  - id: refund-late',
      '    expect:',
      '      answer:',
      '        contains: [refund]',
      '  - id: refund-damaged',
      '    expect:',
      '      answer:',
      '        contains: [refund]',
      '',
    ].join('\n'),
  );
  await rm(join(dir, 'runs'), { recursive: true, force: true });
  for (const [name, ok] of [
    ['refund-late', answers.late],
    ['refund-damaged', answers.damaged],
  ] as const) {
    const folder = join(dir, 'runs', name);
    await mkdir(folder, { recursive: true });
    const answer = ok ? 'Your refund is on its way.' : 'Sorry, I cannot help.';
    await writeFile(join(folder, 'meta.json'), JSON.stringify({ task: name }));
    await writeFile(
      join(folder, 'trajectory.json'),
      JSON.stringify({
        task_id: name,
        task_input: 'Refund my order',
        steps: [{ step_id: 1, step_type: 'answer', content: answer }],
        final_answer: answer,
        metadata: {},
      }),
    );
  }
}

describe('what a run writes follows its context', () => {
  it('is the terminal and the history on a developer machine, and JUnit, HTML and the job summary too in CI', () => {
    expect(inCI({})).toBe(false);
    expect(inCI({ CI: 'false' })).toBe(false);
    expect(inCI({ CI: '0' })).toBe(false);
    expect(inCI({ CI: 'true' })).toBe(true);
    expect(inCI({ CI: '1' })).toBe(true);
    expect(defaultReporters({})).toEqual(['default', 'needlework-trend']);
    expect(defaultReporters({ CI: 'true' })).toEqual([
      'default',
      'needlework-junit',
      'needlework-html',
      'needlework-summary',
      'needlework-trend',
    ]);
    // A Vitest config's reporters, by the same rule.
    expect(needleworkReporters({ env: {} })).toEqual(['default', 'needlework/reporters/trend']);
    expect(needleworkReporters({ env: { CI: 'true' }, outDir: 'out' })).toEqual([
      'default',
      ['needlework/reporters/junit', { outputFile: 'out/junit.xml' }],
      ['needlework/reporters/html', { outputFile: 'out/report.html' }],
      'needlework/reporters/summary',
      'needlework/reporters/trend',
    ]);
  });
});

describe.skipIf(!existsSync(BIN))('the gate on the command line (needs `npm run build`)', () => {
  it('passes a run whose only failure is a known one, fails a flip, and tells the change in one line when none', async () => {
    const dir = await tmp();
    const run = () =>
      needlework(
        dir,
        'run',
        'runs/',
        '--fail-on-regression',
        '--store',
        '.needlework/store',
        '--reporter',
        'needlework-trend',
      );

    // The first run has no baseline: its failure is not known to be an old one.
    await project(dir, { late: true, damaged: false });
    const first = await run();
    expect(first.code, first.stdout + first.stderr).toBe(1);

    // The same outcomes: refund-damaged still fails, as it did; nothing regressed, said in one line; exit 0.
    const second = await run();
    expect(second.code, second.stdout + second.stderr).toBe(0);
    const story = second.stdout.split('\n').filter((l) => /^needlework: (vs | {2})/.test(l));
    expect(story).toEqual([
      expect.stringMatching(/^needlework: vs \S+: nothing regressed; 1 still failing$/),
    ]);

    // refund-late passed and now fails, one trial a side: a regression, named, with the note; exit 1.
    await project(dir, { late: false, damaged: false });
    const third = await run();
    expect(third.code).toBe(1);
    expect(third.stdout).toMatch(/^needlework: vs \S+: 1 regressed; 1 still failing$/m);
    expect(third.stdout).toContain(
      'needlework:   regressed: refunds/refund-late answer-contains: pass -> fail (one trial a side):',
    );
    expect(third.stdout).toContain(
      'needlework:   note: one trial a side cannot tell a regression from chance',
    );

    // A new case that fails, and a case with no run: nothing regressed, yet the run got worse, and the story says how.
    const cases = join(dir, 'needles/refunds.cases.yaml');
    await writeFile(
      cases,
      `${await readFile(cases, 'utf8')}${[
        '  - id: refund-lost',
        '    workups: [refund-damaged]',
        '    expect:',
        '      answer:',
        '        contains: [lost]',
        '  - id: refund-missing',
        '    workups: [no-such-run]',
        '    expect:',
        '      answer:',
        '        contains: [refund]',
        '',
      ].join('\n')}`,
    );
    const fourth = await run();
    expect(fourth.code).toBe(1);
    const told = fourth.stdout.split('\n').filter((l) => /^needlework: (vs | {2})/.test(l));
    expect(told).toEqual([
      expect.stringMatching(
        /^needlework: vs \S+: nothing regressed; 2 still failing, 2 added \(2 failing\)$/,
      ),
      expect.stringMatching(
        /^needlework: {3}added, failing: refunds\/refund-lost \[task refund-damaged\] answer-contains: - -> fail: answer contains "lost": no/,
      ),
      // The case with no run is a check too (has-run, failing), so the history and the gate hold it.
      expect.stringMatching(
        /^needlework: {3}added, failing: refunds\/refund-missing has-run: - -> fail: \S+refunds\.cases\.yaml:16:5: case refund-missing matches no workup \(looked for no-such-run and meta\.json task "refund-missing"\)$/,
      ),
      'needlework:   0 regressed, 0 fixed, 0 flaky, 0 moved, 2 still failing, 2 added, 0 removed, 0 unchanged',
    ]);
    // Run again unchanged: all four failures are known ones now; one line, exit 0.
    const fifth = await run();
    expect(fifth.code, fifth.stdout + fifth.stderr).toBe(0);
    expect(fifth.stdout).toMatch(/^needlework: vs \S+: nothing regressed; 4 still failing$/m);

    // Without the gate, the same failures fail the run as any failing test does.
    const ungated = await needlework(dir, 'run', 'runs/', '--reporter', 'needlework-trend');
    expect(ungated.code).toBe(1);

    // The report of a stored run, from the store: the latest by default, with its comparison.
    const report = await needlework(dir, 'report', '--out', 'stored.html');
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toMatch(/^needlework: HTML report of run \S+ written to stored\.html$/m);
    const stored = readReport(await readFile(join(dir, 'stored.html'), 'utf8'));
    expect(JSON.stringify(stored.answers.get(`/api/runs/${stored.info.run}`))).toContain('refund-damaged');
    const missing = await needlework(dir, 'report', 'no-such-run');
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe('error .needlework/store: no run no-such-run in the results store');
  }, 180_000);
});
