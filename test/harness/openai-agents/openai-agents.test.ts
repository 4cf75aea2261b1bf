import {
  Agent,
  type AgentOutputItem,
  run,
  setTraceProcessors,
  setTracingDisabled,
  tool,
  Usage,
  withTrace,
} from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { traceModel, WorkupProcessor } from '../../../src/harness/openai-agents/index.js';
import { bridgeTurns, failure, guessTurns, type Turn } from '../helpers/agent.js';
import {
  compoundAlpha,
  docsSearch,
  GUESS_NOTE,
  graphLedger,
  graphQuery,
  groundedNote,
  QUESTION,
} from '../helpers/world.js';

const graphTool = tool({
  name: 'graph_query',
  description: 'Facts of the entity graph that touch an entity, of one relation when given.',
  parameters: z.object({ entity: z.string(), relation: z.string().nullable() }),
  execute: async ({ entity, relation }) => graphQuery({ entity, ...(relation ? { relation } : {}) }),
});

const docsTool = tool({
  name: 'docs_search',
  description: 'Document texts that contain the query.',
  parameters: z.object({ query: z.string() }),
  execute: async ({ query }) => {
    if (query === '') throw new Error('empty query');
    return docsSearch({ query });
  },
});

/** The scripted model's responses for the shared acceptance turns: calls as `function_call` items, text as a message. */
function script(turns: readonly Turn[]) {
  return turns.map((turn): AgentOutputItem[] =>
    'text' in turn
      ? [assistantMessage(turn.text)]
      : turn.calls.map((c) => functionCall(c.name, { relation: null, ...c.input }, { callId: c.id })),
  );
}

function agentWith(model: ScriptedModel) {
  return new Agent({
    name: 'Analyst',
    instructions: 'Find the link.',
    model: traceModel(model),
    tools: [graphTool, docsTool],
  });
}

let processor: WorkupProcessor;

beforeEach(() => {
  processor = new WorkupProcessor({ ledger: graphLedger, task: 'halberd-wren' });
  setTraceProcessors([processor]);
  // The SDK turns tracing off when NODE_ENV is test; the processor needs the spans.
  setTracingDisabled(false);
});

afterEach(() => {
  setTraceProcessors([]);
  setTracingDisabled(true);
});

