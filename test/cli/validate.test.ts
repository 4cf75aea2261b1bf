import { execFile } from 'node:child_process';
import { cp, readFile, writeFile } from 'node:fs/promises';
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

  it('finds each case its runs (by meta.json task, by workup id) and names the case with none', async () => {
    const dir = await tmp();
    const file = join(dir, 'routes.cases.yaml');
    await writeFile(
      file,
      `id: routes
cases:
  - id: lonely
    expect: { answer: { equals: x } }
  - id: fix-pagination
    expect:
      tools: { must_call: [run_tests, search], must_not_call: [git_push, edit_fle], max_calls: { delete_repo: 0 } }
  - id: by-id
    workups: [copy-b]
    expect: { answer: { equals: x } }
`,
    );
    // Two runs of the task fix-pagination; the second is also named by the case by-id.
    for (const copy of ['copy-a', 'copy-b'])
      await cp(join(ROOT, 'examples/coding/runs/fix-pagination-good'), join(dir, 'workups', copy), {
        recursive: true,
      });
    const io = captureIo();
    expect(await runValidate({ paths: [file, join(dir, 'workups')] }, io)).toBe(1);
    expect(io.stderr()).toBe(
      [
        `✗ ${file}:3: case lonely matches no workup (looked for lonely and meta.json task "lonely")`,
        `! ${file}:5: warning: case fix-pagination names tool "search", which no run of it ever calls (run_tests, open_file, edit_file)`,
        // A tool a case only bounds that no run calls is what a good run does: a warning only where it looks misspelt.
        `! ${file}:5: warning: case fix-pagination bounds tool "edit_fle", which no run of it ever calls; did you mean "edit_file", which its runs call?`,
        '',
        '1 problem found; 1 spec, 2 workups valid',
      ].join('\n'),
    );
  });

  it('counts one of a thing in the singular', async () => {
    const dir = join(await tmp(), 'one');
    await cp(join(ROOT, 'fixtures/workups/grounded'), dir, { recursive: true });
    await writeFile(
      join(dir, 'note.md'),
      '# Workup\n\n## Findings\n\n- Halberd is a member of Ash Cell. [cite:g1]\n',
    );
    const ledger = (await readFile(join(dir, 'provenance.jsonl'), 'utf8')).split('\n')[0];
    await writeFile(join(dir, 'provenance.jsonl'), `${ledger}\n`);
    const trajectory = JSON.parse(await readFile(join(dir, 'trajectory.json'), 'utf8'));
    trajectory.steps = trajectory.steps.slice(0, 1);
    await writeFile(join(dir, 'trajectory.json'), JSON.stringify(trajectory));
    await writeFile(
      join(dir, '..', 'one.rubric.yaml'),
      'id: one\ncriteria:\n  - id: clear\n    title: Clear\n    question: Is it clear?\n    anchors: { 1: No., 2: Barely., 3: Somewhat., 4: Mostly., 5: Yes. }\n',
    );
    const io = captureIo();
    expect(await runValidate({ paths: [join(dir, '..')] }, io), io.stderr()).toBe(0);
    expect(io.stdout()).toContain(': 1 segment, 1 citation, 1 ledger entry, 1 step, gold trajectory');
    expect(io.stdout()).toMatch(/rubric one \(.*\): 1 criterion/);
    expect(io.stdout()).toMatch(/All valid: 1 spec, 1 workup$/);
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

describe('needlework validate on a cases file: every problem in one pass', () => {
  /** The faults of a real first try: a typo in the defaults, a wrong type, two bad regexes, two missing rubrics. */
  const FAULTS = `id: all-at-once
defaults:
  tools: { must_cal: [search] }
cases:
  - id: one
    expect:
      steps: { max_steps: many }
  - id: two
    expect:
      answer: { regex: "/(open/" }
  - id: three
    expect:
      steps: { max_tool_errors: -1 }
      answer: { regex: "[z-a]" }
      judge: ./missing.rubric.yaml
  - id: four
    expect:
      judge: ./gone.rubric.yaml
`;

  it('reports the defaults typo, the schema errors, the bad regexes and the missing rubrics, each at its line', async () => {
    const dir = await tmp();
    const file = join(dir, 'all.cases.yaml');
    await writeFile(file, FAULTS);
    const io = captureIo();
    expect(await runValidate({ paths: [file] }, io)).toBe(1);
    expect(io.stdout()).toBe('');
    expect(io.stderr().split('\n')).toEqual([
      `✗ ${file}:3:12: unknown key "must_cal" in defaults.tools (did you mean "must_call"?); expected one of: must_call, must_not_call, max_calls, order`,
      `✗ ${file}:7:27: cases[0].expect.steps.max_steps must be an integer`,
      `✗ ${file}:10:24: cases[1].expect.answer.regex is not a valid regular expression: /(open/: Unterminated group`,
      `✗ ${file}:13:33: cases[2].expect.steps.max_tool_errors must be >= 0`,
      `✗ ${file}:14:24: cases[2].expect.answer.regex is not a valid regular expression: /[z-a]/: Range out of order in character class`,
      `✗ ${file}:15:14: cases[2].expect.judge: ./missing.rubric.yaml is no such file (looked for ${dir}/missing.rubric.yaml)`,
      `✗ ${file}:18:14: cases[3].expect.judge: ./gone.rubric.yaml is no such file (looked for ${dir}/gone.rubric.yaml)`,
      '',
      '7 problems found; 0 specs, 0 workups valid',
    ]);
  });

  it('gives a file with one bad case no ✓ and does not count it valid; its good cases are still counted', async () => {
    const dir = await tmp();
    const file = join(dir, 'some.cases.yaml');
    await writeFile(
      file,
      'id: some\ncases:\n  - id: good\n    expect:\n      tools: { must_call: [search] }\n  - id: bad\n    expect:\n      answer: { regex: "(" }\n      judge: nope.rubric.yaml\n',
    );
    const io = captureIo();
    expect(await runValidate({ paths: [file, 'needles/compound-alpha.needle.yaml'] }, io)).toBe(1);
    expect(io.stdout()).not.toContain('some.cases.yaml');
    expect(io.stderr().split('\n')).toEqual([
      `✗ cases some (${file}): 1 invalid case (bad); 1 valid case, 1 assertion`,
      `✗ ${file}:8:24: cases[1].expect.answer.regex is not a valid regular expression: /(/: Unterminated group`,
      `✗ ${file}:9:14: cases[1].expect.judge: nope.rubric.yaml is no such file (looked for ${dir}/nope.rubric.yaml)`,
      '',
      '2 problems found; 1 spec, 0 workups valid',
    ]);
  });
});
