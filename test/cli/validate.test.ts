import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runValidate } from '../../src/cli/commands/validate.js';
import { captureIo } from '../helpers/io.js';
import { useTmpDir } from '../helpers/tmp.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const BIN = join(ROOT, 'dist/src/cli/bin.js');
const tmp = useTmpDir();

/** Runs the built CLI as a user would, and returns its exit code and output. */
async function needlework(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args], { cwd: ROOT });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('needlework validate', () => {
  it('passes the bundled needles and workups and says what it found', async () => {
    const io = captureIo();
    expect(await runValidate({ paths: ['needles', 'fixtures/workups'] }, io)).toBe(0);
    expect(io.stdout()).toContain(
      '✓ needle compound-alpha-bridge (needles/compound-alpha.needle.yaml): MEMBER_OF → CO_LOCATED → CO_LOCATED',
    );
    expect(io.stdout()).toContain(
      '✓ workup grounded (fixtures/workups/grounded): 8 segments, 8 citations, 7 ledger entries, 20 steps, gold trajectory',
    );
    expect(io.stdout()).toMatch(/All valid: 3 specs, 8 workups$/);
    expect(io.stderr()).toBe('');
  });

  it('prints every problem at its place and exits 1, still listing the good specs', async () => {
    const dir = await tmp();
    await writeFile(join(dir, 'good.needle.yaml'), 'id: good\nanswer: x\nrequired_path: [R]\n');
    await writeFile(
      join(dir, 'bad.needle.yaml'),
      'id: bad\nanswer: x\nrequired_path:\n  relations: [R, 3]\n',
    );
    const io = captureIo();
    expect(await runValidate({ paths: [dir] }, io)).toBe(1);
    expect(io.stdout()).toContain('✓ needle good');
    expect(io.stderr()).toBe(
      `✗ ${join(dir, 'bad.needle.yaml')}:4:18: required_path.relations[1] must be a string\n\n1 problem found; 1 spec, 0 workups valid`,
    );
  });

  it('fails on a path with nothing to validate', async () => {
    const io = captureIo();
    expect(await runValidate({ paths: [await tmp()] }, io)).toBe(1);
    expect(io.stderr()).toMatch(
      /: no specs \(\*\.needle\.yaml, \*\.rubric\.yaml, \*\.cases\.yaml\) or workups found/,
    );
  });
});

describe('the needlework binary', () => {
  it('exits 0 on clean specs', async () => {
    const run = await needlework('validate', 'needles');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('All valid: 3 specs, 0 workups');
  });

  it('exits 1 on a user mistake without a stack trace', async () => {
    const run = await needlework('validate', 'no/such/dir');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('✗ no/such/dir: no such file or folder');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 2 on a usage error: an unknown command or option', async () => {
    const unknown = await needlework('frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('error unknown command "frobnicate"; see "needlework --help"\n');
    const option = await needlework('validate', '--frob');
    expect(option.code).toBe(2);
    expect(option.stderr).toBe('error unknown option --frob; see "needlework validate --help"\n');
  });

  it('prints its version and help, listing only the commands that exist', async () => {
    const { version } = JSON.parse(
      await import('node:fs').then((fs) => fs.readFileSync(join(ROOT, 'package.json'), 'utf8')),
    );
    expect((await needlework('--version')).stdout).toContain(version);
    const help = await needlework('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('validate [...paths]');
  });
});
