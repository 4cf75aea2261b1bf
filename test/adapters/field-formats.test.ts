import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../src/adapters/detect.js';
import type { ImportedWorkup } from '../../src/adapters/imported.js';
import { importJson } from '../../src/adapters/importers.js';
import { readInspectEval, valueToFloat } from '../../src/adapters/inspect.js';
import { errorSteps, toolCalls } from '../../src/model/trajectory.js';
import { parseJson } from '../../src/parse/json.js';

/**
 * The real run files of issue 45's new formats (fixtures/imports/README.md says where each comes from), imported with
 * their format detected, against counts read off the raw files: each `raw*` function below walks the file's JSON the
 * simplest way its format allows, apart from the importer, and the numbers they give were also counted by hand (with
 * a separate script) and are pinned, so a change to either side shows.
 */

const FIXTURES = 'fixtures/imports';
// biome-ignore lint/suspicious/noExplicitAny: the raw files are walked as plain JSON, apart from the importers' types
type Json = Record<string, any>;

async function raw(name: string): Promise<Json> {
  return JSON.parse(await readFile(join(FIXTURES, name), 'utf8'));
}

/** Imports a fixture as `needlework import` does: detected, its name the file name without extension. */
async function imported(name: string): Promise<{ format: string | undefined; workups: ImportedWorkup[] }> {
  const bytes = await readFile(join(FIXTURES, name));
  const json = name.endsWith('.eval')
    ? readInspectEval(bytes, name)
    : name.endsWith('.jsonl')
      ? bytes
          .toString('utf8')
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => parseJson(l, name))
      : parseJson(bytes.toString('utf8'), name);
  const format = detectFormat(json);
  const result = importJson(format!, json, { file: name, name: name.replace(/(\.traj)?\.[^.]+$/, '') });
  expect(result.failed).toEqual([]);
  return { format, workups: result.workups };
}

/** What a check reads of an imported workup. */
function figures(w: ImportedWorkup) {
  return {
    calls: toolCalls(w.trajectory).length,
    errors: errorSteps(w.trajectory).length,
    answer: w.trajectory.final_answer,
    tokens: w.trajectory.total_tokens,
    cost: w.meta['cost_usd'],
    outcome: w.meta.outcome,
  };
}

describe('mini-swe-agent 2.x .traj.json', () => {
  // Walk: assistant tool_calls; failed = tool messages with extra.exception_info; tokens = usage of each response.
  const rawCounts = (d: Json) => {
    const messages: Json[] = d['messages'];
    return {
      calls: messages
        .filter((m) => m['role'] === 'assistant')
        .reduce((n, m) => n + (m['tool_calls'] ?? []).length, 0),
      errors: messages.filter((m) => m['role'] === 'tool' && (m['extra']?.['exception_info'] ?? '') !== '')
        .length,
      tokens: messages
        .filter((m) => m['role'] === 'assistant')
        .reduce(
          (n, m) =>
            n +
            m['extra']['response']['usage']['prompt_tokens'] +
            m['extra']['response']['usage']['completion_tokens'],
          0,
        ),
      answer: d['info']['submission'] || null,
      cost: d['info']['model_stats']['instance_cost'],
      status: d['info']['exit_status'],
      last: messages.at(-1)!['role'],
    };
  };

  it('imports the submitted run whole, its exit message included (31 calls, the patch as the answer)', async () => {
    const d = await raw('mini-swe-agent-django-14752.traj.json');
    const counted = rawCounts(d);
    expect(counted).toEqual({
      calls: 31,
      errors: 0,
      tokens: 301_375,
      answer: d['info']['submission'],
      cost: 0.013638016,
      status: 'Submitted',
      last: 'exit',
    });
    expect(counted.answer).toHaveLength(1349);
    const { format, workups } = await imported('mini-swe-agent-django-14752.traj.json');
    expect(format).toBe('mini-swe-agent');
    expect(workups).toHaveLength(1);
    expect(figures(workups[0]!)).toEqual({
      calls: counted.calls,
      errors: counted.errors,
      answer: counted.answer,
      tokens: counted.tokens,
      cost: counted.cost,
      outcome: { succeeded: null, status: 'Submitted' },
    });
    // Six commands exited nonzero (grep finding nothing, a failing test): their output, not tool errors.
    expect(
      d['messages'].filter((m: Json) => m['role'] === 'tool' && m['extra']['returncode'] !== 0),
    ).toHaveLength(6);
    expect(workups[0]!.meta.task).toBe('django__django-14752');
    expect(
      toolCalls(workups[0]!.trajectory).every(
        (s) => s.tool_name === 'bash' && typeof s.tool_input?.['command'] === 'string',
      ),
    ).toBe(true);
  });

  it('imports the run that died on a model error as failed, with no answer, and says why', async () => {
    const d = await raw('mini-swe-agent-pvlib-1606-error.traj.json');
    const counted = rawCounts(d);
    expect(counted).toEqual({
      calls: 4,
      errors: 0,
      tokens: 17_665,
      answer: null,
      cost: 0.001055488,
      status: 'InternalServerError',
      last: 'exit',
    });
    const { workups } = await imported('mini-swe-agent-pvlib-1606-error.traj.json');
    expect(figures(workups[0]!)).toEqual({
      calls: 4,
      errors: 0,
      answer: null,
      tokens: 17_665,
      cost: 0.001055488,
      outcome: { succeeded: false, status: 'InternalServerError' },
    });
    expect(workups[0]!.dropped).toEqual([
      'the run ended with InternalServerError: litellm.InternalServerError: InternalServerError: DeepseekException - [SSL: UNEXPECTED_EOF_WHILE_READING] EOF occurred in violation of protocol (_ssl.c:1000)',
    ]);
  });
});

