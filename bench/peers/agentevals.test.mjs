// The peer workload (bench/workload/cases.mjs) as an agentevals user writes it inside plain Vitest: each recorded run
// and each reference as OpenAI-style messages (one assistant message a tool call, as the agent made them), judged by
// `createTrajectoryMatchEvaluator` in strict and unordered mode with exact arguments, and the answer by `toBe`. One
// test a check, through `it.each`. Copied into a temporary project by bench/peers.bench.mjs, beside its cases.json.
import { readFileSync } from 'node:fs';
import { createTrajectoryMatchEvaluator } from 'agentevals';
import { describe, expect, it } from 'vitest';

const cases = JSON.parse(readFileSync(new URL('./cases.json', import.meta.url), 'utf8'));

function messages(task, calls, answer) {
  const out = [{ role: 'user', content: `Task ${task}` }];
  for (const call of calls) {
    out.push({
      role: 'assistant',
      content: '',
      tool_calls: [{ function: { name: call.name, arguments: JSON.stringify(call.args) } }],
    });
    out.push({ role: 'tool', content: '{"ok":true}' });
  }
  out.push({ role: 'assistant', content: answer });
  return out;
}

const strict = createTrajectoryMatchEvaluator({ trajectoryMatchMode: 'strict', toolArgsMatchMode: 'exact' });
const unordered = createTrajectoryMatchEvaluator({
  trajectoryMatchMode: 'unordered',
  toolArgsMatchMode: 'exact',
});

describe('bench', () => {
  it.each(cases)('$id in order', async (c) => {
    const result = await strict({
      outputs: messages(c.id, c.run.calls, c.run.answer),
      referenceOutputs: messages(c.id, c.calls, c.answer),
    });
    expect(result.score).toBe(true);
  });
  it.each(cases)('$id any order', async (c) => {
    const result = await unordered({
      outputs: messages(c.id, c.run.calls, c.run.answer),
      referenceOutputs: messages(c.id, c.calls, c.answer),
    });
    expect(result.score).toBe(true);
  });
  it.each(cases)('$id answer', (c) => {
    expect(c.run.answer).toBe(c.answer);
  });
});
