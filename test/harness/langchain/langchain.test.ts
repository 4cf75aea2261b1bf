import { AIMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  cassetteChatModel,
  type LangChainRun,
  WorkupCallbackHandler,
} from '../../../src/harness/langchain/index.js';
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

const graphTool = tool(async (input) => TOOLS.graph_query(input), {
  name: 'graph_query',
  description: 'Facts of the entity graph that touch an entity, of one relation when given.',
  schema: z.object({ entity: z.string(), relation: z.string().optional() }),
});

const docsTool = tool(async (input) => TOOLS.docs_search(input), {
  name: 'docs_search',
  description: 'Document texts that contain the query.',
  schema: z.object({ query: z.string() }),
});

/** An AI message that asks for the given tool calls. */
function calls(...list: Array<[string, string, Record<string, unknown>]>): AIMessage {
  return new AIMessage({
    content: '',
    tool_calls: list.map(([id, name, args]) => ({ id, name, args, type: 'tool_call' as const })),
  });
}

/** LangChain's fake model playing `turns`, each an AI message with its text, tool calls and usage. */
function scripted(turns: readonly ToolTurn[]) {
  const model = fakeModel();
  for (const turn of turns) {
    model.respond(
      new AIMessage({
        content: turn.text ?? '',
        tool_calls: turn.calls.map((c) => ({
          id: c.id,
          name: c.name,
          args: c.input,
          type: 'tool_call' as const,
        })),
        ...(turn.usage
          ? {
              usage_metadata: {
                input_tokens: turn.usage.input,
                output_tokens: turn.usage.output,
                total_tokens: turn.usage.input + turn.usage.output,
              },
            }
          : {}),
      }),
    );
  }
  return model;
}

