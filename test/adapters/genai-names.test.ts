import { describe, expect, it } from 'vitest';
import { fromOtelSpans } from '../../src/adapters/otel.js';
import { type Trajectory, toolCalls } from '../../src/model/trajectory.js';
import { at, otlp, type SpanSpec } from './otlp.js';

/** Tool calls with their arguments, as `[name, input]`. */
const calls = (t: Trajectory) => toolCalls(t).map((s) => [s.tool_name, s.tool_input]);
const tool = (id: string, ms: number, attrs: Record<string, unknown>): SpanSpec => ({
  id,
  start: at(ms),
  end: at(ms + 1),
  attrs,
});

describe('tool-call arguments under the names real producers write (issue 15)', () => {
  it('any-agent: gen_ai.tool.args on execute_tool, and call_llm spans with gen_ai.output', () => {
    const t = fromOtelSpans(
      otlp([
        tool('m', 0, {
          'gen_ai.operation.name': 'call_llm',
          'gen_ai.output': '[{"tool.name": "lookup", "tool.args": "{\\"q\\": \\"Halberd\\"}"}]',
          'gen_ai.output.type': 'json',
        }),
        tool('t', 2, {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': 'lookup',
          'gen_ai.tool.args': '{"q": "Halberd"}',
          'gen_ai.output': 'Ash Cell',
        }),
      ]),
    );
    expect(calls(t)).toEqual([['lookup', { q: 'Halberd' }]]);
    expect(t.steps.find((s) => s.step_type === 'observation')!.tool_output).toBe('Ash Cell');
  });

  it('Pydantic AI through Logfire: a "running tool" span with gen_ai.tool.name and tool_arguments', () => {
    const t = fromOtelSpans(
      otlp([
        tool('t', 0, {
          'gen_ai.tool.name': 'graph_neighbors',
          'gen_ai.tool.call.id': 'c1',
          tool_arguments: '{"entity": "Ash Cell"}',
          tool_response: '[]',
        }),
      ]),
    );
    expect(calls(t)).toEqual([['graph_neighbors', { entity: 'Ash Cell' }]]);
  });

  it('OpenInference: tool_call.function.arguments, a smolagents call record in input.value, tool.parameters unless it is a schema', () => {
    const kind = { 'openinference.span.kind': 'TOOL' };
    const t = fromOtelSpans(
      otlp([
        tool('a', 0, { ...kind, 'tool.name': 'a', 'tool_call.function.arguments': '{"x": 1}' }),
        tool('b', 2, {
          ...kind,
          'tool.name': 'b',
          'input.value': '{"args": [], "sanitize_inputs_outputs": true, "kwargs": {"query": "Wren"}}',
        }),
        tool('c', 4, { ...kind, 'tool.name': 'c', 'tool.parameters': '{"entity": "Halberd"}' }),
        tool('d', 6, {
          ...kind,
          'tool.name': 'd',
          'tool.parameters': '{"type": "object", "properties": {"entity": {"type": "string"}}}',
        }),
      ]),
    );
    expect(calls(t)).toEqual([
      ['a', { x: 1 }],
      ['b', { query: 'Wren' }],
      ['c', { entity: 'Halberd' }],
      ['d', {}],
    ]);
  });

  it("OpenLLMetry's older names: llm.completions.N.* and gen_ai.completion.N.function_call.*", () => {
    const t = fromOtelSpans(
      otlp([
        tool('m1', 0, {
          'llm.request.type': 'chat',
          'llm.prompts.0.role': 'user',
          'llm.prompts.0.content': 'Who is Halberd?',
          'llm.completions.0.role': 'assistant',
          'llm.completions.0.tool_calls.0.id': 'c1',
          'llm.completions.0.tool_calls.0.name': 'graph_neighbors',
          'llm.completions.0.tool_calls.0.arguments': '{"entity": "Halberd"}',
        }),
        tool('m2', 2, {
          'llm.request.type': 'chat',
          'gen_ai.completion.0.role': 'assistant',
          'gen_ai.completion.0.function_call.name': 'docs_search',
          'gen_ai.completion.0.function_call.arguments': '{"query": "Ash Cell"}',
        }),
      ]),
    );
    expect(calls(t)).toEqual([
      ['graph_neighbors', { entity: 'Halberd' }],
      ['docs_search', { query: 'Ash Cell' }],
    ]);
    expect(t.task_input).toBe('Who is Halberd?');
  });

  it('a tool span that records no arguments takes those the model asked for under the same call id', () => {
    const t = fromOtelSpans(
      otlp([
        tool('m', 0, {
          'gen_ai.operation.name': 'chat',
          'gen_ai.output.messages': JSON.stringify([
            {
              role: 'assistant',
              parts: [{ type: 'tool_call', id: 'c9', name: 'lookup', arguments: { q: 'Wren' } }],
            },
          ]),
        }),
        tool('t', 2, {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': 'lookup',
          'gen_ai.tool.call.id': 'c9',
        }),
      ]),
    );
    expect(toolCalls(t).map((s) => [s.tool_name, s.tool_input, s.call_id])).toEqual([
      ['lookup', { q: 'Wren' }, 'c9'],
    ]);
  });

  it('matches a requested call with an id to the next tool span of its name that has none, counting it once', () => {
    const t = fromOtelSpans(
      otlp([
        tool('m', 0, {
          'llm.request.type': 'chat',
          'gen_ai.completion.0.tool_calls.0.id': 'c1',
          'gen_ai.completion.0.tool_calls.0.name': 'lookup',
          'gen_ai.completion.0.tool_calls.0.arguments': '{"q": 1}',
          'gen_ai.completion.0.tool_calls.1.id': 'c2',
          'gen_ai.completion.0.tool_calls.1.name': 'never_run',
          'gen_ai.completion.0.tool_calls.1.arguments': '{"q": 2}',
        }),
        tool('t', 2, { 'traceloop.span.kind': 'tool', 'traceloop.entity.name': 'lookup' }),
      ]),
    );
    // The untraced request is placed when the model answered (1 ms), the traced call when its span started (2 ms).
    expect(calls(t)).toEqual([
      ['never_run', { q: 2 }],
      ['lookup', { q: 1 }],
    ]);
  });
});
