import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCli } from '../../src/cli/cli.js';
import { importOptions, rawOption, runImport } from '../../src/cli/commands/import.js';
import { UsageError } from '../../src/errors/index.js';
import { toolCalls } from '../../src/model/trajectory.js';
import { loadWorkup } from '../../src/workup/load.js';
import { captureIo } from '../helpers/io.js';
import { useTmpDir } from '../helpers/tmp.js';
import { at, otlp } from './otlp.js';

const tmp = useTmpDir();
const OPENAI = 'fixtures/imports/openai-chat.json';
const OTEL = 'fixtures/imports/otel-genai-trace.json';

describe('needlework import', () => {
  it('turns the OpenAI chat log into a workup folder that loads with the right tool-call sequence', async () => {
    const out = join(await tmp(), 'openai-run');
    const io = captureIo();
    expect(await runImport({ file: OPENAI, out }, io)).toBe(0);
    expect(io.stdout()).toBe(
      [
        'Detected format: openai',
        `✓ wrote ${out}/trajectory.json: 10 steps, 4 tool calls (graph_neighbors ×3, docs_search)`,
        `✓ wrote ${out}/note.md: the final answer (229 characters)`,
        '  arguments: 4 of 4 tool calls',
        '  citations: none in the answer',
      ].join('\n'),
    );
    expect(io.stderr()).toBe('');
    const text = await readFile(join(out, 'trajectory.json'), 'utf8');
    expect(text.startsWith('{\n  "task_id": "openai-chat",\n  "task_input": "How, if at all')).toBe(true);
    // Every step in the field order of seed 002's TrajectoryStep dataclass.
    expect(Object.keys(JSON.parse(text).steps[0])).toEqual([
      'step_id',
      'step_type',
      'content',
      'tool_name',
      'tool_input',
      'tool_output',
      'timestamp',
      'latency_ms',
      'tokens_used',
      'error',
      'call_id',
    ]);
    expect(Object.keys(JSON.parse(text))).toEqual([
      'task_id',
      'task_input',
      'steps',
      'final_answer',
      'succeeded',
      'total_tokens',
      'total_latency_ms',
      'metadata',
    ]);
    expect(text.endsWith('}\n')).toBe(true);

    const workup = await loadWorkup(out);
    expect(toolCalls(workup.trajectory!).map((s) => [s.tool_name, s.tool_input])).toEqual([
      ['graph_neighbors', { entity: 'Halberd' }],
      ['graph_neighbors', { entity: 'Ash Cell' }],
      ['graph_neighbors', { entity: 'Compound-Alpha' }],
      ['docs_search', { query: 'Compound-Alpha' }],
    ]);
    expect(await readFile(join(out, 'note.md'), 'utf8')).toBe(`${workup.trajectory!.final_answer}\n`);
    expect(workup.note?.segments.length).toBe(1);
  });

  it('turns the OTel trace into a workup folder, keeping the failed call and its error', async () => {
    const out = await tmp();
    const io = captureIo();
    expect(await runImport({ file: OTEL, from: 'otel', out }, io)).toBe(0);
    expect(io.stdout()).toBe(
      [
        `✓ wrote ${out}/trajectory.json: 15 steps, 5 tool calls (graph.neighbors ×3, docs.search ×2)`,
        `✓ wrote ${out}/note.md: the final answer (229 characters)`,
        `✓ wrote ${out}/meta.json: outcome unknown (the source records none), trace 4bf92f3577b34da6a3ce929d0e0e4736 span 00f067aa0ba902b7`,
        '  arguments: 5 of 5 tool calls',
        '  tool errors: 1 (docs.search)',
        '  citations: none in the answer',
      ].join('\n'),
    );
    const workup = await loadWorkup(out);
    expect(workup.meta.trace).toEqual({
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
    });
    expect(workup.meta.outcome).toBeUndefined();
    const trajectory = workup.trajectory!;
    expect(trajectory.task_id).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(toolCalls(trajectory).map((s) => s.tool_name)).toEqual([
      'graph.neighbors',
      'graph.neighbors',
      'graph.neighbors',
      'docs.search',
      'docs.search',
    ]);
    expect(trajectory.steps.filter((s) => s.error !== null).map((s) => s.call_id)).toEqual(['call_d4']);
  });

  it('reads a needlework trajectory.json as it is', async () => {
    const out = await tmp();
    const io = captureIo();
    expect(await runImport({ file: 'fixtures/workups/grounded/trajectory.json', out }, io)).toBe(0);
    expect(io.stdout()).toContain('Detected format: trajectory');
    const imported = (await loadWorkup(out)).trajectory;
    const original = (await loadWorkup('fixtures/workups/grounded')).trajectory;
    expect(imported).toEqual(original);
    // `--from seed`, the format's name before 0.2, still reads it.
    const old = await tmp();
    expect(
      await runImport(
        { file: 'fixtures/workups/grounded/trajectory.json', out: old, from: 'seed' },
        captureIo(),
      ),
    ).toBe(0);
    expect((await loadWorkup(old)).trajectory).toEqual(original);
  });

  it('refuses to overwrite an existing workup unless forced', async () => {
    const out = await tmp();
    await writeFile(join(out, 'note.md'), 'my own note\n');
    const io = captureIo();
    expect(await runImport({ file: OPENAI, out }, io)).toBe(1);
    expect(io.stderr()).toBe(`✗ ${out}/note.md: already exists; pass --force to overwrite it`);
    expect(await readFile(join(out, 'note.md'), 'utf8')).toBe('my own note\n');
    await expect(readFile(join(out, 'trajectory.json'), 'utf8')).rejects.toThrow(/ENOENT/);

    expect(await runImport({ file: OPENAI, out, force: true }, captureIo())).toBe(0);
    expect(await readFile(join(out, 'note.md'), 'utf8')).toMatch(/^Halberd and Wren are linked/);
  });

  it('writes no note.md when the run has no final answer, and says so', async () => {
    const dir = await tmp();
    const file = join(dir, 'cut-off.json');
    await writeFile(
      file,
      JSON.stringify([
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c', type: 'function', function: { name: 't' } }],
        },
      ]),
    );
    const io = captureIo();
    expect(await runImport({ file, from: 'openai', out: join(dir, 'w') }, io)).toBe(0);
    expect(io.stdout()).toBe(
      [
        `✓ wrote ${dir}/w/trajectory.json: 1 step, 1 tool call (t)`,
        '  arguments: 0 of 1 tool call',
        '  ! 1 tool call without arguments (t)',
        '  ! no final answer in this run, so no note.md was written',
      ].join('\n'),
    );
    const workup = await loadWorkup(join(dir, 'w'));
    expect(workup.note).toBeUndefined();
    expect(workup.trajectory!.task_id).toBe('cut-off');
  });

  it('reports a JSON syntax error at its line and column, and exits 1', async () => {
    const dir = await tmp();
    const file = join(dir, 'broken.json');
    await writeFile(
      file,
      '[\n  {"role": "user", "content": "q"},\n  {"role": "assistant" "content": "a"}\n]\n',
    );
    const io = captureIo();
    expect(await runImport({ file, out: join(dir, 'w') }, io)).toBe(1);
    expect(io.stderr()).toMatch(new RegExp(`^✗ ${file}:3:24: invalid JSON: `));
  });

  it('reports a bad message at its line and column in the file', async () => {
    const dir = await tmp();
    const file = join(dir, 'chat.json');
    await writeFile(
      file,
      '{\n  "messages": [\n    {"role": "user", "content": "q"},\n    {"role": "robot"}\n  ]\n}\n',
    );
    const io = captureIo();
    expect(await runImport({ file, out: join(dir, 'w') }, io)).toBe(1);
    expect(io.stderr()).toBe(
      `✗ ${file}:4:14: messages[1].role: expected one of system, developer, user, assistant, tool, function, found the string "robot"`,
    );
  });

  it('asks for --from when it cannot tell the format, and names a missing file', async () => {
    const dir = await tmp();
    const file = join(dir, 'mystery.json');
    await writeFile(file, '{"hello": "world"}');
    const io = captureIo();
    expect(await runImport({ file, out: join(dir, 'w') }, io)).toBe(1);
    expect(io.stderr()).toBe(
      `✗ ${file}: cannot tell the format: expected OpenAI chat messages (objects with a "role"), an OTLP/JSON trace ("resourceSpans"), SDK span JSON (spans with "name" and "context"), a SWE-agent trajectory ("trajectory" and "history"), tau-bench results ("task_id" and "traj"), tau2-bench results ("simulations"), an Inspect AI log ("eval" and "samples", or a .eval archive), an AgentOps trace ("spans" with "span_id"), OpenHands output.jsonl ("history" and "instance_id"), a mini-swe-agent .traj.json ("trajectory_format") or a needlework trajectory.json ("task_id" and "steps"); name it with --from openai|otel|otel-sdk|trajectory|swe-agent|tau-bench|mini-swe-agent|tau2-bench|inspect|openhands|agentops`,
    );
    const missing = captureIo();
    expect(await runImport({ file: join(dir, 'nope.json'), out: join(dir, 'w') }, missing)).toBe(1);
    expect(missing.stderr()).toBe(`✗ ${dir}/nope.json: no such file`);
  });

  it('throws a usage error (exit 2) for a missing --out or an unknown --from', async () => {
    await expect(runImport({ file: OPENAI }, captureIo())).rejects.toThrow(
      new UsageError(
        'missing --out <dir>: the workup folder to write (or a *.workups.jsonl file, one workup a line)',
      ),
    );
    await expect(runImport({ file: OPENAI, out: 'x', from: 'langchain' }, captureIo())).rejects.toThrow(
      new UsageError(
        '--from must be one of openai, otel, otel-sdk, trajectory, swe-agent, tau-bench, mini-swe-agent, tau2-bench, inspect, openhands, agentops; got "langchain"',
      ),
    );
    await expect(runImport({ file: OPENAI, out: await tmp(), trace: 'abc' }, captureIo())).rejects.toThrow(
      new UsageError('--trace picks a trace in an OTel file; this file is read as openai'),
    );
  });

  it('runs through the command line, keeping a numeric trace id past 2^53 exactly (JSONL export)', async () => {
    const dir = await tmp();
    const file = join(dir, 'spans.jsonl');
    const line = (trace: string, tool: string) =>
      JSON.stringify(
        otlp([
          {
            id: 'REPLACE',
            trace: 'REPLACE',
            start: at(0),
            end: at(3),
            attrs: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': tool },
          },
        ]),
      )
        .replace('"traceId":"REPLACE"', `"traceId":${trace}`)
        .replace('"spanId":"REPLACE"', '"spanId":42');
    await writeFile(
      file,
      `${line('123456789012345678901', 'wanted')}\n\n${line('123456789012345678902', 'other')}\n`,
    );
    const io = captureIo();
    const result = { code: -1 };
    const cli = createCli(io, result);
    cli.parse(
      ['node', 'needlework', 'import', file, '--trace', '123456789012345678901', '--out', join(dir, 'w')],
      {
        run: false,
      },
    );
    await cli.runMatchedCommand();
    expect(io.stderr()).toBe('');
    expect(result.code).toBe(0);
    expect(io.stdout()).toContain('Detected format: otel');
    const trajectory = (await loadWorkup(join(dir, 'w'))).trajectory!;
    expect(trajectory.task_id).toBe('123456789012345678901');
    expect(toolCalls(trajectory).map((s) => [s.tool_name, s.call_id])).toEqual([['wanted', '42']]);
    // meta.trace is lowercase hex whatever form the export wrote the id in: 123456789012345678901 = 0x6b14e9f812f366c35.
    // The trace's only span is a tool call, not a run span, so there is no span id to parent to.
    expect((await loadWorkup(join(dir, 'w'))).meta.trace).toEqual({
      traceId: '0000000000000006b14e9f812f366c35',
    });
  });

  it('imports every trace of an OTLP file, one folder each, when no --trace is given', async () => {
    const dir = await tmp();
    const file = join(dir, 'two.json');
    const one = (trace: string, tool: string) =>
      otlp([
        {
          id: `${trace.slice(0, 15)}1`,
          trace,
          start: at(0),
          end: at(3),
          attrs: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': tool },
        },
      ]).resourceSpans;
    await writeFile(
      file,
      JSON.stringify({
        resourceSpans: [
          ...one('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'first'),
          ...one('bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 'second'),
        ],
      }),
    );
    expect(await runImport({ file, out: join(dir, 'out') }, captureIo())).toBe(0);
    for (const [trace, tool] of [
      ['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'first'],
      ['bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 'second'],
    ]) {
      const workup = await loadWorkup(join(dir, 'out', trace!));
      expect(toolCalls(workup.trajectory!).map((s) => s.tool_name)).toEqual([tool]);
      expect(workup.meta.trace?.traceId).toBe(trace);
    }
  });

  it('places a JSONL problem at its line in the file', async () => {
    const dir = await tmp();
    const file = join(dir, 'spans.jsonl');
    await writeFile(file, `${JSON.stringify(otlp([{ id: 's', start: at(0) }]))}\n{"resourceSpans": 3}\n`);
    const io = captureIo();
    expect(await runImport({ file, from: 'otel', out: join(dir, 'w') }, io)).toBe(1);
    expect(io.stderr()).toBe(
      `✗ ${file}:2:1: [1]: expected an OTLP/JSON trace export with a "resourceSpans" array, found an object`,
    );
  });
});

describe('import options from the command line', () => {
  it('takes string values as typed, since cac turns numeric-looking ones into numbers', () => {
    const raw = ['node', 'needlework', 'import', 'f.json', '--out', '007', '--trace=123456789012345678901'];
    expect(rawOption(raw, 'out')).toBe('007');
    expect(rawOption(raw, 'trace')).toBe('123456789012345678901');
    expect(rawOption(raw, 'from')).toBeUndefined();
    expect(importOptions('f.json', { out: 7, trace: 1.2345678901234568e20, force: true }, raw)).toEqual({
      file: 'f.json',
      out: '007',
      trace: '123456789012345678901',
      force: true,
    });
  });
});
