import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText, stepCountIs } from 'ai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cassetteTools, recordAiSdk } from '../../src/harness/ai-sdk/index.js';
import { CallCassette, CassetteMissError, loadWorkup } from '../../src/index.js';
import { type Agent, agentTest, describeAgent } from '../../src/vitest/agent.js';
import { needlework } from '../../src/vitest/plugin.js';
import { scriptedModel } from '../harness/ai-sdk/mock-model.js';
import { graphTool } from '../harness/ai-sdk/tools.js';
import { bridgeTurns, guessTurns } from '../harness/helpers/agent.js';
import {
  compoundAlpha,
  GUESS_NOTE,
  graphLedger,
  graphQuery,
  groundedNote,
  QUESTION,
} from '../harness/helpers/world.js';

const root = mkdtempSync(join(tmpdir(), 'needlework-agent-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const tools = graphTool();

/** The AI SDK agent under test: it walks the bridge for the question, guesses for "guess", and breaks for "boom". */
const agent: Agent = async (input, { recorder, cassette }) => {
  const recording = recordAiSdk(recorder);
  const turns =
    input === QUESTION
      ? bridgeTurns(groundedNote(['call-1', 'call-2', 'call-3']))
      : input === 'guess'
        ? guessTurns(GUESS_NOTE)
        : [];
  await generateText({
    model: scriptedModel(turns),
    tools: recording.tools(cassette ? cassetteTools(tools, cassette) : tools),
    prompt: input,
    stopWhen: stepCountIs(10),
    onStepFinish: recording.onStepFinish,
  });
};

const workups = join(root, 'workups');
const it = agentTest(agent, { recorder: { ledger: graphLedger }, workups });
const folder = join(workups, 'test/vitest/agent');

describe('agentTest', () => {
  it('finds the link', async ({ runAgent, task }) => {
    const w = await runAgent(QUESTION);
    expect(w).toBeGrounded(await compoundAlpha());
    expect(w.id).toBe('agentTest-finds-the-link');
    expect(w.meta).toMatchObject({ task: 'agentTest-finds-the-link', trial: 1, path: join(folder, w.id) });
    // The reporters find the live workup where they find a loaded one: the check names its folder.
    expect(task.meta.needlework).toMatchObject({ workup: w.id, workupPath: w.meta.path, verdict: 'pass' });
    const loaded = await loadWorkup(w.meta.path!);
    expect(loaded.ledger).toEqual(w.ledger);
  });

  it('fails the same agent as a guess when it skips the calls', async ({ runAgent }) => {
    const w = await runAgent('guess');
    expect(w).not.toBeGrounded(await compoundAlpha());
  });

  it('runs k trials of one task', async ({ runAgent }) => {
    const trials = await runAgent(QUESTION, { repeats: 3, task: 'bridge' });
    expect(trials.map((w) => [w.id, w.meta.task, w.meta.trial])).toEqual([
      ['agentTest-runs-k-trials-of-one-task.trial-1', 'bridge', 1],
      ['agentTest-runs-k-trials-of-one-task.trial-2', 'bridge', 2],
      ['agentTest-runs-k-trials-of-one-task.trial-3', 'bridge', 3],
    ]);
    for (const w of trials)
      expect((await loadWorkup(w.meta.path!)).meta).toMatchObject({ task: 'bridge', trial: w.meta.trial });
    await expect(runAgent(QUESTION, { repeats: 0 })).rejects.toThrow(
      'runAgent: repeats must be a whole number of at least 1, got 0',
    );
  });

  it('saves a run that throws as a failed run, then fails with its error', async ({ runAgent }) => {
    await expect(runAgent('boom')).rejects.toThrow('the script has 0 turns; the model was called again');
    const saved = await loadWorkup(
      join(folder, 'agentTest-saves-a-run-that-throws-as-a-failed-run-then-fails-with-its-error'),
    );
    expect(saved.trajectory!.succeeded).toBe(false);
    expect(saved.meta.error).toBe('the script has 0 turns; the model was called again');
  });

  it('keeps a trial that throws as a failed trial and runs the others', async ({ runAgent }) => {
    const trials = await runAgent('boom', { repeats: 2 });
    expect(trials.map((w) => [w.meta.trial, w.trajectory!.succeeded, w.meta.error])).toEqual([
      [1, false, 'the script has 0 turns; the model was called again'],
      [2, false, 'the script has 0 turns; the model was called again'],
    ]);
  });
});

const cassetteFile = join(root, 'tools.cassette.json');
describeAgent(
  'describeAgent with a replay cassette',
  agent,
  { recorder: { ledger: graphLedger }, workups: false, cassette: { file: cassetteFile, mode: 'replay' } },
  (it) => {
    // Recorded before the fixture opens the cassette for replay.
    beforeAll(async () => {
      const recording = await CallCassette.open({ file: cassetteFile, mode: 'record' });
      await recording.call('tool', 'graph_query', { entity: 'Halberd', relation: 'MEMBER_OF' }, () =>
        graphQuery({ entity: 'Halberd', relation: 'MEMBER_OF' }),
      );
      await recording.flush();
    });

    it('fails a run whose tool call the cassette lacks, though the SDK swallowed the miss', async ({
      runAgent,
    }) => {
      const error = await runAgent(QUESTION).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CassetteMissError);
      expect((error as Error).message).toContain(
        'no recorded tool call graph_query({"entity":"Ash Cell","relation":"CO_LOCATED"})',
      );
      expect(JSON.parse(await readFile(cassetteFile, 'utf8')).version).toBe(1);
    });
  },
);

test('the plugin option saveWorkups tells the test workers where runAgent saves', () => {
  const plugin = needlework({ saveWorkups: 'kept' });
  const config = { root: '/project', test: { env: { OTHER: '1' } } };
  (plugin.config as (c: unknown) => void)(config);
  expect(config.test.env).toEqual({ OTHER: '1', NEEDLEWORK_SAVE_WORKUPS: '/project/kept' });
});
