import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runImport } from '../../src/cli/commands/import.js';
import { loadWorkup } from '../../src/workup/load.js';
import { captureIo } from '../helpers/io.js';
import { useTmpDir } from '../helpers/tmp.js';

const tmp = useTmpDir();
const hostile = (name: string) => `test/fixtures/hostile/${name}`;

describe('import refuses, before writing, what loadWorkup would refuse later', () => {
  it('a tau-bench task_id "": reported at its place, not written, exit 1; the other result is written', async () => {
    const out = await tmp();
    const io = captureIo();
    const file = hostile('tau-bench-empty-task-id.json');
    expect(await runImport({ file, out }, io)).toBe(1);
    expect(io.stderr()).toBe(
      [
        `✗ ${out}/task--trial-1/meta.json:2:11: task must be a non-empty string, got "" (imported from ${file}; not written: it would not load)`,
        `✗ ${file}: 1 problem in elements that were not imported; 1 workup imported from the rest`,
      ].join('\n'),
    );
    expect(await readdir(out)).toEqual(['task-7-trial-1']);
    expect((await loadWorkup(join(out, 'task-7-trial-1'))).meta.task).toBe('7');
  });

  it('a tau-bench trial 1.5 (meta.json trial 2.5): nothing written', async () => {
    const out = join(await tmp(), 'run');
    const io = captureIo();
    const file = hostile('tau-bench-fractional-trial.json');
    expect(await runImport({ file, out }, io)).toBe(1);
    expect(io.stderr().split('\n')[0]).toBe(
      `✗ ${out}/meta.json:3:12: trial must be a positive integer or a non-empty label, got 2.5 (imported from ${file}; not written: it would not load)`,
    );
    await expect(readdir(out)).rejects.toThrow('ENOENT');
  });
});

describe('huge integers stay exact through import', () => {
  it('an OTel SDK argument 9007199254740993 is written exactly (was "Do not know how to serialize a BigInt")', async () => {
    const out = await tmp();
    const io = captureIo();
    expect(await runImport({ file: hostile('otel-sdk-bigint-argument.json'), out }, io)).toBe(0);
    const text = await readFile(join(out, 'trajectory.json'), 'utf8');
    expect(text).toContain('"content": "{\\"input\\":9007199254740993}"');
    const loaded = await loadWorkup(out);
    expect(loaded.trajectory!.steps.some((s) => s.tool_input?.['input'] === '9007199254740993')).toBe(true);
  });
});