describe('tau2-bench results', () => {
  it('imports each simulation as a workup: task, trial, reward, tool errors marked error: true, gold actions', async () => {
    const d = await raw('tau2-bench-airline-results.json');
    // Walk: the agent's tool_calls; failed = tool messages with error: true; answer = the agent's last text.
    const counted = (d['simulations'] as Json[]).map((s) => ({
      task: s['task_id'],
      trial: s['trial'],
      calls: s['messages']
        .filter((m: Json) => m['role'] === 'assistant')
        .reduce((n: number, m: Json) => n + (m['tool_calls'] ?? []).length, 0),
      errors: s['messages'].filter((m: Json) => m['role'] === 'tool' && m['error'] === true).length,
      reward: s['reward_info']['reward'],
      answer: s['messages'].filter((m: Json) => m['role'] === 'assistant' && m['content']).at(-1)['content'],
    }));
    const transfer = 'YOU ARE BEING TRANSFERRED TO A HUMAN AGENT. PLEASE HOLD ON.';
    expect(counted).toEqual([
      { task: '9', trial: 0, calls: 4, errors: 1, reward: 1, answer: transfer },
      { task: '25', trial: 0, calls: 8, errors: 3, reward: 0, answer: transfer },
    ]);
    const { format, workups } = await imported('tau2-bench-airline-results.json');
    expect(format).toBe('tau2-bench');
    expect(workups.map((w) => w.name)).toEqual(['task-9-trial-1', 'task-25-trial-1']);
    expect(workups.map(figures)).toEqual([
      // The agent records no usage and no agent_cost in this run (a custom agent): neither is measured.
      {
        calls: 4,
        errors: 1,
        answer: transfer,
        tokens: 0,
        cost: undefined,
        outcome: { succeeded: true, reward: 1, status: 'user_stop' },
      },
      {
        calls: 8,
        errors: 3,
        answer: transfer,
        tokens: 0,
        cost: undefined,
        outcome: { succeeded: false, reward: 0, status: 'user_stop' },
      },
    ]);
    expect(workups.map((w) => [w.meta.task, w.meta.trial])).toEqual([
      ['9', 1],
      ['25', 1],
    ]);
    expect(errorSteps(workups[0]!.trajectory).map((s) => [s.tool_name, s.error])).toEqual([
      ['get_reservation_details', 'Reservation IFOYWZ not found'],
    ]);
    // Ids repeat within a run (gem_book_reservation_0 three times): each call still has its own result.
    const ids = toolCalls(workups[1]!.trajectory).map((s) => s.call_id);
    expect(new Set(ids).size).toBe(8);
    expect(workups.map((w) => toolCalls(w.gold!).map((s) => s.tool_name))).toEqual([
      ['search_direct_flight'],
      ['book_reservation'],
    ]);
  });
});

