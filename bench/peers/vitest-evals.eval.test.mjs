// The peer workload (bench/workload/cases.mjs) as a vitest-evals user writes it: one harness that replays each case's
// recorded run, one test per case through `it.for`, the tool calls judged by the built-in ToolCallJudge in order and
// in any order, and the answer asserted on `result.output` directly, as vitest-evals' README advises for
// deterministic checks. `expect.soft` lets all three checks report on every case. Copied into a temporary project by
// bench/peers.bench.mjs, beside the cases.json it reads.
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { createHarness, describeEval, ToolCallJudge } from 'vitest-evals';

const cases = JSON.parse(readFileSync(new URL('./cases.json', import.meta.url), 'utf8'));
const byId = new Map(cases.map((c) => [c.id, c]));

const recorded = createHarness({
  name: 'recorded-run',
  run: async ({ input }) => {
    const { run } = byId.get(input);
    const events = [{ type: 'message', role: 'user', content: `Task ${input}` }];
    run.calls.forEach((call, k) => {
      events.push({ type: 'tool_call', id: `call_${k}`, name: call.name, arguments: call.args });
      events.push({ type: 'tool_result', toolCallId: `call_${k}`, name: call.name, content: { ok: true } });
    });
    events.push({ type: 'message', role: 'assistant', content: run.answer });
    return { output: run.answer, events };
  },
});

const inOrder = ToolCallJudge({ ordered: true, allowExtras: false });
const anyOrder = ToolCallJudge({ ordered: false, allowExtras: false });

describeEval('bench', { harness: recorded }, (it) => {
  it.for(cases)('$id', async (c, { run }) => {
    const result = await run(c.id);
    const expectedTools = c.calls.map((call) => ({ name: call.name, arguments: call.args }));
    await expect.soft(result).toSatisfyJudge(inOrder, { expectedTools });
    await expect.soft(result).toSatisfyJudge(anyOrder, { expectedTools });
    expect.soft(result.output).toBe(c.answer);
  });
});
