import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCli } from '../../src/cli/cli.js';
import { checkReporterNames, reporterNotes } from '../../src/cli/commands/run-reporters.js';
import type { Io } from '../../src/cli/io.js';
import { UsageError } from '../../src/errors/index.js';
import { needlework, outcomes } from '../helpers/needlework-run.js';
import { useTmpDir } from '../helpers/tmp.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const tmp = useTmpDir();

/** Runs `needlework run ...` up to the point where it would start Vitest, and returns what it threw. */
async function runError(args: string[]): Promise<unknown> {
  const io: Io = { out: () => {}, err: () => {}, color: false };
  const cli = createCli(io);
  try {
    cli.parse(['node', 'needlework', 'run', ...args], { run: false });
    await cli.runMatchedCommand();
  } catch (error) {
    return error;
  }
  return undefined;
}

const VALID =
  "use one of needlework-junit, needlework-html, needlework-summary, needlework-otel, needlework-trend; Vitest's default, agent, minimal, blob, verbose, dot, json, tap, tap-flat, junit, tree, hanging-process, github-actions, html; a reporter file or package";

describe('needlework run: malformed options are one-line usage errors', () => {
  it.each([
    [['--reporter', 'nosuch'], `--reporter nosuch is not a reporter: ${VALID}`],
    [['--reporter', 'trend'], `--reporter trend is not a reporter: ${VALID}`],
    [['--shard', '3/2'], '--shard must be <index>/<count> with 1 <= index <= count, like 1/2; got 3/2'],
    [['--shard', '0/2'], '--shard must be <index>/<count> with 1 <= index <= count, like 1/2; got 0/2'],
    [['--shard', 'half'], '--shard must be <index>/<count> with 1 <= index <= count, like 1/2; got half'],
    [['--shard', '1/2', '--shard', '2/2'], '--shard takes one <index>/<count>; it was given 2 times'],
    [['--out-dir', 'a', '--out-dir', 'b'], '--out-dir takes one folder; it was given 2 times'],
    [
      ['--baseline', 'a', '--baseline', 'b'],
      '--baseline takes one store or trend.json; it was given 2 times',
    ],
    [['-t', 'a', '-t', 'b'], '--test-name-pattern takes one pattern; it was given 2 times'],
    [['--bail', '0'], '--bail expects a whole number of at least 1, got 0'],
    [['--bail', '1.5'], '--bail expects a whole number of at least 1, got 1.5'],
    [['--samples', 'many'], '--samples expects a whole number of at least 1, got many'],
    [['--level', 'abc'], '--level expects a non-negative number, got abc'],
    [['--tolerance=-1'], '--tolerance expects a non-negative number, got -1'],
    [['--relative-tolerance', 'lots'], '--relative-tolerance expects a non-negative number, got lots'],
  ])('needlework run %j', async (args, message) => {
    const error = await runError(args);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('a value left out is cac’s one-line error, which the CLI prints with exit 2', async () => {
    const error = await runError(['--shard']);
    expect((error as Error).name).toBe('CACError');
    expect((error as Error).message).toBe('option `--shard <i/n>` value is missing');
  });
});

describe('checkReporterNames', () => {
  it("accepts needlework's names, Vitest's, reporter files and resolvable packages", async () => {
    await expect(
      checkReporterNames(
        [
          'needlework-summary',
          'needlework-otel',
          'junit',
          'html',
          'github-actions',
          './my-reporter.ts',
          'vitest',
        ],
        process.cwd(),
      ),
    ).resolves.toBeUndefined();
  });

  it('says once that junit and html are Vitest’s reporters', () => {
    expect(reporterNotes(['default', 'junit'])).toEqual([
      "--reporter junit is Vitest's JUnit reporter (vitest-junit.xml); needlework's is needlework-junit",
    ]);
    expect(reporterNotes(['needlework-junit'])).toEqual([]);
  });
});

describe('needlework run -t, as vitest -t', () => {
  it('runs only the tests whose full name matches; the others are skipped', async () => {
    const dir = await tmp();
    for (const spec of ['compound-alpha.needle.yaml', 'icd-203.rubric.yaml'])
      await cp(join(ROOT, 'needles', spec), join(dir, 'needles', spec));
    await cp(join(ROOT, 'fixtures/workups/grounded'), join(dir, 'workups/grounded'), { recursive: true });
    const run = await needlework(dir, 'run', 'workups', '-t', 'grounded surfaced', '--reporter', 'json');
    expect(run.code, run.stderr).toBe(0);
    const ran = (await outcomes(join(dir, 'needlework-report/results.json'))).filter(
      (line) => !line.endsWith(': skipped'),
    );
    expect(ran).toEqual(['compound-alpha-bridge > grounded > surfaced: passed']);
  }, 60_000);
});
