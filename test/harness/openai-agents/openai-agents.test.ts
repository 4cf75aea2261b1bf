import {
  Agent,
  type AgentOutputItem,
  type Model,
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
import { cassetteModel, traceModel, WorkupProcessor } from '../../../src/harness/openai-agents/index.js';
import type { CallCassette } from '../../../src/index.js';
import { agentTest } from '../../../src/vitest/agent.js';
import { bridgeTurns, failure, guessTurns } from '../helpers/agent.js';
import { flakyReplaySuite, flakyTurns } from '../helpers/flaky.js';
import {
  expectTwoToolWorkup,
  TOOLS,
  type ToolTurn,
  TWO_TOOL_NOTE,
  TWO_TOOL_TURNS,
  toolTurns,
} from '../helpers/two-tool.js';
import { compoundAlpha, GUESS_NOTE, graphLedger, groundedNote, QUESTION } from '../helpers/world.js';

/** The graph tool, its calls answered from and recorded to `cassette`; `offline`: a tool that throws if run. */
const cassetteGraphTool = (cassette: CallCassette, offline: boolean) =>
  tool({
    name: 'graph_query',
    description: 'Facts of the entity graph that touch an entity, of one relation when given.',
    parameters: z.object({ entity: z.string(), relation: z.string().nullable() }),
    execute: cassette.tool(
      'graph_query',
      async ({ entity, relation }: { entity: string; relation: string | null }) => {
        if (offline) throw new Error('the tool went live');
        return TOOLS.graph_query({ entity, ...(relation ? { relation } : {}) });
      },
    ),
  });

const graphTool = tool({
  name: 'graph_query',
  description: 'Facts of the entity graph that touch an entity, of one relation when given.',
  parameters: z.object({ entity: z.string(), relation: z.string().nullable() }),
  execute: async ({ entity, relation }) => TOOLS.graph_query({ entity, ...(relation ? { relation } : {}) }),
});

const docsTool = tool({
  name: 'docs_search',
  description: 'Document texts that contain the query.',
  parameters: z.object({ query: z.string() }),
  execute: async (input) => TOOLS.docs_search(input),
});

/** The SDK's scripted model playing `turns`: text as an assistant message, calls as `function_call` items. */
function scripted(turns: readonly ToolTurn[]): ScriptedModel {
  return new ScriptedModel(
    turns.map((turn) => {
      const output: AgentOutputItem[] = [
        ...(turn.text !== undefined ? [assistantMessage(turn.text)] : []),
        ...turn.calls.map((c) => functionCall(c.name, c.input, { callId: c.id })),
      ];
      return turn.usage
        ? {
            output,
            usage: new Usage({ inputTokens: turn.usage.input, outputTokens: turn.usage.output, requests: 1 }),
          }
        : output;
    }),
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
    const model = scripted(TWO_TOOL_TURNS);
    const result = await run(agentWith(model), QUESTION);
    expect(result.finalOutput).toBe(TWO_TOOL_NOTE);

    expect(processor.workups).toHaveLength(1);
    const workup = processor.workup();
    expect(processor.workups[0]).toBe(workup);
    expect(workup.id).toMatch(/^trace_[0-9a-f]{32}$/);
    expect(workup.meta).toMatchObject({ task: 'halberd-wren', harness: 'openai-agents' });
    expect(workup.meta['usage']).toEqual({ inputTokens: 400, outputTokens: 80 });

    const trajectory = workup.trajectory!;
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
    expect(trajectory.total_tokens).toBe(480);
    for (const step of trajectory.steps) expect(step.latency_ms).toBeGreaterThanOrEqual(0);
    // The SDK redacts tool error details from traces unless sensitive data logging is on.
    expectTwoToolWorkup(workup, 'Tool execution failed. Error details are redacted.');
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
    await run(agentWith(scripted(toolTurns(turns))), QUESTION);
    const workup = processor.workup();
    expect(workup.ledger.map((e) => e.id)).toEqual(['call-1', 'call-2', 'call-3']);
    expect(workup).toBeGrounded(await compoundAlpha());
  });

  it('grounds it too when the run streams', async () => {
    const turns = toolTurns(bridgeTurns(groundedNote(['call-1', 'call-2', 'call-3'])));
    const result = await run(agentWith(scripted(turns)), QUESTION, { stream: true });
    await result.completed;
    expect(processor.workup()).toBeGrounded(await compoundAlpha());
  });

  it('fails the same agent as a guess when it answers without the bridge calls', async () => {
    await run(agentWith(scripted(toolTurns(guessTurns(GUESS_NOTE)))), QUESTION);
    const workup = processor.workup();
    const needle = await compoundAlpha();
    expect(failure(() => expect(workup).toBeGrounded(needle))).toMatch(
      /^expect\(workup\)\.toBeGrounded\(needle\)\n\nA guess, not a finding: the note of workup trace_[0-9a-f]{32} names Compound-Alpha, but its ledger never traversed MEMBER_OF → CO_LOCATED → CO_LOCATED/,
    );
  });
});

describe('WorkupProcessor: with the runAgent fixture', () => {
  const agentIt = agentTest(
    async (input, { recorder }) => {
      setTraceProcessors([new WorkupProcessor({ recorder })]);
      await run(
        agentWith(scripted(toolTurns(bridgeTurns(groundedNote(['call-1', 'call-2', 'call-3']))))),
        input,
      );
    },
    { workups: false, recorder: { ledger: graphLedger } },
  );

  agentIt('records into the fixture recorder', async ({ runAgent }) => {
    const workup = await runAgent(QUESTION);
    expect(workup.meta).toMatchObject({ harness: 'openai-agents', trial: 1 });
    expect(workup.trajectory?.task_input).toBe(QUESTION);
    expect(workup).toBeGrounded(await compoundAlpha());
  });
});

flakyReplaySuite('openai-agents', (source) => async (input, { recorder, cassette, trial }) => {
  setTraceProcessors([new WorkupProcessor({ recorder })]);
  setTracingDisabled(false);
  const model: Model =
    source === 'live'
      ? scripted(toolTurns(flakyTurns(trial)))
      : {
          getResponse: async () => {
            throw new Error('the model went live');
          },
          // biome-ignore lint/correctness/useYield: it throws before it could yield
          getStreamedResponse: async function* () {
            throw new Error('the model went live');
          },
        };
  const agent = new Agent({
    name: 'Analyst',
    instructions: 'Find the link.',
    model: traceModel(cassetteModel(model, cassette!, 'scripted')),
    tools: [cassetteGraphTool(cassette!, source === 'offline')],
  });
  // The third trial streams, so the cassette records and replays a stream too.
  if (trial === 3) await (await run(agent, input, { stream: true })).completed;
  else await run(agent, input);
});
