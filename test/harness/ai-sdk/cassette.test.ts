import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateText, stepCountIs, streamText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import {
  cassetteModel,
  cassetteTools,
  fromAiSdkResult,
  recordAiSdk,
} from '../../../src/harness/ai-sdk/index.js';
import { CallCassette, CassetteMissError, type Workup } from '../../../src/index.js';
import { useTmpDir } from '../../helpers/tmp.js';
import { bridgeTurns } from '../helpers/agent.js';
import { flakyReplaySuite, flakyTurns } from '../helpers/flaky.js';
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
    expect((error as Error).message).toBe(
      `no recorded model call to mock-provider:scripted in ${file} (replay mode never calls live); the nearest recorded one is model call to mock-provider:scripted, which differs first at args.prompt[0].content[0].text (character 22): recorded "Who links Halberd to Wren?", now "Who links Halberd to Orrin Vale?". Record it with NEEDLEWORK_CASSETTE=record (or auto).`,
    );
  });

  it.each([
    [
      'a v3 usage without its totals',
      '"inputTokens": {',
      '"inputTokens": 5, "x": {',
      /usage\.inputTokens is missing \(a v3 usage has \{ total, \.\.\. \}\)/,
    ],
    [
      'a timestamp that is no date',
      /"timestamp": "[^"]+"/,
      '"timestamp": "yesterday"',
      /response\.timestamp is not a date \("yesterday"\)/,
    ],
  ])('refuses %s when the cassette loads, naming the file and the entry', async (_, from, to, problem) => {
    const file = join(await tmp(), 'agent.cassette.json');
    const recording = await CallCassette.open({ file, mode: 'auto' });
    const model = new MockLanguageModelV3({
      modelId: 'scripted',
      doGenerate: async () => ({
        content: [{ type: 'text', text: 'Compound-Alpha.' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 5, noCache: 5, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 2, text: 2, reasoning: undefined },
        },
        warnings: [],
        response: { id: 'r1', modelId: 'scripted', timestamp: new Date(0) },
      }),
    });
    await generateText({ model: cassetteModel(model, recording), prompt: QUESTION });
    await recording.flush();
    await writeFile(file, (await readFile(file, 'utf8')).replace(from, to));
    const error = (await CallCassette.open({ file, mode: 'replay' }).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(
      new RegExp(
        `^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:5: entry "[0-9a-f]{12}" \\(model call mock-provider:scripted\\): ${problem.source} \\(expected ai-sdk/v3/generate; record it again\\)$`,
      ),
    );
  });
});

flakyReplaySuite('ai-sdk', (source) => async (input, { recorder, cassette, trial }) => {
  const run = recordAiSdk(recorder);
  const { model, tools } =
    source === 'live' ? { model: scriptedModel(flakyTurns(trial)), tools: graphTool() } : offline();
  await generateText({
    model: cassetteModel(model, cassette!),
    tools: run.tools(cassetteTools(tools, cassette!)),
    prompt: input,
    stopWhen: stepCountIs(10),
    onStepFinish: run.onStepFinish,
  });
});
