import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../src/adapters/detect.js';
import { fromOtelSdkSpans, hexId, nanos } from '../../src/adapters/otel-sdk.js';
import { fromSweAgentTrajectory } from '../../src/adapters/swe-agent.js';
import { fromTauBenchResults } from '../../src/adapters/tau-bench.js';
import { runImport } from '../../src/cli/commands/import.js';
import { toolCalls } from '../../src/model/trajectory.js';
import { parseJson } from '../../src/parse/json.js';
import { loadWorkup } from '../../src/workup/load.js';
import { captureIo } from '../helpers/io.js';
import { useTmpDir } from '../helpers/tmp.js';

const tmp = useTmpDir();
const FIXTURES = 'fixtures/imports';
const read = async (name: string, bigints = false) =>
  parseJson(await readFile(join(FIXTURES, name), 'utf8'), name, 0, { bigints });
const calls = (steps: Parameters<typeof toolCalls>[0]) =>
  toolCalls(steps).map((s) => [s.tool_name, s.tool_input]);

describe('detectFormat for the real-trace formats', () => {
  it('tells each fixture by its fields', async () => {
    expect(detectFormat(await read('any-agent-trace.json'))).toBe('otel-sdk');
    expect(detectFormat(await read('otel-sdk-spans.json'))).toBe('otel-sdk');
    expect(detectFormat(await read('swe-agent-commands.traj'))).toBe('swe-agent');
    expect(detectFormat(await read('swe-agent-function-calling.traj'))).toBe('swe-agent');
    expect(detectFormat(await read('tau-bench-results.json'))).toBe('tau-bench');
    expect(detectFormat(((await read('tau-bench-results.json')) as unknown[])[0])).toBe('tau-bench');
  });

  it('still tells a list by its good elements, and guesses nothing from look-alikes', () => {
    expect(detectFormat([{ task_id: 1, traj: [] }, 'bad'])).toBeUndefined();
    expect(detectFormat([{ task_id: 1, traj: [] }, { task_id: 2 }])).toBe('tau-bench');
    expect(detectFormat([{ name: 's', context: {} }, { name: 'no context' }])).toBe('otel-sdk');
    expect(detectFormat([{ name: 's', context: {}, role: 'user' }])).toBe('openai');
    expect(detectFormat({ trajectory: [] })).toBeUndefined();
  });
});

describe('SDK span JSON', () => {
  it("reads any-agent's trace: integer ids past 2^53 exactly, tool arguments and the answer", async () => {
    const { traces, skipped } = fromOtelSdkSpans(await read('any-agent-trace.json', true));
    expect(skipped).toEqual([]);
    expect(traces.map((t) => t.traceId)).toEqual(['9707d5fd6d4a546d47757044c6127e04']);
    const t = traces[0]!.trajectory;
    expect(calls(t)).toEqual([
      ['get_current_time', { timezone: 'America/New_York' }],
      ['write_file', { text: '2025' }],
      ['final_answer', { answer: expect.stringMatching(/^1\. Get current time/) }],
    ]);
    expect(t.metadata['run_span_id']).toBe('904e2254078d8a1b');
    expect(t.task_input).toMatch(/^Find what year it is/);
    expect(t.final_answer).toMatch(/"steps"/);
    // 1758026601634284000 - 1758026601631711000 ns, exactly.
    expect(t.steps.find((s) => s.step_type === 'observation')!.latency_ms).toBe(2.573);
  });

  it("reads the Python SDK's to_json list: 0x ids, ISO times, OpenLLMetry's flattened names, an error status", async () => {
    const { traces } = fromOtelSdkSpans(await read('otel-sdk-spans.json', true));
    const t = traces[0]!.trajectory;
    expect(calls(t)).toEqual([
      ['graph_neighbors', { entity: 'Halberd' }],
      ['graph_neighbors', { entity: 'Ash Cell' }],
      ['graph_neighbors', { entity: 'Compound-Alpha' }],
      ['docs_search', { query: 'Compound-Alpha' }],
    ]);
    const failed = t.steps.filter((s) => s.error !== null);
    expect(failed.map((s) => [s.tool_name, s.error, s.latency_ms])).toEqual([
      ['docs_search', 'docs store timed out after 3000 ms', 3000],
    ]);
    expect(t.metadata['spans_skipped']).toEqual({ POST: 1 });
    expect(t.final_answer).toMatch(/^Halberd and Wren are linked through Compound-Alpha/);
  });

  it('keeps ids and times exact in every form SDKs write them', () => {
    expect(hexId(200754113673326459792359196831899614724n, 32)).toBe('9707d5fd6d4a546d47757044c6127e04');
    expect(hexId('200754113673326459792359196831899614724', 32)).toBe('9707d5fd6d4a546d47757044c6127e04');
    expect(hexId('0x00F067AA0BA902B7', 16)).toBe('00f067aa0ba902b7');
    expect(hexId('00F067AA0BA902B7', 16)).toBe('00f067aa0ba902b7');
    expect(hexId(42, 16)).toBe('000000000000002a');
    expect(hexId('0x0', 16)).toBeUndefined();
    expect(hexId(2 ** 60, 16)).toBeUndefined();
    expect(nanos('2026-06-02T10:00:10.123456789Z')).toBe(1780394410123456789n);
    expect(nanos('2026-06-02T12:00:10.5+02:00')).toBe(1780394410500000000n);
    expect(nanos(1780394410123456789n)).toBe(1780394410123456789n);
    expect(nanos('yesterday')).toBeUndefined();
  });

  it('leaves out a span it cannot read, says where, and imports the rest (exit 1)', async () => {
    const dir = await tmp();
    const file = join(dir, 'spans.json');
    const tool = (id: string, name: string) => ({
      name: `execute_tool ${name}`,
      context: { trace_id: '0x5b8efff798038103d269b633813fc60c', span_id: id },
      start_time: '2026-06-02T10:00:10.000001Z',
      end_time: '2026-06-02T10:00:10.000002Z',
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': name,
        'gen_ai.tool.args': '{"q": 1}',
      },
    });
    await writeFile(
      file,
      JSON.stringify([tool('0x01', 'good'), { ...tool('0x02', 'bad'), start_time: 'soon' }], null, 2),
    );
    const io = captureIo();
    expect(await runImport({ file, out: join(dir, 'w') }, io)).toBe(1);
    expect(io.stderr()).toBe(
      [
        `✗ ${file}:22:19: [1].start_time: expected the start time (unix nanoseconds, or an ISO 8601 time), found the string "soon"`,
        `✗ ${file}: 1 problem in elements that were not imported; 1 workup imported from the rest`,
      ].join('\n'),
    );
    const workup = await loadWorkup(join(dir, 'w'));
    expect(calls(workup.trajectory!)).toEqual([['good', { q: 1 }]]);
    expect(workup.meta.trace).toEqual({ traceId: '5b8efff798038103d269b633813fc60c' });
  });
});

