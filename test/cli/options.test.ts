import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createCli } from '../../src/cli/cli.js';
import { requireVitestUi } from '../../src/cli/commands/run-reporters.js';
import type { Io } from '../../src/cli/io.js';
import { explainUnknownOption } from '../../src/cli/options.js';
import { UsageError } from '../../src/errors/index.js';
import { useTmpDir } from '../helpers/tmp.js';

const tmp = useTmpDir();

/** Runs `needlework <args>` up to the point where its command would start work, and returns the one line it prints. */
async function usage(args: string[]): Promise<string | undefined> {
  const io: Io = { out: () => {}, err: () => {}, color: false };
  const cli = createCli(io);
  try {
    cli.parse(['node', 'needlework', ...args], { run: false });
    await cli.runMatchedCommand();
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    if (error instanceof Error && error.name === 'CACError')
      return explainUnknownOption(error.message, cli.matchedCommand, cli.globalCommand);
    throw error;
  }
  return undefined;
}

describe('an unknown option gets the nearest one of its command', () => {
  it.each([
    [['run', '--watchh'], 'unknown option --watchh (did you mean --watch?)'],
    [['run', '--out-dirr', 'x'], 'unknown option --out-dirr (did you mean --out-dir?)'],
    [['run', '--nli-modle', 'x'], 'unknown option --nli-modle (did you mean --nli-model?)'],
    [['trend', '--lats', '3'], 'unknown option --lats (did you mean --last?)'],
    [['validate', '--frobnicate'], 'unknown option --frobnicate'],
    [['import', 'f.json', '--forse'], 'unknown option --forse (did you mean --force?)'],
  ])('needlework %j', async (args, message) => {
    expect(await usage(args)).toBe(message);
  });
});

describe('numbers are checked as numbers, before any work', () => {
  it.each([
    [['trend', '--last', 'abc'], '--last expects a whole number (0 or more), got abc'],
    [['trend', '--last=-2'], '--last expects a whole number (0 or more), got -2'],
    [['trend', '--level', 'often'], '--level expects a non-negative number, got often'],
    [['trend', '--tolerance=1e'], '--tolerance expects a non-negative number, got 1e'],
    [['run', '--bail', 'never'], '--bail expects a whole number of at least 1, got never'],
    [['score', 'w', '--samples', '2.5'], '--samples expects a whole number of at least 1, got 2.5'],
  ])('needlework %j', async (args, message) => {
    expect(await usage(args)).toBe(message);
  });
});

describe('the HTML reporter and the UI need @vitest/ui, checked before Vitest starts', () => {
  it('is one usage error saying how to get it when neither the project nor Vitest can resolve it', async () => {
    const project = await tmp();
    expect(() => requireVitestUi('--reporter html', [project], null)).toThrow(
      new UsageError(
        "--reporter html needs @vitest/ui, which this project does not have: install it (npm install -D @vitest/ui), or use needlework-html, needlework's own report",
      ),
    );
  });

  it('passes where Vitest would find it (here, beside Vitest)', () => {
    expect(() => requireVitestUi('--ui', [process.cwd()])).not.toThrow();
  });
});

describe('the built CLI prints each malformed option as one line, exit 2', () => {
  const ROOT = new URL('../../', import.meta.url).pathname;
  const BIN = join(ROOT, 'dist/src/cli/bin.js');
  const needlework = async (...args: string[]) => {
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args], { cwd: ROOT });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };

  it.each([
    [
      ['run', '--watchh'],
      'error unknown option --watchh (did you mean --watch?); see "needlework run --help"',
    ],
    [
      ['trend', '--last', 'abc'],
      'error --last expects a whole number (0 or more), got abc; see "needlework trend --help"',
    ],
    [['valdiate'], 'error unknown command "valdiate" (did you mean validate?); see "needlework --help"'],
  ])('needlework %j', async (args, line) => {
    const run = await needlework(...args);
    expect([run.code, run.stderr, run.stdout]).toEqual([2, `${line}\n`, '']);
  });
});
