// Each hostile input kept in test/fixtures/hostile/ is the minimized form of a crash class the fuzzer found
// (bench/fuzz.mjs): it must now get our own one-line diagnostics, with file, line and column.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic, UserError } from '../../src/errors/index.js';
import { readHistory } from '../../src/history/history.js';
import { loadSpecs } from '../../src/specs/load.js';
import { readLedger } from '../../src/workup/ledger.js';
import { loadWorkup } from '../../src/workup/load.js';

const fixture = (name: string) => join(import.meta.dirname, '../fixtures/hostile', name);

/** The message of the UserError `work` rejects with; fails the test on any other error. */
async function userError(work: () => Promise<unknown>): Promise<string> {
  try {
    await work();
  } catch (error) {
    if (error instanceof UserError) return error.message;
    throw error;
  }
  throw new Error('expected a UserError, got none');
}

describe('trend histories are checked field by field at load', () => {
  it('refuses a run that is null (was a TypeError in the trend table)', async () => {
    const file = fixture('trend-run-null.json');
    expect(await userError(() => readHistory(file))).toBe(`${file}:1:21: runs[0] must be an object`);
  });

  it('refuses more passes than trials, at the field (was a RangeError from fisherDrop)', async () => {
    const file = fixture('trend-passes-over-trials.json');
    expect(await userError(() => readHistory(file))).toBe(
      `${file}:2:302: runs[0].trials[0].passes must be at most its trials (1), got 5`,
    );
  });

  it('refuses a trial count past the bound the exact test can tabulate', async () => {
    const file = fixture('trend-trials-huge.json');
    expect(await userError(() => readHistory(file))).toMatch(
      /trend-trials-huge\.json:2:\d+: runs\[0\]\.trials\[0\]\.trials must be <= 1000000$/,
    );
  });

  it('checks a version 1 history against the version 1 schema', async () => {
    const file = fixture('trend-v1-check-value-text.json');
    expect(await userError(() => readHistory(file))).toMatch(
      /trend-v1-check-value-text\.json:2:\d+: runs\[0\]\.checks\[0\]\.value must be a number or true or false or null$/,
    );
  });

  it('names a folder given as a history instead of failing with EISDIR', async () => {
    const folder = join(import.meta.dirname, '../fixtures/hostile');
    expect(await userError(() => readHistory(folder))).toBe(
      `${folder}: expected a trend history file, found a folder`,
    );
  });
});

describe('nesting deeper than 512 levels is refused at its place, before anything recurses on it', () => {
  it('in a single-file workup', async () => {
    const file = fixture('workup-nested-600-deep.json');
    expect(await userError(() => loadWorkup(file))).toBe(
      `${file}:1:620: nested deeper than 512 levels of lists and objects; needlework reads no deeper`,
    );
  });

  it('in a ledger line, placed on its line', async () => {
    const file = fixture('ledger-line-nested-600-deep.jsonl');
    expect(await userError(() => readLedger(file))).toBe(
      `${file}:2:568: nested deeper than 512 levels of lists and objects; needlework reads no deeper`,
    );
  });

  it('in a needle spec', async () => {
    const file = fixture('needle-nested-600-deep.needle.yaml');
    const specs = await loadSpecs(file);
    expect(specs.errors.map(formatDiagnostic)).toEqual([
      `${file}:4:524: nested deeper than 512 levels of lists and objects; needlework reads no deeper`,
    ]);
  });
});

describe('a spec the yaml parser cannot read without recursing', () => {
  it('gets the first syntax error js-yaml finds, placed (was a RangeError: Maximum call stack size exceeded)', async () => {
    // 3,000 flow items under a stray `}`, then a key: the `yaml` package's Parser.pop recursed once per item.
    const file = fixture('needle-items-after-stray-brace.needle.yaml');
    const specs = await loadSpecs(file);
    expect(specs.errors.map(formatDiagnostic)).toEqual([
      `${file}:5:8: not valid YAML: bad indentation of a mapping entry`,
    ]);
  });
});

describe('a collection used as a mapping key', () => {
  it('is refused at its place (js-yaml would spell it "a,b"), and prints no Node warning', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'needlework-hostile-'));
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      const file = join(dir, 'key.needle.yaml');
      await writeFile(file, 'id: x\nanswer: y\nrequired_path: [A]\n? [a, b]\n: 1\n');
      const specs = await loadSpecs(file);
      expect(specs.errors.map(formatDiagnostic)).toEqual([
        `${file}:4:3: a list or mapping cannot be a key: needlework reads keys as text, numbers, true, false or null`,
      ]);
      await new Promise((done) => setImmediate(done));
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('runs of stray brackets after flow maps in one case', () => {
  it("are that case's one error, placed (the yaml package found an error a bracket: 15 s for a megabyte)", async () => {
    const file = fixture('flow-brackets-after-a-flow-map.cases.yaml');
    const { errors, cases } = await loadSpecs(file);
    expect(errors.map(formatDiagnostic)).toEqual([
      `${file}:6:33: not valid YAML: bad indentation of a mapping entry`,
    ]);
    expect(cases[0]!.invalid.map((c) => c.id)).toEqual(['case 1']);
  });
});

describe('a spec with 130,000 problems', () => {
  it('is reported in bounded lines instead of overflowing the stack (errors.push(...diagnostics))', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'needlework-hostile-'));
    try {
      const file = join(dir, 'many.needle.yaml');
      await writeFile(
        file,
        `id: many\nanswer: x\nrequired_path:\n  relations: [${Array(130_000).fill('1').join(', ')}]\n`,
      );
      const specs = await loadSpecs(file);
      expect(specs.errors).toHaveLength(1001);
      expect(formatDiagnostic(specs.errors[0]!)).toBe(
        `${file}:4:15: required_path.relations[0] must be a string`,
      );
      expect(formatDiagnostic(specs.errors[1000]!)).toBe(`${file}: and 129000 more schema errors`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