describe('Inspect AI logs', () => {
  it('reads the zipped .eval in memory: 5 bash calls, the completion as the answer, the score as the outcome', async () => {
    // Walk, through the archive by hand: the sample member, inflated with zlib alone.
    const bytes = await readFile(join(FIXTURES, 'inspect-bash-tool-calls.eval'));
    const sample = JSON.parse(rawMember(bytes, 'samples/0_epoch_1.json'));
    const calls = (sample['messages'] as Json[]).reduce((n, m) => n + (m['tool_calls'] ?? []).length, 0);
    const errors = (sample['messages'] as Json[]).filter((m) => m['role'] === 'tool' && m['error']).length;
    expect([
      calls,
      errors,
      sample['output']['completion'],
      sample['scores']['closeness_log']['value'],
    ]).toEqual([5, 0, 'done', 0]);
    expect(sample['model_usage']).toEqual({});
    const { format, workups } = await imported('inspect-bash-tool-calls.eval');
    expect(format).toBe('inspect');
    expect(workups.map((w) => w.name)).toEqual(['0-epoch-1']);
    expect(figures(workups[0]!)).toEqual({
      calls: 5,
      errors: 0,
      answer: 'done',
      tokens: 0,
      cost: undefined,
      outcome: { succeeded: false, reward: 0 },
    });
    expect(toolCalls(workups[0]!.trajectory).map((s) => [s.tool_name, s.tool_input, s.call_id])).toEqual(
      [0, 1, 2, 3, 4].map((i) => ['bash', { cmd: 'ls' }, `hardcoded_${i}`]),
    );
  });

  it('reads every ToolCallError of the .json log as a failed call, type and message', async () => {
    const d = await raw('inspect-tool-call-errors.json');
    const errors = (d['samples'][0]['messages'] as Json[]).filter((m) => m['role'] === 'tool' && m['error']);
    expect(errors.map((m) => m['error']['type'])).toEqual([
      'parsing',
      'timeout',
      'parsing',
      'unicode_decode',
      'permission',
      'file_not_found',
      'is_a_directory',
      'limit',
      'approval',
      'unknown',
      'output_limit',
    ]);
    const { format, workups } = await imported('inspect-tool-call-errors.json');
    expect(format).toBe('inspect');
    // The log holds the tool messages alone (a test log of Inspect's): 11 failed results, no call, no answer.
    expect(figures(workups[0]!)).toEqual({
      calls: 0,
      errors: 11,
      answer: null,
      tokens: 0,
      cost: undefined,
      outcome: undefined,
    });
    expect(errorSteps(workups[0]!.trajectory).at(-1)!.error).toBe(
      'output_limit: The tool output limit of 10 MiB was exceeded.',
    );
    expect(errorSteps(workups[0]!.trajectory)[1]!.error).toBe('timeout: ...');
  });

  it("reads score values as Inspect's value_to_float does", () => {
    expect(
      ['C', 'P', 'I', 'N', true, false, 0.25, 'yes', 'False', '0.5', { a: 1 }].map(valueToFloat),
    ).toEqual([1, 0.5, 0, 0, 1, 0, 0.25, 1, 0, 0.5, undefined]);
  });
});

describe('OpenHands evaluation output.jsonl', () => {
  it('imports the line: one call per action with tool_call_metadata, ErrorObservation failed, the patch as the answer', async () => {
    const d = JSON.parse((await readFile(join(FIXTURES, 'openhands-output.jsonl'), 'utf8')).trim());
    const history: Json[] = d['history'];
    const counted = {
      calls: history.filter((e) => 'action' in e && e['tool_call_metadata']).length,
      errors: history.filter((e) => e['observation'] === 'error').length,
      tokens:
        d['metrics']['accumulated_token_usage']['prompt_tokens'] +
        d['metrics']['accumulated_token_usage']['completion_tokens'],
      answer: d['test_result']['git_patch'],
    };
    expect({ ...counted, answer: counted.answer.length }).toEqual({
      calls: 33,
      errors: 1,
      tokens: 415_325,
      answer: 533,
    });
    expect(d['metrics']['accumulated_cost']).toBe(0);
    const { format, workups } = await imported('openhands-output.jsonl');
    expect(format).toBe('openhands');
    expect(figures(workups[0]!)).toEqual({
      calls: 33,
      errors: 1,
      answer: counted.answer,
      tokens: 415_325,
      // accumulated_cost 0 with no costs listed: no price known for the model, so not measured.
      cost: undefined,
      outcome: { succeeded: null, status: 'finished' },
    });
    const names = toolCalls(workups[0]!.trajectory).map((s) => s.tool_name);
    expect([
      names.filter((n) => n === 'execute_bash').length,
      names.filter((n) => n === 'str_replace_editor').length,
      names.at(-1),
    ]).toEqual([12, 20, 'finish']);
    expect(errorSteps(workups[0]!.trajectory)[0]!.error).toBe(
      "Parameter 'command' is expected to be one of ['view', 'create', 'str_replace', 'insert', 'undo_edit'].",
    );
  });
});

