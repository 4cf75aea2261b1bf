import { join } from 'node:path';
import { generateText, stepCountIs, streamText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { cassetteModel, cassetteTools, fromAiSdkResult } from '../../../src/harness/ai-sdk/index.js';
import { CallCassette, CassetteMissError, type Workup } from '../../../src/index.js';
import { useTmpDir } from '../../helpers/tmp.js';
import { bridgeTurns } from '../helpers/agent.js';
import { compoundAlpha, graphLedger, graphQuery, groundedNote, QUESTION } from '../helpers/world.js';
import { scriptedModel } from './mock-model.js';
import { graphTool } from './tools.js';

const tmp = useTmpDir();

/** A model and tools that throw if asked: a replay that goes live fails. */
const offline = () => ({
  model: new MockLanguageModelV3({
    modelId: 'scripted',
    doGenerate: async () => {
      throw new Error('the model went live');
    },
    doStream: async () => {
      throw new Error('the model went live');
    },
  }),
  tools: graphTool(() => {
    throw new Error('the tool went live');
  }),
});

const note = groundedNote(['call-1', 'call-2', 'call-3']);

/** What a run did, without its clock: the steps' kinds, tools, inputs and outputs, and the ledger's facts. */
const shape = (w: Workup) => ({
  steps: w.trajectory!.steps.map((s) => [s.step_type, s.tool_name, s.tool_input, s.tool_output, s.content]),
  ledger: w.ledger.map((e) => [e.id, e.query, e.results]),
});

describe('AI SDK runs on a cassette', () => {
  it.each(['generateText', 'streamText'] as const)(
    'a %s run recorded once replays offline to the same workup',
    async (api) => {
      const file = join(await tmp(), 'agent.cassette.json');
      const run = async (
        mode: 'auto' | 'replay',
        model: MockLanguageModelV3,
        tools: ReturnType<typeof graphTool>,
      ) => {
        const cassette = await CallCassette.open({ file, mode });
        const options = {
          model: cassetteModel(model, cassette),
          tools: cassetteTools(tools, cassette),
          prompt: QUESTION,
          stopWhen: stepCountIs(10),
        };
        const result = api === 'generateText' ? await generateText(options) : streamText(options);
        const workup = await fromAiSdkResult(result, { id: api, ledger: graphLedger });
        await cassette.flush();
        cassette.assertNoMisses();
        return workup;
      };
      const recorded = await run('auto', scriptedModel(bridgeTurns(note)), graphTool(graphQuery));
      const { model, tools } = offline();
      const replayed = await run('replay', model, tools);
      expect(shape(replayed)).toEqual(shape(recorded));
      expect(replayed).toBeGrounded(await compoundAlpha());
    },
  );

  it('fails a replay whose prompt changed, naming the model call and the nearest recorded one', async () => {
    const file = join(await tmp(), 'agent.cassette.json');
    const recording = await CallCassette.open({ file, mode: 'auto' });
    await generateText({
      model: cassetteModel(scriptedModel([{ text: 'Compound-Alpha.' }]), recording),
      prompt: QUESTION,
    });
    await recording.flush();
    const replay = await CallCassette.open({ file, mode: 'replay' });
    const error = await generateText({
      model: cassetteModel(offline().model, replay),
      prompt: 'Who links Halberd to Orrin Vale?',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CassetteMissError);
    expect((error as Error).message).toMatch(
      /^no recorded model call mock-provider:scripted\(\{.*Orrin Vale.*\}\) in .* \(replay mode never calls live\); the nearest recorded one is mock-provider:scripted\(\{.*Halberd to Wren.*\}\)/,
    );
  });
});
