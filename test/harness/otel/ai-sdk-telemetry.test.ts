// The AI SDK needs no harness of its own to be recorded through OpenTelemetry: its experimental_telemetry spans
// (ai.generateText, ai.generateText.doGenerate, ai.toolCall) go through the OTel harness like any instrumented agent.
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { generateText, stepCountIs, tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cassetteModel, cassetteTools } from '../../../src/harness/ai-sdk/index.js';
import { WorkupSpanProcessor } from '../../../src/harness/otel/index.js';
import { CallCassette, type Workup } from '../../../src/index.js';
import { useTmpDir } from '../../helpers/tmp.js';
import { scriptedModel } from '../ai-sdk/mock-model.js';
import { bridgeTurns, failure, guessTurns, type Turn } from '../helpers/agent.js';
import {
  compoundAlpha,
  GUESS_NOTE,
  graphLedger,
  graphQuery,
  groundedNote,
  QUESTION,
} from '../helpers/world.js';

const graphTool = tool({
  description: 'Facts of the entity graph that touch an entity, of one relation when given.',
  inputSchema: z.object({ entity: z.string(), relation: z.string().optional() }),
  execute: async (input) => graphQuery(input),
});

// The AI SDK nests its spans through the active context, which needs a context manager across awaits.
const contextManager = new AsyncLocalStorageContextManager();
beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
});
afterAll(() => {
  context.disable();
});

async function traced(
  turns: readonly Turn[],
  id?: string,
  cassette?: CallCassette,
): Promise<WorkupSpanProcessor> {
  const processor = new WorkupSpanProcessor({ ledger: graphLedger, ...(id !== undefined ? { id } : {}) });
  const tracer = new BasicTracerProvider({ spanProcessors: [processor] }).getTracer('ai');
  const model = scriptedModel(turns);
  const tools = { graph_query: graphTool };
  await generateText({
    model: cassette ? cassetteModel(model, cassette) : model,
    tools: cassette ? cassetteTools(tools, cassette) : tools,
    stopWhen: stepCountIs(10),
    prompt: QUESTION,
    experimental_telemetry: { isEnabled: true, tracer },
  });
  return processor;
}

describe('WorkupSpanProcessor: the AI SDK telemetry', () => {
  it('reads a generateText trace: tool calls with their ids, the final text as answer and note', async () => {
    const note = groundedNote(['call-1', 'call-2', 'call-3']);
    const processor = await traced(bridgeTurns(note));
    expect(processor.workups).toHaveLength(1);
    const workup = processor.workup();
    expect(workup.trajectory?.metadata['conventions']).toEqual(['vercel_ai']);
    // The AI SDK can end a tool span a few microseconds after the next model call starts: each result is placed no
    // later than that call, which reads it, so the answer follows the last result.
    const steps = workup.trajectory?.steps ?? [];
    expect(steps.map((s) => [s.step_type, s.call_id ?? s.content])).toEqual([
      ['tool_call', 'call-1'],
      ['observation', 'call-1'],
      ['tool_call', 'call-2'],
      ['observation', 'call-2'],
      ['tool_call', 'call-3'],
      ['observation', 'call-3'],
      ['answer', note],
    ]);
    expect(workup.trajectory?.final_answer).toBe(note);
    expect(workup.ledger.map((e) => [e.id, e.results.length])).toEqual([
      ['call-1', 1],
      ['call-2', 1],
      ['call-3', 2],
    ]);
    expect(workup).toBeGrounded(await compoundAlpha());
  });

  it('fails the guessing run as a guess', async () => {
    const processor = await traced(guessTurns(GUESS_NOTE), 'guess');
    const needle = await compoundAlpha();
    expect(failure(() => expect(processor.workup()).toBeGrounded(needle))).toMatch(
      /^expect\(workup\)\.toBeGrounded\(needle\)\n\nA guess, not a finding: the note of workup guess names Compound-Alpha/,
    );
  });
});

describe('WorkupSpanProcessor: replay where the model client can be wrapped', () => {
  const tmp = useTmpDir();
  // Replayed, each model call answers at once, and the AI SDK can end a tool's span after the next model call (and
  // the next tool's span) has started: each result is still placed before the call that reads it, so the replayed
  // steps are the recorded ones in the same order.
  const shape = (w: Workup) => ({
    steps: w.trajectory!.steps.map((s) => [s.step_type, s.tool_name, s.tool_input, s.tool_output, s.content]),
    answer: w.trajectory!.final_answer,
    ledger: w.ledger.map((e) => [e.id, e.query, e.results]),
  });

  it('records an AI SDK run through its telemetry, then replays it offline to the same workup', async () => {
    const file = `${await tmp()}/otel.cassette.json`;
    const note = groundedNote(['call-1', 'call-2', 'call-3']);
    const recording = await CallCassette.open({ file, mode: 'record' });
    const recorded = (await traced(bridgeTurns(note), 'run', recording)).workup();
    await recording.flush();
    const replay = await CallCassette.open({ file, mode: 'replay' });
    // No turns: the scripted model throws if it is asked; the cassette answers instead.
    const replayed = (await traced([], 'run', replay)).workup();
    replay.assertNoMisses();
    expect(replay.forTrial(1).use().live).toBe(0);
    expect(shape(replayed)).toEqual(shape(recorded));
    expect(replayed).toBeGrounded(await compoundAlpha());
  });
});