describe('litellm completion log (OpenHands llm_completions)', () => {
  it('reads the response as the last turn: its text the answer, its finish call a call, its tokens and cost', async () => {
    const d = await raw('litellm-completion-finish.json');
    const reply = d['response']['choices'][0]['message'];
    const calls =
      (d['messages'] as Json[]).reduce((n, m) => n + (m['tool_calls'] ?? []).length, 0) +
      reply['tool_calls'].length;
    expect([
      calls,
      reply['tool_calls'].map((c: Json) => c['function']['name']),
      reply['content'].length,
    ]).toEqual([12, ['finish'], 1213]);
    expect([
      d['response']['usage']['prompt_tokens'] + d['response']['usage']['completion_tokens'],
      d['cost'],
    ]).toEqual([10_549, 0.035391000000000006]);
    const { format, workups } = await imported('litellm-completion-finish.json');
    expect(format).toBe('openai');
    expect(figures(workups[0]!)).toEqual({
      calls: 12,
      errors: 0,
      answer: reply['content'],
      tokens: 10_549,
      cost: 0.035391000000000006,
      outcome: undefined,
    });
    expect(toolCalls(workups[0]!.trajectory).at(-1)!.tool_name).toBe('finish');
    expect(workups[0]!.trajectory.steps.at(-2)!.step_type).toBe('answer');
  });
});

describe('AgentOps trace export', () => {
  it('reads the spans as an OTel trace: two model calls, their tokens, the last completion as the answer', async () => {
    const d = await raw('agentops-crewai-trace.json');
    const kind = (s: Json) => s['span_attributes']['agentops']['span']['kind'];
    const llm = (d['spans'] as Json[]).filter((s) => kind(s) === 'llm');
    const tools = (d['spans'] as Json[]).filter((s) => kind(s) === 'tool');
    const tokens = llm.reduce(
      (n, s) => n + s['metrics']['prompt_tokens'] + s['metrics']['completion_tokens'],
      0,
    );
    const last = llm.sort((x, y) => x['start_time'].localeCompare(y['start_time'])).at(-1)!;
    const answer = last['span_attributes']['gen_ai']['completion'][0]['content'];
    expect([llm.length, tools.length, tokens, answer.length, d['trace']['total_cost']]).toEqual([
      2, 0, 977, 1895, 0,
    ]);
    const { format, workups } = await imported('agentops-crewai-trace.json');
    expect(format).toBe('agentops');
    expect(figures(workups[0]!)).toEqual({
      calls: 0,
      errors: 0,
      answer,
      tokens: 977,
      // AgentOps priced the local model at 0: no price known, not measured.
      cost: undefined,
      outcome: undefined,
    });
    expect(workups[0]!.meta.trace).toEqual({
      traceId: 'b520ab60214d54b570cf701c7ad28faf',
      spanId: '3a5b01c520ec0171',
    });
    expect(workups[0]!.dropped).toEqual([
      '2 spans not read as a tool, model or agent call (Research this URL for songwriting material: https://www.ibm.com/think/topics/agent-communication-protocol.task, Write a song based on research..task)',
    ]);
  });
});

/** One member of a zip archive, found and inflated by hand (local header at the offset the directory gives). */
function rawMember(zip: Buffer, name: string): string {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = zip.readUInt32LE(end + 16);
  for (let n = 0; n < zip.readUInt16LE(end + 10); n++) {
    const nameLength = zip.readUInt16LE(at + 28);
    const entryName = zip.toString('utf8', at + 46, at + 46 + nameLength);
    if (entryName === name) {
      const local = zip.readUInt32LE(at + 42);
      const data = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      return inflateRawSync(zip.subarray(data, data + zip.readUInt32LE(at + 20))).toString('utf8');
    }
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  throw new Error(`no member ${name}`);
}
