// Workups in bulk: one `*.workups.jsonl` file, one workup a line, each in the workup schema of a `*.workup.json`.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runImport } from '../../src/cli/commands/import.js';
import { formatDiagnostic, toolCalls, UserError } from '../../src/index.js';
import { loadWorkup, loadWorkupLines, loadWorkups } from '../../src/workup/load.js';
import { captureIo } from '../helpers/io.js';
import { useTmpDir } from '../helpers/tmp.js';

const tmp = useTmpDir();

/** A run of `calls` tool calls and an answer, as one line's trajectory. */
function trajectory(id: string, calls: string[], answer: string) {
  return {
    task_id: id,
    task_input: `task ${id}`,
    steps: [
      ...calls.map((name, i) => ({
        step_id: i + 1,
        step_type: 'tool_call',
        content: '{}',
        tool_name: name,
        tool_input: {},
      })),
      { step_id: calls.length + 1, step_type: 'answer', content: answer },
    ],
    final_answer: answer,
    succeeded: true,
  };
}

const line = (value: unknown) => JSON.stringify(value);

describe('a *.workups.jsonl file', () => {
  it('loads every good line, and names each bad one at its line and column, the others still loaded', async () => {
    const dir = await tmp();
    const file = join(dir, 'runs.workups.jsonl');
    const colour = line({ id: 'c', trajectory: trajectory('c', [], 'done'), colour: 'blue' });
    await writeFile(
      file,
      [
        line({ id: 'a', trajectory: trajectory('a', ['search', 'book'], 'booked'), meta: { task: 'book' } }),
        line({ trajectory: trajectory('x', ['search'], 'no id given'), note: 'No id given.\n' }),
        '',
        '{"id": "broken", "trajectory": ',
        colour,
        line({ id: 'a', trajectory: trajectory('a', [], 'again') }),
        line({
          id: 'd',
          trajectory: { ...trajectory('d', ['search'], 'ok'), steps: [{ step_id: 1, step_type: 'guess' }] },
        }),
        line({ id: 'e', trajectory: trajectory('e', ['lookup'], 'fine') }),
      ].join('\r\n'),
    );
    const { workups, failures } = await loadWorkups(dir);
    expect(workups.map((w) => [w.id, w.meta.path, toolCalls(w.trajectory!).map((s) => s.tool_name)])).toEqual(
      [
        ['a', `${file}:1`, ['search', 'book']],
        ['runs-2', `${file}:2`, ['search']],
        ['e', `${file}:8`, ['lookup']],
      ],
    );
    expect(workups[0]!.meta.task).toBe('book');
    expect(workups[1]!.note?.source).toBe('No id given.\n');
    expect(failures.map((f) => [f.path, f.diagnostics.map(formatDiagnostic)])).toEqual([
      [`${file}:4`, [expect.stringMatching(new RegExp(`^${file}:4:\\d+: `))]],
      [
        `${file}:5`,
        [
          `${file}:5:${colour.indexOf('"colour"') + 1}: unknown key "colour"; expected one of: id, note, ledger, trajectory, gold, meta`,
        ],
      ],
      [`${file}:6`, [`${file}:6:1: duplicate workup id "a" (first on line 1)`]],
      [`${file}:7`, [expect.stringMatching(new RegExp(`^${file}:7:\\d+: .*step_type`))]],
    ]);
  });

  it('loads one line back by its meta.path, as the HTML report does', async () => {
    const dir = await tmp();
    const file = join(dir, 'x.workups.jsonl');
    await writeFile(
      file,
      `${line({ id: 'one', trajectory: trajectory('one', ['a'], 'A') })}\n${line({ id: 'two', trajectory: trajectory('two', ['b'], 'B') })}\n`,
    );
    const two = await loadWorkup(`${file}:2`);
    expect([two.id, two.trajectory?.final_answer, two.meta.path]).toEqual(['two', 'B', `${file}:2`]);
    await expect(loadWorkup(`${file}:3`)).rejects.toThrow(
      new UserError({ file, line: 3, message: 'no workup on this line' }),
    );
    // A file of several workups is many workups: loadWorkup says so rather than picking one.
    await expect(loadWorkup(file)).rejects.toThrow('holds 2 workups: loadWorkups reads them all');
  });

  it('is found in a folder beside workup folders, and an empty one says so', async () => {
    const dir = await tmp();
    await mkdir(join(dir, 'folder-run'));
    await writeFile(join(dir, 'folder-run/trajectory.json'), JSON.stringify(trajectory('f', ['x'], 'F')));
    await writeFile(
      join(dir, 'bulk.workups.jsonl'),
      `${line({ id: 'b1', trajectory: trajectory('b1', [], 'B') })}\n`,
    );
    await writeFile(join(dir, 'empty.workups.jsonl'), '\n\n');
    const { workups, failures } = await loadWorkups(dir);
    expect(workups.map((w) => w.id).sort()).toEqual(['b1', 'folder-run']);
    expect(failures.map((f) => f.diagnostics.map(formatDiagnostic))).toEqual([
      [`${join(dir, 'empty.workups.jsonl')}: no workups: the file has no lines`],
    ]);
    expect((await loadWorkupLines(join(dir, 'bulk.workups.jsonl'))).workups.map((w) => w.id)).toEqual(['b1']);
  });
});

describe('needlework import --out runs.workups.jsonl', () => {
  it('writes each run of a results list as one line that loads back as the folder would', async () => {
    const dir = await tmp();
    const out = join(dir, 'tau.workups.jsonl');
    const io = captureIo();
    expect(await runImport({ file: 'fixtures/imports/tau-bench-results.json', out }, io)).toBe(0);
    expect(
      io
        .stdout()
        .split('\n')
        .filter((l) => l.startsWith('✓')),
    ).toEqual([
      `✓ wrote ${out}:1 trajectory: 10 steps, 3 tool calls (find_user_id_by_name_zip, get_order_details, cancel_pending_order)`,
      expect.stringMatching(new RegExp(`^✓ wrote ${out}:1 note: the final answer`)),
      `✓ wrote ${out}:1 gold: 3 expected tool calls`,
      expect.stringMatching(new RegExp(`^✓ wrote ${out}:1 meta: outcome succeeded \\(reward 1\\)`)),
      `✓ wrote ${out}:2 trajectory: 3 steps, 1 tool call (find_user_id_by_name_zip)`,
      expect.stringMatching(new RegExp(`^✓ wrote ${out}:2 note: `)),
      `✓ wrote ${out}:2 gold: 2 expected tool calls`,
      expect.stringMatching(new RegExp(`^✓ wrote ${out}:2 meta: outcome failed \\(reward 0\\)`)),
    ]);
    expect((await readFile(out, 'utf8')).split('\n').length).toBe(3);
    const folders = join(dir, 'folders');
    expect(
      await runImport({ file: 'fixtures/imports/tau-bench-results.json', out: folders }, captureIo()),
    ).toBe(0);
    const fromLines = await loadWorkups(out);
    const fromFolders = await loadWorkups(folders);
    expect(fromLines.failures).toEqual([]);
    // The same workups but where they were read from: the line (or the folder) and the note's file.
    const strip = (w: (typeof fromLines.workups)[number]) => ({
      ...w,
      meta: { ...w.meta, path: undefined },
      note: { ...w.note!, file: undefined },
    });
    expect(fromLines.workups.map(strip)).toEqual(fromFolders.workups.map(strip));

    const again = captureIo();
    expect(await runImport({ file: 'fixtures/imports/tau-bench-results.json', out }, again)).toBe(1);
    expect(again.stderr()).toBe(`✗ ${out}: already exists; pass --force to overwrite it`);
  });
});