describe("the Python SDK's ConsoleSpanExporter output (one indented span after another)", () => {
  it('reads the concatenated spans as a list, placing a bad span at its line', async () => {
    const dir = await tmp();
    const spans = JSON.parse(await readFile(`${FIXTURES}/otel-sdk-spans.json`, 'utf8')) as Array<
      Record<string, unknown>
    >;
    const file = join(dir, 'console.txt');
    await writeFile(file, `${spans.map((span) => JSON.stringify(span, null, 4)).join('\n')}\n`);
    const io = captureIo();
    expect(await runImport({ file, out: join(dir, 'w') }, io)).toBe(0);
    expect(io.stdout().split('\n')[0]).toBe('Detected format: otel-sdk');
    expect(toolCalls((await loadWorkup(join(dir, 'w'))).trajectory!).length).toBe(4);

    const broken = join(dir, 'broken.txt');
    await writeFile(broken, '{"name": "a", "context": {}}\n{"name": "b" "context": {}}\n');
    const err = captureIo();
    expect(await runImport({ file: broken, out: join(dir, 'x') }, err)).toBe(1);
    expect(err.stderr()).toMatch(new RegExp(`^✗ ${broken}:2:14: invalid JSON: `));
  });
});

describe('SWE-agent .traj', () => {
  it('reads a run without function calling: the command word is the tool, the rest its input', async () => {
    const w = fromSweAgentTrajectory(await read('swe-agent-commands.traj'), { taskId: 'i1' });
    expect(calls(w.trajectory)).toEqual([
      ['find_file', { input: '"missing_colon.py"' }],
      ['open', { input: 'tests/missing_colon.py' }],
      ['edit', { input: '4:4\ndef division(a: float, b: float) -> float:\nend_of_edit' }],
      ['python', { input: 'tests/missing_colon.py' }],
      ['submit', {}],
    ]);
    // The demonstration in the history is not the task.
    expect(w.trajectory.task_input).toMatch(/^We're currently solving the following issue/);
    expect(w.trajectory.final_answer).toMatch(/^\r?\ndiff --git a\/tests\/missing_colon.py/);
    expect(w.meta).toMatchObject({
      task: 'i1',
      outcome: { succeeded: null, status: 'submitted' },
      cost_usd: 0.53839,
      tokens: { sent: 52861, received: 326 },
      api_calls: 5,
    });
    expect(w.trajectory.total_tokens).toBe(52861 + 326);
  });

  it('reads a function-calling run from the history, and its final submit from the trajectory', async () => {
    const w = fromSweAgentTrajectory(await read('swe-agent-function-calling.traj'));
    expect(toolCalls(w.trajectory).map((s) => [s.tool_name, s.call_id])).toEqual([
      ['find_file', 'call_fJuazlMUN5fQDQ73G6XSpYpx'],
      ['open', 'call_OhmPHGZp0XJ6JRnNkQaYcBMs'],
      ['edit', 'call_DVnbJcFrvwPsrPt3KfIMf7OH'],
      ['bash', 'call_dcF76aXH6e1pzqRwGxOwpuxb'],
      ['submit', 'step-5'],
    ]);
    expect(toolCalls(w.trajectory)[0]!.tool_input).toEqual({ file_name: 'missing_colon.py' });
    const first = w.trajectory.steps.find((s) => s.step_type === 'observation')!;
    expect([first.call_id, first.tool_name, first.latency_ms]).toEqual([
      'call_fJuazlMUN5fQDQ73G6XSpYpx',
      'find_file',
      281.4128329991945,
    ]);
  });

  it('records an exit other than a submission as a failed task', () => {
    const w = fromSweAgentTrajectory({
      trajectory: [{ action: 'ls -la', observation: 'a b', thought: 'look' }],
      history: [],
      info: { exit_status: 'exit_cost', model_stats: { instance_cost: 3.01 } },
    });
    expect(w.meta.outcome).toEqual({ succeeded: false, status: 'exit_cost' });
    expect(w.trajectory.final_answer).toBeNull();
    expect(calls(w.trajectory)).toEqual([['ls', { input: '-la' }]]);
  });

  it('imports through the command with meta.json, and refuses a file without a trajectory list', async () => {
    const dir = await tmp();
    const io = captureIo();
    expect(await runImport({ file: `${FIXTURES}/swe-agent-commands.traj`, out: dir }, io)).toBe(0);
    expect(io.stdout().split('\n').slice(3)).toEqual([
      `✓ wrote ${dir}/meta.json: outcome unknown (submitted), task swe-agent-commands, cost 0.53839 USD`,
      '  arguments: 4 of 5 tool calls',
      '  ! 1 tool call without arguments (submit)',
      '  citations: none in the answer',
    ]);
    expect((await loadWorkup(dir)).meta.outcome).toEqual({ succeeded: null, status: 'submitted' });

    const bad = join(dir, 'bad.traj');
    await writeFile(bad, '{\n  "trajectory": {},\n  "history": []\n}\n');
    const err = captureIo();
    expect(await runImport({ file: bad, from: 'swe-agent', out: join(dir, 'w') }, err)).toBe(1);
    expect(err.stderr()).toBe(
      `✗ ${bad}:2:17: trajectory: expected a SWE-agent trajectory with a "trajectory" list, found an object`,
    );
  });
});

describe('tau-bench results', () => {
  it('reads each result: the chat as the trajectory, the expected actions as gold, reward and task in the meta', async () => {
    const { workups, failed, many } = fromTauBenchResults(await read('tau-bench-results.json'));
    expect([failed, many]).toEqual([[], true]);
    expect(workups.map((w) => [w.name, w.meta.task, w.meta.trial, w.meta.outcome])).toEqual([
      ['task-0-trial-1', '0', 1, { succeeded: true, reward: 1 }],
      ['task-1-trial-1', '1', 1, { succeeded: false, reward: 0 }],
    ]);
    expect(calls(workups[0]!.gold!)).toEqual([
      ['find_user_id_by_name_zip', { first_name: 'Yusuf', last_name: 'Rossi', zip: '19122' }],
      ['get_order_details', { order_id: '#W2378156' }],
      ['cancel_pending_order', { order_id: '#W2378156', reason: 'no longer needed' }],
    ]);
    expect(calls(workups[0]!.trajectory)).toEqual(calls(workups[0]!.gold!));
    expect(workups[0]!.trajectory.final_answer).toMatch(/^Your order #W2378156 is cancelled/);
    expect(workups[1]!.meta['expected_outputs']).toEqual(['2']);
  });

  it("numbers trials from 1, as needlework does everywhere: tau-bench's trial 0 is trial 1 in the meta and the name", () => {
    const { workups } = fromTauBenchResults(
      [0, 1].map((trial) => ({ task_id: 5, reward: 1, traj: [], trial })),
    );
    expect(workups.map((w) => [w.name, w.meta.trial])).toEqual([
      ['task-5-trial-1', 1],
      ['task-5-trial-2', 2],
    ]);
  });

  it('takes the last text the agent sent the user as the answer, with the transfer that ended the run or before calls', async () => {
    const results = (await read('tau-bench-results.json')) as Array<{ traj: unknown[] }>;
    const traj = results[1]!.traj;
    // The agent's last words come with the call that ends a tau-bench episode (its terminate tool).
    traj.splice(traj.length - 1, 1, {
      role: 'assistant',
      content: 'I am transferring you to a human agent who can list your orders.',
      tool_calls: [
        {
          id: 'call_9',
          type: 'function',
          function: { name: 'transfer_to_human_agents', arguments: '{"summary": "order count"}' },
        },
      ],
    });
    traj.push({
      role: 'tool',
      tool_call_id: 'call_9',
      name: 'transfer_to_human_agents',
      content: 'Transfer successful',
    });
    const transferred = fromTauBenchResults(results[1]).workups[0]!;
    expect(transferred.trajectory.final_answer).toBe(
      'I am transferring you to a human agent who can list your orders.',
    );
    // A text followed only by other calls (the run stopped while looking something up): it is still what the user was
    // last told; the text that came with a lookup was never sent to the user.
    traj.splice(traj.length - 2, 2, {
      role: 'assistant',
      content: 'Let me look that up.',
      tool_calls: [
        { id: 'call_8', type: 'function', function: { name: 'get_user_details', arguments: '{}' } },
      ],
    });
    traj.push({ role: 'tool', tool_call_id: 'call_8', name: 'get_user_details', content: '{}' });
    expect(fromTauBenchResults(results[1]).workups[0]!.trajectory.final_answer).toBe(
      'I found your account, but I cannot see your order history.',
    );
  });

  it('records a run that crashed (tau-bench keeps its error in info) as failed, and says so', () => {
    const { workups } = fromTauBenchResults({
      task_id: 4,
      reward: 0,
      info: { error: 'RateLimitError: too many requests\nTraceback ...', traceback: '...' },
      traj: [],
      trial: 2,
    });
    expect(workups[0]!.meta.outcome).toEqual({ succeeded: false, reward: 0, status: 'error' });
    expect(workups[0]!.dropped).toEqual([
      'the run failed with an error: RateLimitError: too many requests',
      'no info.task.actions: no gold trajectory',
    ]);
    expect(workups[0]!.name).toBe('task-4-trial-3');
  });

  it('imports the good results of a list with a bad one, one folder each, and names the bad one', async () => {
    const dir = await tmp();
    const file = join(dir, 'results.json');
    const results = JSON.parse(await readFile(`${FIXTURES}/tau-bench-results.json`, 'utf8'));
    results.splice(1, 0, { task_id: 7, reward: 1, traj: [{ role: 'robot' }], trial: 0 });
    await writeFile(file, JSON.stringify(results, null, 2));
    const io = captureIo();
    expect(await runImport({ file, out: join(dir, 'out') }, io)).toBe(1);
    expect(io.stderr().split('\n')).toEqual([
      `✗ ${file}:${lineOf(JSON.stringify(results, null, 2), '"role": "robot"')}:17: [1].traj[0].role: expected one of system, developer, user, assistant, tool, function, found the string "robot"`,
      `✗ ${file}: 1 problem in elements that were not imported; 2 workups imported from the rest`,
    ]);
    const ok = await loadWorkup(join(dir, 'out', 'task-0-trial-1'));
    // meta.input is the question (what the judge reads before meta.task, which is only an id here).
    expect(ok.meta).toMatchObject({
      task: '0',
      input: "Hi, I'd like to cancel an order I placed.",
      trial: 1,
      outcome: { succeeded: true, reward: 1 },
    });
    expect(ok.gold?.steps.length).toBe(3);
    expect((await loadWorkup(join(dir, 'out', 'task-1-trial-1'))).meta.outcome?.succeeded).toBe(false);
  });
});

describe('every import says what it could not take', () => {
  it('exits 1 when it took no tool call from a trace that shows some', async () => {
    const dir = await tmp();
    const file = join(dir, 'spans.json');
    const span = (name: string, id: string) => ({
      name,
      context: { trace_id: '0x5b8efff798038103d269b633813fc60c', span_id: id },
      parent_id: id === '0x01' ? '0x02' : null,
      start_time: 1780394410000000000,
      attributes: { 'custom.args': '{"q": 1}' },
    });
    await writeFile(
      file,
      JSON.stringify([
        span('agent', '0x02'),
        span('run_tool search', '0x01'),
        span('run_tool fetch', '0x03'),
      ]),
    );
    const io = captureIo();
    expect(await runImport({ file, from: 'otel-sdk', out: join(dir, 'w') }, io)).toBe(1);
    expect(io.stdout()).toContain(
      '  ! could not take: 2 spans not read as a tool, model or agent call (run_tool search, run_tool fetch)',
    );
    expect(io.stderr()).toBe(
      `✗ ${file}: took no tool call from 5b8efff798038103d269b633813fc60c, but the source shows 2; name the producer in an issue so its format can be read`,
    );
  });
});

function lineOf(text: string, needle: string): number {
  return text.slice(0, text.indexOf(needle)).split('\n').length;
}
