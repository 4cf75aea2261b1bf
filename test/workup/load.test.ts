import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findWorkups } from '../../src/discover/find.js';
import { formatDiagnostic, toolCalls, UserError } from '../../src/index.js';
import { loadWorkup, loadWorkups } from '../../src/workup/load.js';
import { useTmpDir } from '../helpers/tmp.js';

const FIXTURES = new URL('../../fixtures/workups/', import.meta.url).pathname;
const tmp = useTmpDir();

async function problems(path: string): Promise<string[]> {
  try {
    await loadWorkup(path);
  } catch (error) {
    if (error instanceof UserError) return error.diagnostics.map(formatDiagnostic);
    throw error;
  }
  throw new Error(`expected ${path} to fail`);
}

async function folder(files: Record<string, string>): Promise<string> {
  const dir = join(await tmp(), 'run');
  await mkdir(dir);
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

const ENTRY = {
  id: 'g1',
  store: 'graph',
  query: 'q',
  results: [{ subject: 'A', relation: 'R', object: 'B' }],
};

describe('loadWorkups on the fixture world', () => {
  it('loads every fixture workup, folders and the single JSON file', async () => {
    const { workups, failures } = await loadWorkups(FIXTURES);
    expect(failures).toEqual([]);
    expect(workups.map((w) => w.id)).toEqual([
      'cross-store-agree',
      'cross-store-conflict',
      'dangling',
      'grounded',
      'guessed',
      'single-file',
      'uncited',
      'unsupported',
    ]);
  });

  it('loads each folder from the listing that found it, as loadWorkup loads it alone', async () => {
    const found = await findWorkups(FIXTURES);
    expect(found.folders.get(join(FIXTURES, 'grounded'))?.sort()).toEqual([
      'gold.trajectory.json',
      'meta.json',
      'note.md',
      'provenance.jsonl',
      'trajectory.json',
    ]);
    // The single-file workup is no folder: it has no listing.
    expect([...found.folders.keys()]).toHaveLength(found.paths.length - 1);
    const { workups } = await loadWorkups(FIXTURES);
    expect(workups).toStrictEqual(await Promise.all(found.paths.map((path) => loadWorkup(path))));
  });

  it('reads the grounded workup whole: note, ledger, trajectory, gold and meta', async () => {
    const w = await loadWorkup(join(FIXTURES, 'grounded'));
    expect(w.note?.sections.map((s) => s.title)).toContain('Gaps & caveats');
    expect(w.ledger.map((e) => e.id)).toEqual(['g1', 'g2', 'g3', 'g4', 'g5', 'g6', 'g7']);
    expect(w.ledger[2]).toMatchObject({ error: 'timeout after 5000 ms', results: [] });
    expect(w.ledger[5]?.text).toContain('north quay');
    expect(toolCalls(w.trajectory!).map((s) => s.tool_input?.entity ?? s.tool_input?.query)).toEqual([
      'Halberd',
      'Depot-Seven',
      'Ash Cell',
      'Ash Cell',
      'Compound-Alpha',
      'Compound-Alpha',
      'Wren',
    ]);
    expect(toolCalls(w.gold!)).toHaveLength(4);
    expect(w.meta).toMatchObject({ agent: 'fixture', path: join(FIXTURES, 'grounded') });
  });

  it('names a bad workup and still loads the rest', async () => {
    const root = await tmp();
    await mkdir(join(root, 'good'));
    await writeFile(join(root, 'good', 'provenance.jsonl'), `${JSON.stringify(ENTRY)}\n`);
    await mkdir(join(root, 'bad'));
    await writeFile(join(root, 'bad', 'provenance.jsonl'), '{"id": "g1",\n');
    const { workups, failures } = await loadWorkups(root);
    expect(workups.map((w) => w.id)).toEqual(['good']);
    expect(failures).toHaveLength(1);
    expect(failures[0]!.path).toBe(join(root, 'bad'));
    expect(formatDiagnostic(failures[0]!.diagnostics[0]!)).toMatch(
      /bad\/provenance\.jsonl:1:\d+: invalid JSON/,
    );
  });

  it('reports a pattern that finds nothing and a path that does not exist', async () => {
    const empty = await tmp();
    const { failures } = await loadWorkups([empty, join(empty, 'missing')]);
    expect(failures.map((f) => formatDiagnostic(f.diagnostics[0]!))).toEqual([
      `${empty}: no workups found`,
      `${join(empty, 'missing')}: no such file or folder`,
    ]);
  });

  it('expands globs', async () => {
    const { workups } = await loadWorkups(`${FIXTURES}cross-store-*`);
    expect(workups.map((w) => w.id)).toEqual(['cross-store-agree', 'cross-store-conflict']);
  });
});

describe('loadWorkup: bad input', () => {
  it('reports every bad ledger line with its line and column, and refuses the ledger', async () => {
    const dir = await folder({
      'provenance.jsonl': [
        JSON.stringify(ENTRY),
        '',
        '{"id": "g2", "store": "graph", "query": "q", "results": [}',
        JSON.stringify({ ...ENTRY, id: 'g3', results: [{ subject: 'A', relation: 7, object: 'B' }] }),
        JSON.stringify({ ...ENTRY, id: 'g1' }),
        JSON.stringify({ id: 'g4', store: 'graph', results: [] }),
      ].join('\n'),
    });
    const file = join(dir, 'provenance.jsonl');
    expect(await problems(dir)).toEqual([
      `${file}:3:58: invalid JSON: Array item expected but got '}'`,
      `${file}:4:77: ledger entry: results[0].relation must be a string`,
      `${file}:5:1: duplicate ledger id "g1" (first on line 1)`,
      `${file}:6:1: ledger entry: query is required`,
    ]);
  });

  it('numbers ledger lines alike whether the ledger is read whole or streamed (over 4 MB)', async () => {
    // Lines broken by CRLF, a lone CR and LF, a blank line, and a bad line after the padding.
    const head = `${JSON.stringify(ENTRY)}\r\n\r{"id": "g2", "results": [}\n${JSON.stringify({ ...ENTRY, id: 'g1' })}\n`;
    const ledgerOf = (padding: number) =>
      `${head}${Array.from({ length: padding }, (_, i) => JSON.stringify({ ...ENTRY, id: `p${i}`, text: 'x'.repeat(60) })).join('\n')}\n${JSON.stringify({ ...ENTRY, id: 1 })}\n`;
    const whole = await folder({ 'provenance.jsonl': ledgerOf(10) });
    const streamed = await folder({ 'provenance.jsonl': ledgerOf(40_000) });
    const problemsOf = async (dir: string) =>
      (await problems(dir)).map((p) => p.replace(`${dir}/provenance.jsonl`, 'provenance.jsonl'));
    expect(await problemsOf(whole)).toEqual([
      "provenance.jsonl:3:26: invalid JSON: Array item expected but got '}'",
      'provenance.jsonl:4:1: duplicate ledger id "g1" (first on line 1)',
      'provenance.jsonl:15:7: ledger entry: id must be a string',
    ]);
    expect(await problemsOf(streamed)).toEqual([
      "provenance.jsonl:3:26: invalid JSON: Array item expected but got '}'",
      'provenance.jsonl:4:1: duplicate ledger id "g1" (first on line 1)',
      'provenance.jsonl:40005:7: ledger entry: id must be a string',
    ]);
  });

  it('keeps integers past 2^53 exactly, as strings', async () => {
    const dir = await folder({
      'trajectory.json': JSON.stringify({ task_id: 't', steps: [] }).replace(
        '"steps"',
        '"metadata": {"trace_id": 123456789012345678901, "small": 42}, "steps"',
      ),
    });
    const w = await loadWorkup(dir);
    expect(w.trajectory?.metadata).toEqual({ trace_id: '123456789012345678901', small: 42 });
  });

  it('places a trajectory schema error at its line and column', async () => {
    const text = '{\n  "task_id": "t",\n  "steps": [\n    { "step_id": 1, "step_type": "act" }\n  ]\n}\n';
    const dir = await folder({ 'trajectory.json': text });
    expect(await problems(dir)).toEqual([
      `${join(dir, 'trajectory.json')}:4:34: steps[0].step_type must be one of: thought, tool_call, observation, answer`,
    ]);
  });

  it('fills the seed defaults and wraps a non-object tool input as the seed logger does', async () => {
    const dir = await folder({
      'trajectory.json': JSON.stringify({
        task_id: 't',
        steps: [{ step_id: 1, step_type: 'tool_call', tool_name: 'search', tool_input: 'halberd' }],
      }),
    });
    const { trajectory } = await loadWorkup(dir);
    expect(trajectory).toEqual({
      task_id: 't',
      task_input: '',
      final_answer: null,
      succeeded: false,
      total_tokens: 0,
      total_latency_ms: 0,
      metadata: {},
      steps: [
        {
          step_id: 1,
          step_type: 'tool_call',
          content: '',
          tool_name: 'search',
          tool_input: { input: 'halberd' },
          tool_output: null,
          timestamp: null,
          latency_ms: 0,
          tokens_used: 0,
          error: null,
        },
      ],
    });
  });

  it('reports problems in several files of one workup together', async () => {
    const dir = await folder({
      'provenance.jsonl': 'nope\n',
      'trajectory.json': '{"task_id": 1, "steps": []}',
    });
    const found = await problems(dir);
    expect(found).toHaveLength(2);
    expect(found[0]).toBe(
      `${join(dir, 'provenance.jsonl')}:1:1: invalid JSON: JSON value expected but got 'n'`,
    );
    expect(found[1]).toBe(`${join(dir, 'trajectory.json')}:1:13: task_id must be a string`);
  });

  it('refuses a folder with none of the workup files, a missing path and an unknown file type', async () => {
    const dir = await folder({ 'notes.txt': 'x' });
    expect(await problems(dir)).toEqual([
      `${dir}: not a workup: expected note.md, provenance.jsonl or trajectory.json in it`,
    ]);
    expect(await problems(join(dir, 'nope'))).toEqual([`${join(dir, 'nope')}: no such file or folder`]);
    expect(await problems(join(dir, 'notes.txt'))).toEqual([
      `${join(dir, 'notes.txt')}: expected a workup folder (note.md, provenance.jsonl, trajectory.json), a .json file or a .workups.jsonl file`,
    ]);
  });

  it('checks a single-file workup against the workup schema', async () => {
    const file = join(await tmp(), 'x.workup.json');
    await writeFile(
      file,
      JSON.stringify({ id: 'x', ledger: [{ ...ENTRY, results: 'none' }], extra: 1 }, null, 2),
    );
    expect(await problems(file)).toEqual([
      `${file}:8:18: ledger[0].results must be a list`,
      `${file}:11:3: unknown key "extra"; expected one of: id, note, ledger, trajectory, gold, meta`,
    ]);
  });
});