describe('WorkupCallbackHandler: a two-tool LangGraph ReAct agent on the fake model', () => {
  it('records the trajectory, the ledger and the note from the callbacks', async () => {
    const model = scripted(TWO_TOOL_TURNS);
    const agent = createReactAgent({ llm: model, tools: [graphTool, docsTool] });
    const handler = new WorkupCallbackHandler({ ledger: graphLedger, task: 'halberd-wren' });
    const result = await agent.invoke(
      { messages: [{ role: 'user', content: QUESTION }] },
      { callbacks: [handler] },
    );
    expect(result.messages.at(-1)?.content).toBe(TWO_TOOL_NOTE);

    expect(handler.workups).toHaveLength(1);
    const workup = handler.workup();
    expect(handler.workups[0]).toBe(workup);
    expect(workup.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(workup.meta).toMatchObject({ task: 'halberd-wren', harness: 'langchain' });
    expect(workup.meta['usage']).toEqual({ inputTokens: 400, outputTokens: 80 });

    const trajectory = workup.trajectory!;
    expect(trajectory.steps.map((s) => [s.step_type, s.tool_name, s.call_id ?? null])).toEqual([
      ['thought', null, null],
      ['tool_call', 'graph_query', 'c-1'],
      ['observation', 'graph_query', 'c-1'],
      ['tool_call', 'graph_query', 'c-2'],
      ['tool_call', 'docs_search', 'c-3'],
      ['observation', 'graph_query', 'c-2'],
      ['observation', 'docs_search', 'c-3'],
      ['tool_call', 'docs_search', 'c-5'],
      ['observation', 'docs_search', 'c-5'],
      ['tool_call', 'graph_query', 'c-4'],
      ['observation', 'graph_query', 'c-4'],
      ['answer', null, null],
    ]);
    expect(trajectory.steps[0]).toMatchObject({ content: 'Start from Halberd.', tokens_used: 120 });
    expect(trajectory.steps[1]!.tool_input).toEqual({ entity: 'Halberd', relation: 'MEMBER_OF' });
    expect(trajectory.steps[11]).toMatchObject({ content: TWO_TOOL_NOTE, tokens_used: 360 });
    expect(trajectory.succeeded).toBe(true);
    expect(trajectory.total_tokens).toBe(480);
    expectTwoToolWorkup(workup);
  });

  it('records a model called on its own as a run of one answer, and keeps one workup per root run', async () => {
    const seen: LangChainRun[] = [];
    const handler = new WorkupCallbackHandler({
      id: (run) => {
        seen.push(run);
        return `run-${seen.length}`;
      },
      note: false,
    });
    const model = fakeModel().respond(new AIMessage('Compound-Alpha.')).respond(new AIMessage('Ash Cell.'));
    await model.invoke('Which site?', { callbacks: [handler] });
    await model.invoke([{ role: 'user', content: 'Which cell?' }], { callbacks: [handler] });
    expect(handler.workups.map((w) => [w.id, w.trajectory?.task_input, w.trajectory?.final_answer])).toEqual([
      ['run-1', 'Which site?', 'Compound-Alpha.'],
      ['run-2', 'Which cell?', 'Ash Cell.'],
    ]);
    expect(handler.workups[0]!.note).toBeUndefined();
    expect(seen.map((run) => run.runId)).toEqual(
      handler.workups.map(() => expect.stringMatching(/^[0-9a-f-]{36}$/)),
    );
  });

  it('makes the note from the answer with a note function', async () => {
    const handler = new WorkupCallbackHandler({ note: (answer) => `## Summary\n\n${answer} [cite:g1]` });
    await fakeModel()
      .respond(new AIMessage('Compound-Alpha.'))
      .invoke('Which site?', { callbacks: [handler] });
    expect(handler.workup().note?.citations.map((c) => c.id)).toEqual(['g1']);
  });

  it('fails the run when the agent throws, keeping what it did', async () => {
    const model = fakeModel()
      .respond(calls(['c-1', 'graph_query', { entity: 'Halberd', relation: 'MEMBER_OF' }]))
      .respond(new Error('model down'));
    const agent = createReactAgent({ llm: model, tools: [graphTool] });
    const handler = new WorkupCallbackHandler({ ledger: graphLedger });
    await expect(
      agent.invoke({ messages: [{ role: 'user', content: QUESTION }] }, { callbacks: [handler] }),
    ).rejects.toThrow('model down');
    const workup = handler.workup();
    expect(handler.workups).toEqual([workup]);
    expect(workup.ledger.map((e) => e.id)).toEqual(['c-1']);
    expect(workup.trajectory).toMatchObject({ succeeded: false, final_answer: null });
    expect(workup.meta['error']).toBe('model down');
  });
});

describe('WorkupCallbackHandler: the compound-alpha acceptance test', () => {
  it('grounds the agent that walks the bridge and cites its calls', async () => {
    const handler = new WorkupCallbackHandler({ ledger: graphLedger });
    const agent = createReactAgent({
      llm: scripted(toolTurns(bridgeTurns(groundedNote(['call-1', 'call-2', 'call-3'])))),
      tools: [graphTool, docsTool],
    });
    await agent.invoke({ messages: [{ role: 'user', content: QUESTION }] }, { callbacks: [handler] });
    const workup = handler.workup();
    expect(workup.ledger.map((e) => e.id)).toEqual(['call-1', 'call-2', 'call-3']);
    expect(workup).toBeGrounded(await compoundAlpha());
  });

  it('fails the same agent as a guess when it answers without the bridge calls', async () => {
    const handler = new WorkupCallbackHandler({ ledger: graphLedger, id: 'guess' });
    const agent = createReactAgent({
      llm: scripted(toolTurns(guessTurns(GUESS_NOTE))),
      tools: [graphTool, docsTool],
    });
    await agent.invoke({ messages: [{ role: 'user', content: QUESTION }] }, { callbacks: [handler] });
    const workup = handler.workup();
    const needle = await compoundAlpha();
    expect(failure(() => expect(workup).toBeGrounded(needle))).toMatch(
      /^expect\(workup\)\.toBeGrounded\(needle\)\n\nA guess, not a finding: the note of workup guess names Compound-Alpha, but its ledger never traversed MEMBER_OF → CO_LOCATED → CO_LOCATED/,
    );
  });
});

describe('WorkupCallbackHandler: with the runAgent fixture', () => {
  const agentIt = agentTest(
    async (input, { recorder }) => {
      const llm = scripted(toolTurns(bridgeTurns(groundedNote(['call-1', 'call-2', 'call-3']))));
      const agent = createReactAgent({ llm, tools: [graphTool, docsTool] });
      await agent.invoke(
        { messages: [{ role: 'user', content: input }] },
        { callbacks: [new WorkupCallbackHandler({ recorder })] },
      );
    },
    { workups: false, recorder: { ledger: graphLedger } },
  );

  agentIt('records into the fixture recorder', async ({ runAgent }) => {
    const workup = await runAgent(QUESTION);
    expect(workup.meta).toMatchObject({ harness: 'langchain', trial: 1 });
    expect(workup).toBeGrounded(await compoundAlpha());
  });
});

flakyReplaySuite('langchain', (source) => async (input, { recorder, cassette, trial }) => {
  const model =
    source === 'live'
      ? scripted(toolTurns(flakyTurns(trial)))
      : fakeModel().alwaysThrow(new Error('the model went live'));
  const graph = tool(
    cassette!.tool('graph_query', async (query: { entity: string; relation?: string }) => {
      if (source === 'offline') throw new Error('the tool went live');
      return TOOLS.graph_query(query);
    }),
    {
      name: 'graph_query',
      description: 'Facts of the entity graph that touch an entity, of one relation when given.',
      schema: z.object({ entity: z.string(), relation: z.string().optional() }),
    },
  );
  const agent = createReactAgent({ llm: cassetteChatModel(model, cassette!, 'fake'), tools: [graph] });
  await agent.invoke(
    { messages: [{ role: 'user', content: input }] },
    { callbacks: [new WorkupCallbackHandler({ recorder })] },
  );
});
