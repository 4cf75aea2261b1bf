import { generateText, stepCountIs, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { type AiSdkRecording, fromAiSdkResult, recordAiSdk } from '../../../src/harness/ai-sdk/index.js';
import { loadWorkup } from '../../../src/index.js';
import { useTmpDir } from '../../helpers/tmp.js';
import { bridgeTurns, failure, guessTurns, type Turn } from '../helpers/agent.js';
import {
  compoundAlpha,
  type GraphQuery,
  GUESS_NOTE,
  graphLedger,
  graphQuery,
  groundedNote,
  QUESTION,
} from '../helpers/world.js';
import { scriptedModel } from './mock-model.js';
import { docsTool, graphTool } from './tools.js';

const tmp = useTmpDir();

const tools = { ...graphTool(), ...docsTool() };

const run = (turns: Turn[], onStepFinish?: AiSdkRecording['onStepFinish']) =>
  generateText({
    model: scriptedModel(turns),
    tools,
    prompt: QUESTION,
    stopWhen: stepCountIs(10),
    ...(onStepFinish ? { onStepFinish } : {}),
  });

describe('fromAiSdkResult', () => {
  it('turns a two-tool generateText run into trajectory, ledger and note', async () => {
    const note = groundedNote(['call-1', 'call-2', 'call-3']);
    const turns: Turn[] = [
      {
        calls: [
          { id: 'call-1', name: 'graph_query', input: { entity: 'Halberd', relation: 'MEMBER_OF' } },
          { id: 'search-1', name: 'docs_search', input: { query: '' } as never },
        ],
      },
      ...bridgeTurns(note).slice(1),
    ];
    const result = await run(turns);
    const workup = await fromAiSdkResult(result, { id: 'two-tools', input: QUESTION, ledger: graphLedger });

    expect(workup.trajectory!.steps.map((s) => [s.step_type, s.tool_name, s.call_id, s.error])).toEqual([
      ['tool_call', 'graph_query', 'call-1', null],
      ['tool_call', 'docs_search', 'search-1', null],
      ['observation', 'graph_query', 'call-1', null],
      ['observation', 'docs_search', 'search-1', 'empty query'],
      ['tool_call', 'graph_query', 'call-2', null],
      ['observation', 'graph_query', 'call-2', null],
      ['tool_call', 'graph_query', 'call-3', null],
      ['observation', 'graph_query', 'call-3', null],
      ['answer', null, undefined, null],
    ]);
    expect(workup.ledger.map((e) => [e.id, e.store, e.results.length, e.error !== undefined])).toEqual([
      ['call-1', 'graph', 1, false],
      ['search-1', 'docs_search', 0, true],
      ['call-2', 'graph', 1, false],
      ['call-3', 'graph', 2, false],
    ]);
    expect(workup.trajectory!.final_answer).toBe(note);
    expect(workup.note?.citations.map((c) => c.id)).toEqual([
      'call-2',
      'call-3',
      'call-1',
      'call-2',
      'call-3',
    ]);
    // Three tool-call steps at 50 + 10 tokens and the answer at 100 + 40.
    expect(workup.trajectory!.total_tokens).toBe(320);
    expect(workup.meta).toMatchObject({
      model: 'scripted',
      finishReason: 'stop',
      usage: { inputTokens: 250, outputTokens: 70 },
    });
    expect(workup).toTraverse({
      relations: ['MEMBER_OF', 'CO_LOCATED', 'CO_LOCATED'],
      from: 'Halberd',
      to: 'Wren',
    });
  });

  it('reads a streamText result, whose fields are promises', async () => {
    const result = streamText({
      model: scriptedModel(bridgeTurns(groundedNote(['call-1', 'call-2', 'call-3']))),
      tools,
      prompt: QUESTION,
      stopWhen: stepCountIs(10),
    });
    const workup = await fromAiSdkResult(result, { id: 'streamed', ledger: graphLedger });
    expect(workup.ledger.map((e) => e.id)).toEqual(['call-1', 'call-2', 'call-3']);
    expect(workup).toBeGrounded(await compoundAlpha());
  });
});

describe('recordAiSdk', () => {
  it('records while the run goes, and keeps the steps of a run that throws', async () => {
    const recording = recordAiSdk({ id: 'threw', ledger: graphLedger });
    // The script ends after two calls: the third model call throws inside generateText.
    const turns = bridgeTurns().slice(0, 2);
    const error = await run(turns, recording.onStepFinish).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    recording.fail(error);
    const dir = await recording.save(await tmp());
    const workup = await loadWorkup(dir);
    expect(workup.ledger.map((e) => e.id)).toEqual(['call-1', 'call-2']);
    expect(workup.trajectory!.succeeded).toBe(false);
    expect(String(workup.meta.error)).toMatch(/the script has 2 turns/);
  });

  it('times each tool by its own run through tools()', async () => {
    const recording = recordAiSdk({ id: 'timed', ledger: graphLedger });
    const slow = {
      graph_query: {
        ...tools.graph_query,
        execute: async (input: GraphQuery) => {
          await new Promise((resolve) => setTimeout(resolve, 30));
          return graphQuery(input);
        },
      },
    };
    await generateText({
      model: scriptedModel(bridgeTurns().slice(0, 1).concat({ text: 'done' })),
      tools: recording.tools(slow),
      prompt: QUESTION,
      stopWhen: stepCountIs(5),
      onStepFinish: recording.onStepFinish,
    });
    const observation = recording.workup().trajectory!.steps.find((s) => s.step_type === 'observation')!;
    expect(observation.latency_ms).toBeGreaterThanOrEqual(25);
  });
});

describe('acceptance: the compound-alpha needle on a live AI SDK agent', () => {
  it('is grounded when the agent walks MEMBER_OF -> CO_LOCATED -> CO_LOCATED and cites the calls', async () => {
    const recording = recordAiSdk({ id: 'walked', input: QUESTION, ledger: graphLedger });
    await run(bridgeTurns(groundedNote(['call-1', 'call-2', 'call-3'])), recording.onStepFinish);
    expect(recording.workup()).toBeGrounded(await compoundAlpha());
  });

  it('fails as a guess when the same agent answers without the bridge calls', async () => {
    const recording = recordAiSdk({ id: 'guessed', input: QUESTION, ledger: graphLedger });
    await run(guessTurns(GUESS_NOTE), recording.onStepFinish);
    const needle = await compoundAlpha();
    expect(failure(() => expect(recording.workup()).toBeGrounded(needle))).toMatch(
      /A guess, not a finding: the note of workup guessed names Compound-Alpha, but its ledger never traversed MEMBER_OF → CO_LOCATED → CO_LOCATED/,
    );
  });
});