describe('WorkupProcessor: a two-tool agent on the SDK scripted model', () => {
  it('records the trajectory, the ledger and the note from the trace', async () => {
    const note = [
      '# Workup',
      '',
      '## Findings',
      '',
      '- Halberd is a member of Ash Cell. [cite:c-1]',
      '- Ash Cell and Wren are co-located at Compound-Alpha. [cite:c-2,c-4]',
      '- Compound-Alpha stands in Port Sable. [cite:c-3]',
      '',
    ].join('\n');
    const model = new ScriptedModel([
      {
        output: [
          assistantMessage('Start from Halberd.'),
          functionCall('graph_query', { entity: 'Halberd', relation: 'MEMBER_OF' }, { callId: 'c-1' }),
        ],
        usage: new Usage({ inputTokens: 100, outputTokens: 20, requests: 1 }),
      },
      [
        functionCall('graph_query', { entity: 'Ash Cell', relation: 'CO_LOCATED' }, { callId: 'c-2' }),
        functionCall('docs_search', { query: 'Compound-Alpha' }, { callId: 'c-3' }),
      ],
      [functionCall('docs_search', { query: '' }, { callId: 'c-5' })],
      [functionCall('graph_query', { entity: 'Compound-Alpha', relation: 'CO_LOCATED' }, { callId: 'c-4' })],
      {
        output: [assistantMessage(note)],
        usage: new Usage({ inputTokens: 300, outputTokens: 60, requests: 1 }),
      },
    ]);
    const result = await run(agentWith(model), QUESTION);
    expect(result.finalOutput).toBe(note);

    expect(processor.workups).toHaveLength(1);
    const workup = processor.workup();
    expect(processor.workups[0]).toBe(workup);
    expect(workup.id).toMatch(/^trace_[0-9a-f]{32}$/);
    expect(workup.meta).toMatchObject({ task: 'halberd-wren', harness: 'openai-agents' });
    expect(workup.meta['usage']).toEqual({ inputTokens: 400, outputTokens: 80 });

    const trajectory = workup.trajectory!;
    expect(trajectory.task_input).toBe(QUESTION);
    expect(trajectory.steps.map((s) => [s.step_type, s.tool_name, s.call_id ?? null])).toEqual([
      ['thought', null, null],
      ['tool_call', 'graph_query', 'c-1'],
      ['observation', 'graph_query', 'c-1'],
      ['tool_call', 'graph_query', 'c-2'],
      ['observation', 'graph_query', 'c-2'],
      ['tool_call', 'docs_search', 'c-3'],
      ['observation', 'docs_search', 'c-3'],
      ['tool_call', 'docs_search', 'c-5'],
      ['observation', 'docs_search', 'c-5'],
      ['tool_call', 'graph_query', 'c-4'],
      ['observation', 'graph_query', 'c-4'],
      ['answer', null, null],
    ]);
    expect(trajectory.steps[0]).toMatchObject({ content: 'Start from Halberd.', tokens_used: 120 });
    expect(trajectory.steps[1]!.tool_input).toEqual({ entity: 'Halberd', relation: 'MEMBER_OF' });
    // The SDK redacts tool error details from traces unless sensitive data logging is on.
    expect(trajectory.steps[8]).toMatchObject({
      error: 'Tool execution failed. Error details are redacted.',
      content: 'ERROR: Tool execution failed. Error details are redacted.',
    });
    expect(trajectory.final_answer).toBe(note);
    expect(trajectory.total_tokens).toBe(480);
    for (const step of trajectory.steps) expect(step.latency_ms).toBeGreaterThanOrEqual(0);

    expect(workup.ledger.map((e) => [e.id, e.store, e.results.length, e.error ?? null])).toEqual([
      ['c-1', 'graph', 1, null],
      ['c-2', 'graph', 1, null],
      ['c-3', 'docs_search', 0, null],
      ['c-5', 'docs_search', 0, 'Tool execution failed. Error details are redacted.'],
      ['c-4', 'graph', 2, null],
    ]);
    expect(workup.ledger[0]!.query).toBe('graph_query({"entity":"Halberd","relation":"MEMBER_OF"})');

    expect(workup.note?.citations.map((c) => c.id)).toEqual(['c-1', 'c-2', 'c-4', 'c-3']);
    expect(workup).toTraverse({
      relations: ['MEMBER_OF', 'CO_LOCATED', 'CO_LOCATED'],
      from: 'Halberd',
      to: 'Wren',
    });
    expect(workup).toHaveResolvableCitations();
  });

  it('numbers the calls g1, g2, ... and records no answer when the model traces nothing', async () => {
    const model = new ScriptedModel([
      [functionCall('graph_query', { entity: 'Halberd', relation: 'MEMBER_OF' }, { callId: 'c-1' })],
      [assistantMessage('Ash Cell.')],
    ]);
    const agent = new Agent({ name: 'Bare', instructions: 'x', model, tools: [graphTool] });
    await run(agent, QUESTION);
    const workup = processor.workup();
    expect(workup.ledger.map((e) => e.id)).toEqual(['g1']);
    expect(workup.trajectory?.steps.map((s) => s.step_type)).toEqual(['tool_call', 'observation']);
    expect(workup.trajectory?.final_answer).toBeNull();
    expect(workup.note).toBeUndefined();
  });

  it('keeps one workup per trace, named by the id option, and records handoffs as thoughts', async () => {
    processor = new WorkupProcessor({ id: (trace) => trace.name, note: false });
    setTraceProcessors([processor]);
    const research = new Agent({
      name: 'Research',
      instructions: 'x',
      model: traceModel(new ScriptedModel([[assistantMessage('Compound-Alpha.')]])),
    });
    const triage = new Agent({
      name: 'Triage',
      instructions: 'x',
      handoffs: [research],
      model: traceModel(new ScriptedModel([[functionCall('transfer_to_Research', {}, { callId: 'h-1' })]])),
    });
    await withTrace('first', () => run(triage, QUESTION));
    await withTrace('second', () =>
      run(agentWith(new ScriptedModel([[assistantMessage('No idea.')]])), 'Who?'),
    );
    expect(processor.workups.map((w) => w.id)).toEqual(['first', 'second']);
    const first = processor.workups[0]!;
    expect(first.trajectory?.steps.map((s) => [s.step_type, s.content])).toEqual([
      ['thought', 'Handoff: Triage → Research'],
      ['answer', 'Compound-Alpha.'],
    ]);
    expect(first.ledger).toEqual([]);
    expect(first.note).toBeUndefined();
    expect(processor.workup().trajectory?.final_answer).toBe('No idea.');
    expect(() => processor.workup('trace_nope')).toThrow(
      /^openai-agents: no run trace_nope; recorded runs: trace_[0-9a-f]{32}, trace_[0-9a-f]{32}$/,
    );
  });

  it('says so when asked for a workup before any run', () => {
    expect(() => new WorkupProcessor().workup()).toThrow(
      'openai-agents: no run recorded yet (is the harness registered with the SDK, and did the agent run?)',
    );
  });
});

describe('WorkupProcessor: the compound-alpha acceptance test', () => {
  it('grounds the agent that walks the bridge and cites its calls', async () => {
    const turns = bridgeTurns(groundedNote(['call-1', 'call-2', 'call-3']));
    await run(agentWith(new ScriptedModel(script(turns))), QUESTION);
    const workup = processor.workup();
    expect(workup.ledger.map((e) => e.id)).toEqual(['call-1', 'call-2', 'call-3']);
    expect(workup).toBeGrounded(await compoundAlpha());
  });

  it('fails the same agent as a guess when it answers without the bridge calls', async () => {
    await run(agentWith(new ScriptedModel(script(guessTurns(GUESS_NOTE)))), QUESTION);
    const workup = processor.workup();
    const needle = await compoundAlpha();
    expect(failure(() => expect(workup).toBeGrounded(needle))).toMatch(
      /^expect\(workup\)\.toBeGrounded\(needle\)\n\nA guess, not a finding: the note of workup trace_[0-9a-f]{32} names Compound-Alpha, but its ledger never traversed MEMBER_OF → CO_LOCATED → CO_LOCATED/,
    );
  });
});
