import { readFileSync } from 'node:fs';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { type Fact, loadSpec, type NeedleSpec } from 'needlework';
import { recordAiSdk } from 'needlework/harness/ai-sdk';
import { agentTest } from 'needlework/vitest';
import { expect } from 'vitest';

const needle = (await loadSpec('needles/compound-alpha.needle.yaml')) as NeedleSpec;
const graph: Fact[] = readFileSync('../fixtures/world/graph.jsonl', 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line));

// The agent's tool: the facts of the graph that touch an entity, of one relation.
const tools = {
  graph_query: tool({
    description: 'Facts of the entity graph that touch an entity, of one relation',
    inputSchema: jsonSchema<{ entity: string; relation: string }>({
      type: 'object',
      properties: { entity: { type: 'string' }, relation: { type: 'string' } },
      required: ['entity', 'relation'],
    }),
    execute: async ({ entity, relation }) =>
      graph.filter((f) => (f.subject === entity || f.object === entity) && f.relation === relation),
  }),
};

// A scripted stand-in for a real model, so this runs offline: three graph queries, then a note citing them.
// Use any AI SDK model instead (openai('gpt-4.1'), anthropic(...)).
function scriptedModel() {
  const hops = [
    ['Halberd', 'MEMBER_OF'],
    ['Ash Cell', 'CO_LOCATED'],
    ['Compound-Alpha', 'CO_LOCATED'],
  ];
  const note = [
    '# Workup: Halberd and Wren',
    '',
    '## Findings',
    '',
    '- Halberd is a member of Ash Cell. [cite:q1]',
    '- Ash Cell and Wren are both co-located at Compound-Alpha. [cite:q2,q3]',
  ].join('\n');
  const usage = {
    inputTokens: { total: 50, noCache: 50, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 10, text: 10, reasoning: undefined },
  };
  let turn = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const hop = hops[turn++];
      if (!hop)
        return {
          content: [{ type: 'text', text: note }],
          finishReason: { unified: 'stop', raw: undefined },
          usage,
          warnings: [],
        };
      const input = JSON.stringify({ entity: hop[0], relation: hop[1] });
      return {
        content: [{ type: 'tool-call', toolCallId: `q${turn}`, toolName: 'graph_query', input }],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}

// The agent, configured once: each run is recorded (tool calls become ledger entries q1, q2, q3) and saved.
const it = agentTest(
  async (input, { recorder }) => {
    const run = recordAiSdk(recorder);
    await generateText({
      model: scriptedModel(),
      tools: run.tools(tools),
      prompt: input,
      stopWhen: stepCountIs(5),
      onStepFinish: run.onStepFinish,
    });
  },
  { recorder: { ledger: ({ name, output }) => (name === 'graph_query' ? (output as Fact[]) : undefined) } },
);

it('finds the link', async ({ runAgent }) => {
  const w = await runAgent('Who links Halberd to Wren?');
  expect(w).toBeGrounded(needle);
});

it('finds it on every trial', async ({ runAgent }) => {
  const trials = await runAgent('Who links Halberd to Wren?', { repeats: 3 });
  for (const w of trials) expect(w).toBeGrounded(needle);
});
