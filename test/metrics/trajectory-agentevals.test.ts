import { createTrajectoryMatchEvaluator } from 'agentevals';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromOpenAIMessages } from '../../src/adapters/openai.js';
import {
  matchTrajectory,
  type ToolArgsMatchMode,
  type TrajectoryMatchMode,
} from '../../src/metrics/trajectory/index.js';
import { makeStep, makeTrajectory } from '../../src/model/index.js';
import { type OpenAIMessage, openAIPair } from '../reference/openai-arbitraries.js';

const MODES: TrajectoryMatchMode[] = ['strict', 'unordered', 'subset', 'superset'];
const ARG_MODES: ToolArgsMatchMode[] = ['exact', 'ignore', 'subset', 'superset'];

const user = { role: 'user', content: 'Where is Wren?' };
const empty = { role: 'assistant', content: null };
function assistant(...calls: Array<[string, Record<string, unknown>]>): OpenAIMessage {
  return {
    role: 'assistant',
    content: null,
    tool_calls: calls.map(([name, args], i) => ({
      id: `call_${name}_${i}`,
      type: 'function',
      function: { name, arguments: JSON.stringify(args) },
    })),
  };
}
const read = (messages: OpenAIMessage[]) => fromOpenAIMessages(messages);
const strict = (a: OpenAIMessage[], b: OpenAIMessage[], toolArgs: ToolArgsMatchMode = 'exact') =>
  matchTrajectory(read(a), read(b), { mode: 'strict', toolArgs });

describe('strict match over chat messages (agentevals rules)', () => {
  it('compares the whole message list: three empty assistant messages are not one', () => {
    const result = strict([user, empty, empty, empty], [user, empty]);
    expect(result).toEqual({
      pass: false,
      missing: [],
      extra: [],
      reason: '4 messages, the reference has 2',
    });
    // The calls alone agree: the other modes see no difference.
    expect(
      matchTrajectory(read([user, empty, empty, empty]), read([user, empty]), { mode: 'unordered' }).pass,
    ).toBe(true);
  });

  it('requires the same role at each index, system and user messages included', () => {
    const system = { role: 'system', content: 'Be brief.' };
    expect(strict([system, user], [user, user]).reason).toBe(
      "message 0: role system, the reference's is user",
    );
    expect(strict([system, user, empty], [system, user, empty]).pass).toBe(true);
  });

  it('matches parallel calls of one message in any order', () => {
    const out = [user, assistant(['f', { x: 1 }], ['g', {}])];
    const ref = [user, assistant(['g', {}], ['f', { x: 1 }])];
    expect(strict(out, ref)).toEqual({ pass: true, missing: [], extra: [] });
  });

  it('requires the calls on the same messages: two calls together are not the same two one after the other', () => {
    const together = [user, assistant(['f', {}], ['g', {}])];
    const apart = [user, assistant(['f', {}]), assistant(['g', {}])];
    const result = strict(together, apart);
    expect(result.pass).toBe(false);
    expect(result.reason).toBe('2 messages, the reference has 3');
    expect(result.extra).toEqual([{ tool: 'g', args: {} }]);
    expect(result.missing).toEqual([{ tool: 'g', args: {} }]);
  });

  it('tells an empty tool_calls list from none', () => {
    const none = [user, { role: 'assistant', content: 'Thinking.' }];
    const emptyList = [user, { role: 'assistant', content: 'Thinking.', tool_calls: [] }];
    expect(strict(none, emptyList).reason).toBe('message 1: no tool calls, the reference has tool calls');
    expect(strict(emptyList, emptyList).pass).toBe(true);
  });

  it('pairs each call with the first unused reference call of its message whose arguments match (greedy)', () => {
    // superset arguments: the first output call {x, y} takes the reference {x}; the output {x} then finds only
    // {x, y}, which it does not contain: agentevals fails this though a pairing exists.
    const out = [user, assistant(['f', { x: 1, y: 2 }], ['f', { x: 1 }])];
    const ref = [user, assistant(['f', { x: 1 }], ['f', { x: 1, y: 2 }])];
    expect(strict(out, ref, 'superset')).toEqual({
      pass: false,
      missing: [{ tool: 'f', args: { x: 1, y: 2 } }],
      extra: [{ tool: 'f', args: { x: 1 } }],
    });
  });

  it('compares call by call when either side has no message outline (a seed trajectory)', () => {
    const seed = makeTrajectory({
      task_id: 's',
      steps: [makeStep({ step_id: 1, step_type: 'tool_call', tool_name: 'f', tool_input: {} })],
    });
    expect(matchTrajectory(read([user, empty, assistant(['f', {}])]), seed).pass).toBe(true);
    expect(matchTrajectory(seed, read([user, assistant(['f', {}], ['g', {}])])).pass).toBe(false);
  });

  it("refuses an outline that does not account for the trajectory's calls", () => {
    const t = read([user, assistant(['f', {}])]);
    t.messages = [{ role: 'user', tool_calls: null }];
    expect(() => matchTrajectory(t, t)).toThrow(
      new TypeError(
        'matchTrajectory: the trajectory "openai-chat" has 1 tool call but its messages outline counts 0',
      ),
    );
  });
});

describe('differential: the agentevals JS package on generated OpenAI message logs', () => {
  it('gives its verdict for every mode x tool-args mode', async () => {
    const pairs = fc.sample(openAIPair, { numRuns: 250, seed: 15 });
    let passes = 0;
    let checked = 0;
    for (const trajectoryMatchMode of MODES) {
      for (const toolArgsMatchMode of ARG_MODES) {
        const evaluator = createTrajectoryMatchEvaluator({ trajectoryMatchMode, toolArgsMatchMode });
        for (const [outputs, referenceOutputs] of pairs) {
          // The generated messages are OpenAI's shape; the package's own type is narrower than the JSON it reads.
          const theirs = (await evaluator({
            outputs: outputs as never,
            referenceOutputs: referenceOutputs as never,
          })) as { score: boolean };
          const ours = matchTrajectory(fromOpenAIMessages(outputs), fromOpenAIMessages(referenceOutputs), {
            mode: trajectoryMatchMode,
            toolArgs: toolArgsMatchMode,
          });
          const label = `${trajectoryMatchMode}/${toolArgsMatchMode}: ${JSON.stringify({ outputs, referenceOutputs })}`;
          expect(ours.pass, label).toBe(theirs.score);
          passes += ours.pass ? 1 : 0;
          checked++;
        }
      }
    }
    // Both verdicts are common, so the comparison means something.
    expect(passes).toBeGreaterThan(checked / 5);
    expect(checked - passes).toBeGreaterThan(checked / 5);
  });
});
