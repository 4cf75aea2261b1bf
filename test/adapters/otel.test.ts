import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromOtelSpans, fromOtelTraces } from '../../src/adapters/otel.js';
import { UserError } from '../../src/errors/index.js';
import { errorSteps, type Trajectory, toolCalls } from '../../src/model/trajectory.js';
import { parseJson } from '../../src/parse/json.js';
import { locateInJson } from '../../src/parse/locate.js';
import { at, otlp } from './otlp.js';

const FIXTURE = 'fixtures/imports/otel-genai-trace.json';

function failure(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof UserError) return error.message;
    throw error;
  }
  throw new Error('expected a UserError');
}

/** `[step_type, tool_name]` per step: the shape of a run at a glance. */
function shape(t: Trajectory): Array<[string, string | null]> {
  return t.steps.map((s) => [s.step_type, s.tool_name]);
}

describe('fromOtelSpans: the OpenTelemetry GenAI semantic conventions', () => {
  const trajectory = fromOtelSpans(parseJson(readFileSync(FIXTURE, 'utf8'), FIXTURE));

  it('turns the bundled trace into the run: model thoughts, tool calls and results, in time order', () => {
    expect(trajectory.task_id).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(trajectory.task_input).toBe('How, if at all, are Halberd and Wren connected?');
    expect(shape(trajectory)).toEqual([
      ['thought', null],
      ['tool_call', 'graph.neighbors'],
      ['observation', 'graph.neighbors'],
      ['thought', null],
      ['tool_call', 'graph.neighbors'],
      ['observation', 'graph.neighbors'],
      ['thought', null],
      ['tool_call', 'graph.neighbors'],
      ['tool_call', 'docs.search'],
      ['observation', 'graph.neighbors'],
      ['observation', 'docs.search'],
      ['thought', null],
      ['tool_call', 'docs.search'],
      ['observation', 'docs.search'],
      ['answer', null],
    ]);
    expect(trajectory.steps.map((s) => s.step_id)).toEqual(trajectory.steps.map((_, i) => i + 1));
    expect(toolCalls(trajectory).map((s) => [s.call_id, s.tool_input])).toEqual([
      ['call_h1', { entity: 'Halberd' }],
      ['call_a2', { entity: 'Ash Cell' }],
      ['call_c3', { entity: 'Compound-Alpha' }],
      ['call_d4', { query: 'Compound-Alpha' }],
      ['call_d5', { query: 'Compound-Alpha' }],
    ]);
  });

  it('links each result to its call by the tool call id and gives it the span duration', () => {
    const observations = trajectory.steps.filter((s) => s.step_type === 'observation');
    expect(observations.map((s) => [s.call_id, s.latency_ms])).toEqual([
      ['call_h1', 118],
      ['call_a2', 97],
      ['call_c3', 105],
      ['call_d4', 2000],
      ['call_d5', 240],
    ]);
    expect(observations[0]!.tool_output).toEqual([
      { subject: 'Halberd', relation: 'MEMBER_OF', object: 'Ash Cell', store: 'graph' },
      { subject: 'Halberd', relation: 'TRAVELED_TO', object: 'Depot-Seven', store: 'graph' },
      { subject: 'Halberd', relation: 'ALIAS', object: 'Gray Heron', store: 'graph' },
    ]);
    expect(toolCalls(trajectory).every((s) => s.latency_ms === 0)).toBe(true);
  });

  it('records the failed tool span as an error on its result, as the seed logger records a tool error', () => {
    expect(errorSteps(trajectory)).toEqual([
      expect.objectContaining({
        step_type: 'observation',
        call_id: 'call_d4',
        content: 'ERROR: docs store did not answer within 2000 ms',
        error: 'docs store did not answer within 2000 ms',
        tool_output: null,
      }),
    ]);
  });

  it('puts tokens and durations on the model steps and totals them for the run', () => {
    const thoughts = trajectory.steps.filter(
      (s) => s.step_type !== 'tool_call' && s.step_type !== 'observation',
    );
    expect(thoughts.map((s) => [s.tokens_used, s.latency_ms])).toEqual([
      [450, 900],
      [621, 1100],
      [824, 1300],
      [1009, 700],
      [1281, 1800],
    ]);
    expect(trajectory.total_tokens).toBe(450 + 621 + 824 + 1009 + 1281);
    expect(trajectory.total_latency_ms).toBe(9400);
    expect(trajectory.steps[0]!.timestamp).toBe('2026-06-02T10:00:10.020Z');
  });

  it("takes the agent span's output as the final answer, without repeating the model turn that wrote it", () => {
    expect(trajectory.final_answer).toMatch(
      /^Halberd and Wren are linked through the Compound-Alpha facility/,
    );
    expect(trajectory.steps.filter((s) => s.step_type === 'answer')).toHaveLength(1);
    expect(trajectory.steps.at(-1)!.content).toBe(trajectory.final_answer);
    expect(trajectory.succeeded).toBe(true);
    expect(trajectory.metadata).toEqual({
      source_format: 'otel',
      trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
      conventions: ['gen_ai'],
      span_count: 11,
      run_span_id: '00f067aa0ba902b7',
      service_name: 'research-agent',
      model: 'gpt-4o-2024-08-06',
    });
  });

  it('orders spans that start in the same millisecond by their exact nanoseconds, not by file order', () => {
    const t = fromOtelSpans(
      otlp([
        {
          id: 'b',
          start: at(10, 900_001),
          end: at(11),
          attrs: {
            'gen_ai.operation.name': 'execute_tool',
            'gen_ai.tool.name': 'second',
            'gen_ai.tool.call.id': 'b',
          },
        },
        {
          id: 'a',
          start: at(10, 900_000),
          end: at(12),
          attrs: {
            'gen_ai.operation.name': 'execute_tool',
            'gen_ai.tool.name': 'first',
            'gen_ai.tool.call.id': 'a',
          },
        },
      ]),
    );
    // 1 ns apart past 2^53: as floating-point numbers the two starts are equal and file order would win.
    expect(Number(at(10, 900_001))).toBe(Number(at(10, 900_000)));
    expect(shape(t)).toEqual([
      ['tool_call', 'first'],
      ['tool_call', 'second'],
      ['observation', 'second'],
      ['observation', 'first'],
    ]);
    expect(t.steps.map((s) => s.latency_ms)).toEqual([0, 0, 0.099999, 1.1]);
  });

  it('places a result no later than the model call that reads it: the next of the agent that asked (a replay)', () => {
    const chat = (id: string, start: number, text: string, asks: string[] = [], parent = 'run') => ({
      id,
      parent,
      start: at(start),
      end: at(start + 1),
      attrs: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.output.messages': JSON.stringify([
          {
            role: 'assistant',
            parts: [
              { type: 'text', content: text },
              ...asks.map((call) => ({ type: 'tool_call', id: call, name: call, arguments: {} })),
            ],
          },
        ]),
      },
    });
    const tool = (id: string, start: number, end: number, parent = 'run') => ({
      id,
      parent,
      start: at(start),
      end: at(end),
      attrs: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': id, 'gen_ai.tool.call.id': id },
    });
    const t = fromOtelSpans(
      otlp([
        { id: 'run', start: at(0), end: at(100), attrs: { 'gen_ai.operation.name': 'invoke_agent' } },
        chat('m1', 1, 'Look up a.', ['a']),
        // Tool a's span ends at 40, after the model call that reads it (m2, at 20) and the tool m2 asked for (b, at
        // 30).
        tool('a', 3, 40),
        // Another agent's model call (another parent) reads none of this agent's results.
        {
          id: 'other',
          parent: 'run',
          start: at(4),
          end: at(90),
          attrs: { 'gen_ai.operation.name': 'invoke_agent' },
        },
        chat('m-other', 5, 'Elsewhere.', [], 'other'),
        chat('m2', 20, 'Look up b.', ['b']),
        tool('b', 30, 35),
        // Tool c began in the same millisecond as the call that reads it (clocks of millisecond resolution).
        chat('m3', 36, 'Look up c.', ['c']),
        tool('c', 45, 46),
        chat('m4', 45, 'Done.'),
      ]),
    );
    expect(t.steps.map((s) => [s.step_type, s.tool_name ?? s.content])).toEqual([
      ['thought', 'Look up a.'],
      ['tool_call', 'a'],
      ['thought', 'Elsewhere.'],
      ['observation', 'a'],
      ['thought', 'Look up b.'],
      ['tool_call', 'b'],
      ['observation', 'b'],
      ['thought', 'Look up c.'],
      ['tool_call', 'c'],
      ['observation', 'c'],
      ['answer', 'Done.'],
    ]);
    // Only its place moves: the result keeps the span's own end and duration.
    const a = t.steps.find((s) => s.step_type === 'observation' && s.tool_name === 'a');
    expect([a?.timestamp, a?.latency_ms]).toEqual([
      new Date(Number(BigInt(at(40)) / 1_000_000n)).toISOString(),
      37,
    ]);
  });

  it('keeps trace and span ids written as JSON numbers past 2^53 exactly', () => {
    const text = `{"resourceSpans":[{"scopeSpans":[{"spans":[
      {"traceId":123456789012345678901,"spanId":98765432109876543210,"parentSpanId":"",
       "name":"execute_tool lookup","startTimeUnixNano":"1780394410000000000","endTimeUnixNano":"1780394410005000000",
       "attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"execute_tool"}},
                     {"key":"gen_ai.tool.name","value":{"stringValue":"lookup"}}]}]}]}]}`;
    const t = fromOtelSpans(parseJson(text, 'ids.json'));
    expect(t.task_id).toBe('123456789012345678901');
    expect(t.metadata['trace_id']).toBe('123456789012345678901');
    expect(t.steps.map((s) => s.call_id)).toEqual(['98765432109876543210', '98765432109876543210']);
    expect(fromOtelSpans(parseJson(text, 'ids.json'), { traceId: '123456789012345678901' }).task_id).toBe(
      '123456789012345678901',
    );
    // Parsed with JSON.parse the id is already rounded; it is refused rather than kept wrong.
    expect(failure(() => fromOtelSpans(JSON.parse(text)))).toMatch(
      /^<otlp trace>: resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[0\]\.traceId: expected the trace id \(a hex string\), found the number 123456789012345680000, already rounded by JSON.parse \(read the file with parseJson to keep large ids exact\)\n/,
    );
  });

  it('derives tool calls from the model output when no tool span traced them (the older prompt/completion events)', () => {
    const t = fromOtelSpans(
      otlp([
        {
          id: 'chat1',
          start: at(0),
          end: at(800),
          attrs: {
            'gen_ai.operation.name': 'chat',
            'gen_ai.usage.prompt_tokens': 100,
            'gen_ai.usage.completion_tokens': 20,
          },
          events: [
            {
              name: 'gen_ai.content.prompt',
              attrs: { 'gen_ai.prompt': JSON.stringify([{ role: 'user', content: 'Where is Wren?' }]) },
            },
            {
              name: 'gen_ai.content.completion',
              attrs: {
                'gen_ai.completion': JSON.stringify([
                  {
                    role: 'assistant',
                    content: null,
                    tool_calls: [
                      {
                        id: 'c1',
                        type: 'function',
                        function: { name: 'locate', arguments: '{"entity":"Wren"}' },
                      },
                    ],
                  },
                ]),
              },
            },
          ],
        },
        {
          id: 'chat2',
          start: at(900),
          end: at(1200),
          attrs: {
            'gen_ai.operation.name': 'chat',
            'gen_ai.usage.input_tokens': 150,
            'gen_ai.usage.output_tokens': 9,
          },
          events: [
            {
              name: 'gen_ai.choice',
              attrs: { message: { role: 'assistant', content: 'At Compound-Alpha.' } },
            },
          ],
        },
      ]),
    );
    expect(t.task_input).toBe('Where is Wren?');
    expect(t.steps.map((s) => [s.step_type, s.tool_name, s.tool_input, s.call_id, s.tokens_used])).toEqual([
      ['tool_call', 'locate', { entity: 'Wren' }, 'c1', 120],
      ['answer', null, null, undefined, 159],
    ]);
    expect(t.final_answer).toBe('At Compound-Alpha.');
    expect(t.total_tokens).toBe(279);
  });

  it('reads errors from an exception event, a string status code and a failed model call', () => {
    const t = fromOtelSpans(
      otlp([
        {
          id: 't1',
          start: at(0),
          end: at(5),
          attrs: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'fetch' },
          events: [
            { name: 'exception', attrs: { 'exception.type': 'ValueError', 'exception.message': 'bad id' } },
          ],
        },
        {
          id: 't2',
          start: at(10),
          end: at(15),
          attrs: {
            'gen_ai.operation.name': 'execute_tool',
            'gen_ai.tool.name': 'fetch',
            'error.type': 'timeout',
          },
          status: { code: 'STATUS_CODE_ERROR' },
        },
        {
          id: 'c1',
          start: at(20),
          end: at(25),
          attrs: { 'gen_ai.operation.name': 'chat' },
          status: { code: 2, message: 'rate limited' },
        },
      ]),
    );
    expect(errorSteps(t).map((s) => [s.step_type, s.error])).toEqual([
      ['observation', 'ValueError: bad id'],
      ['observation', 'timeout'],
      ['thought', 'rate limited'],
    ]);
    expect(t.final_answer).toBeNull();
    expect(t.succeeded).toBe(false);
  });

  it('marks a run whose agent span failed as not succeeded, even with an answer', () => {
    const t = fromOtelSpans(
      otlp([
        {
          id: 'root',
          start: at(0),
          end: at(100),
          attrs: {
            'gen_ai.operation.name': 'invoke_agent',
            'gen_ai.output.messages': JSON.stringify([
              { role: 'assistant', parts: [{ type: 'text', content: 'Partial.' }] },
            ]),
          },
          status: { code: 2, message: 'max turns exceeded' },
        },
      ]),
    );
    expect(t.final_answer).toBe('Partial.');
    expect(t.succeeded).toBe(false);
    expect(t.metadata['run_error']).toBe('max turns exceeded');
  });
});

describe('fromOtelSpans: agent-SDK exports', () => {
  it('reads OpenInference (AGENT, LLM, TOOL spans, flattened messages, llm.token_count.*)', () => {
    const t = fromOtelSpans(
      otlp([
        {
          id: 'agent',
          start: at(0),
          end: at(3000),
          attrs: {
            'openinference.span.kind': 'AGENT',
            'input.value': JSON.stringify({ input: 'Who funds Ash Cell?' }),
            'output.value': 'Kestrel Group funds Ash Cell.',
          },
        },
        {
          id: 'llm1',
          parent: 'agent',
          start: at(10),
          end: at(900),
          attrs: {
            'openinference.span.kind': 'LLM',
            'llm.model_name': 'claude-sonnet-4',
            'llm.token_count.prompt': 300,
            'llm.token_count.completion': 25,
            'llm.input_messages.0.message.role': 'user',
            'llm.input_messages.0.message.content': 'Who funds Ash Cell?',
            'llm.output_messages.0.message.role': 'assistant',
            'llm.output_messages.0.message.tool_calls.0.tool_call.id': 'toolu_01',
            'llm.output_messages.0.message.tool_calls.0.tool_call.function.name': 'graph_neighbors',
            'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments':
              '{"entity":"Ash Cell"}',
          },
        },
        {
          id: 'tool1',
          parent: 'agent',
          start: at(910),
          end: at(960),
          attrs: {
            'openinference.span.kind': 'TOOL',
            'tool.name': 'graph_neighbors',
            'tool_call.id': 'toolu_01',
            'input.value': '{"entity":"Ash Cell"}',
            'output.value': '[{"subject":"Ash Cell","relation":"FUNDED_BY","object":"Kestrel Group"}]',
          },
        },
        {
          id: 'llm2',
          parent: 'agent',
          start: at(970),
          end: at(2900),
          attrs: {
            'openinference.span.kind': 'LLM',
            'llm.token_count.total': 412,
            'llm.output_messages.0.message.role': 'assistant',
            'llm.output_messages.0.message.content': 'Kestrel Group funds Ash Cell.',
          },
        },
      ]),
    );
    expect(shape(t)).toEqual([
      ['tool_call', 'graph_neighbors'],
      ['observation', 'graph_neighbors'],
      ['answer', null],
    ]);
    expect(t.task_input).toBe('Who funds Ash Cell?');
    expect(t.steps[0]).toMatchObject({
      call_id: 'toolu_01',
      tool_input: { entity: 'Ash Cell' },
      tokens_used: 325,
    });
    expect(t.steps[1]).toMatchObject({ call_id: 'toolu_01', latency_ms: 50 });
    expect(t.steps[2]).toMatchObject({ content: 'Kestrel Group funds Ash Cell.', tokens_used: 412 });
    expect(t.total_tokens).toBe(737);
    expect(t.metadata).toMatchObject({ conventions: ['openinference'], model: 'claude-sonnet-4' });
  });

  it('reads OpenLLMetry / Traceloop (workflow and tool entities, flattened gen_ai.prompt/completion)', () => {
    const t = fromOtelSpans(
      otlp([
        {
          id: 'wf',
          start: at(0),
          end: at(2000),
          attrs: {
            'traceloop.span.kind': 'workflow',
            'traceloop.entity.name': 'investigate',
            'traceloop.entity.input': JSON.stringify({
              args: [],
              kwargs: { question: 'Is Halberd in a cell?' },
            }),
            'traceloop.entity.output': JSON.stringify('Yes: Ash Cell.'),
          },
        },
        {
          id: 'llm',
          parent: 'wf',
          start: at(5),
          end: at(600),
          attrs: {
            'llm.request.type': 'chat',
            'gen_ai.prompt.0.role': 'user',
            'gen_ai.prompt.0.content': 'Is Halberd in a cell?',
            'gen_ai.completion.0.role': 'assistant',
            'gen_ai.completion.0.content': 'Let me check the graph.',
            'gen_ai.completion.0.tool_calls.0.name': 'graph_neighbors',
            'gen_ai.completion.0.tool_calls.0.arguments': '{"entity":"Halberd"}',
            'gen_ai.usage.prompt_tokens': 80,
            'gen_ai.usage.completion_tokens': 12,
          },
        },
        {
          id: 'tool',
          parent: 'wf',
          start: at(610),
          end: at(640),
          attrs: {
            'traceloop.span.kind': 'tool',
            'traceloop.entity.name': 'graph_neighbors',
            'traceloop.entity.input': JSON.stringify({ args: [], kwargs: { entity: 'Halberd' } }),
            'traceloop.entity.output': JSON.stringify([
              { subject: 'Halberd', relation: 'MEMBER_OF', object: 'Ash Cell' },
            ]),
          },
        },
      ]),
    );
    expect(shape(t)).toEqual([
      ['thought', null],
      ['tool_call', 'graph_neighbors'],
      ['observation', 'graph_neighbors'],
      ['answer', null],
    ]);
    expect(t.task_input).toBe('Is Halberd in a cell?');
    expect(t.steps[0]).toMatchObject({ content: 'Let me check the graph.', tokens_used: 92 });
    // No tool call id in Traceloop spans: the span id links the call and its result.
    expect(t.steps[1]).toMatchObject({ tool_input: { entity: 'Halberd' }, call_id: 'tool' });
    expect(t.steps[2]).toMatchObject({
      call_id: 'tool',
      tool_output: [{ subject: 'Halberd', relation: 'MEMBER_OF', object: 'Ash Cell' }],
    });
    expect(t.final_answer).toBe('Yes: Ash Cell.');
    expect(t.metadata['conventions']).toEqual(['traceloop']);
  });

  it('reads the Vercel AI SDK (ai.generateText, doGenerate, ai.toolCall) without counting tokens twice', () => {
    const t = fromOtelSpans(
      otlp([
        {
          id: 'gen',
          name: 'ai.generateText',
          start: at(0),
          end: at(4000),
          attrs: {
            'ai.operationId': 'ai.generateText',
            'ai.prompt': JSON.stringify({ system: 'Be terse.', prompt: 'Where does Wren work?' }),
            'ai.response.text': 'Marrow Logistics, per the graph; a 2025 document says Tessellate Freight.',
            'ai.usage.promptTokens': 900,
            'ai.usage.completionTokens': 60,
          },
        },
        {
          id: 'step1',
          parent: 'gen',
          name: 'ai.generateText.doGenerate',
          start: at(10),
          end: at(1000),
          attrs: {
            'ai.operationId': 'ai.generateText.doGenerate',
            'ai.response.toolCalls': JSON.stringify([
              {
                toolCallType: 'function',
                toolCallId: 'call_g',
                toolName: 'graphNeighbors',
                args: '{"entity":"Wren"}',
              },
              {
                toolCallType: 'function',
                toolCallId: 'call_d',
                toolName: 'docsSearch',
                args: '{"query":"Wren"}',
              },
            ]),
            'ai.usage.promptTokens': 400,
            'ai.usage.completionTokens': 30,
          },
        },
        {
          id: 'tg',
          parent: 'step1',
          name: 'ai.toolCall',
          start: at(1001),
          end: at(1050),
          attrs: {
            'ai.operationId': 'ai.toolCall',
            'ai.toolCall.name': 'graphNeighbors',
            'ai.toolCall.id': 'call_g',
            'ai.toolCall.args': '{"entity":"Wren"}',
            'ai.toolCall.result': '[{"subject":"Wren","relation":"EMPLOYED_BY","object":"Marrow Logistics"}]',
          },
        },
        {
          id: 'td',
          parent: 'step1',
          name: 'ai.toolCall',
          start: at(1001, 1),
          end: at(1300),
          attrs: {
            'ai.operationId': 'ai.toolCall',
            'ai.toolCall.name': 'docsSearch',
            'ai.toolCall.id': 'call_d',
            'ai.toolCall.args': '{"query":"Wren"}',
            'ai.toolCall.result': '"doc-031: Tessellate Freight payroll extract"',
          },
        },
        {
          id: 'step2',
          parent: 'gen',
          name: 'ai.generateText.doGenerate',
          start: at(1400),
          end: at(3900),
          attrs: {
            'ai.operationId': 'ai.generateText.doGenerate',
            'ai.response.text': 'Marrow Logistics, per the graph; a 2025 document says Tessellate Freight.',
            'ai.usage.promptTokens': 500,
            'ai.usage.completionTokens': 30,
          },
        },
      ]),
    );
    expect(shape(t)).toEqual([
      ['tool_call', 'graphNeighbors'],
      ['tool_call', 'docsSearch'],
      ['observation', 'graphNeighbors'],
      ['observation', 'docsSearch'],
      ['answer', null],
    ]);
    expect(t.task_input).toBe('Where does Wren work?');
    expect(t.steps[3]!.tool_output).toBe('doc-031: Tessellate Freight payroll extract');
    expect(t.total_tokens).toBe(960);
    expect(t.steps.map((s) => s.tokens_used)).toEqual([430, 0, 0, 0, 530]);
    expect(t.total_latency_ms).toBe(4000);
    expect(t.metadata['conventions']).toEqual(['vercel_ai']);
  });

  it('reads the AI SDK 5 names (ai.toolCall.input/output, ai.usage.inputTokens/outputTokens, toolCalls with input)', () => {
    const t = fromOtelSpans(
      otlp([
        {
          id: 'step',
          name: 'ai.streamText.doStream',
          start: at(0),
          end: at(500),
          attrs: {
            'ai.operationId': 'ai.streamText.doStream',
            'ai.response.text': 'Checking.',
            'ai.response.toolCalls': JSON.stringify([
              { toolCallId: 'c9', toolName: 'lookup', input: { entity: 'Wren' } },
            ]),
            'ai.usage.inputTokens': 70,
            'ai.usage.outputTokens': 7,
          },
        },
        {
          id: 'tool',
          name: 'ai.toolCall',
          start: at(501),
          end: at(520),
          attrs: {
            'ai.operationId': 'ai.toolCall',
            'ai.toolCall.name': 'lookup',
            'ai.toolCall.id': 'c9',
            'ai.toolCall.input': '{"entity":"Wren"}',
            'ai.toolCall.output': '{"employer":"Marrow Logistics"}',
          },
        },
      ]),
    );
    expect(t.steps.map((s) => [s.step_type, s.content, s.tool_input, s.tool_output, s.tokens_used])).toEqual([
      ['thought', 'Checking.', null, null, 77],
      ['tool_call', '{"entity":"Wren"}', { entity: 'Wren' }, null, 0],
      ['observation', '{"employer":"Marrow Logistics"}', null, { employer: 'Marrow Logistics' }, 0],
    ]);
    expect(t.final_answer).toBeNull();
  });
});

describe('fromOtelSpans: GenAI message events', () => {
  it('reads gen_ai.user.message / gen_ai.choice events and the inference operation details event', () => {
    const t = fromOtelSpans(
      otlp([
        {
          id: 'c1',
          start: at(0),
          end: at(100),
          attrs: { 'gen_ai.operation.name': 'chat' },
          events: [
            { name: 'gen_ai.system.message', attrs: { content: 'Be brief.' } },
            { name: 'gen_ai.user.message', attrs: { content: 'Who employs Wren?' } },
            {
              name: 'gen_ai.choice',
              attrs: {
                'gen_ai.event.content': JSON.stringify({
                  index: 0,
                  finish_reason: 'tool_calls',
                  message: {
                    role: 'assistant',
                    tool_calls: [
                      {
                        id: 'k1',
                        type: 'function',
                        function: { name: 'lookup', arguments: { entity: 'Wren' } },
                      },
                    ],
                  },
                }),
              },
            },
          ],
        },
        {
          id: 'c2',
          start: at(200),
          end: at(300),
          attrs: { 'gen_ai.operation.name': 'chat' },
          events: [
            {
              name: 'gen_ai.client.inference.operation.details',
              attrs: {
                'gen_ai.output.messages': JSON.stringify([
                  {
                    role: 'assistant',
                    parts: [{ type: 'text', content: 'Marrow Logistics.' }],
                    finish_reason: 'stop',
                  },
                ]),
              },
            },
          ],
        },
      ]),
    );
    expect(t.task_input).toBe('Who employs Wren?');
    expect(t.steps.map((s) => [s.step_type, s.tool_name, s.tool_input, s.content])).toEqual([
      ['tool_call', 'lookup', { entity: 'Wren' }, '{"entity":"Wren"}'],
      ['answer', null, null, 'Marrow Logistics.'],
    ]);
  });

  it('keeps a span whose end comes before its start at its start, with no negative latency', () => {
    const t = fromOtelSpans(
      otlp([
        {
          id: 'a',
          start: at(10),
          end: at(5),
          attrs: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'skewed' },
        },
        {
          id: 'b',
          start: at(7),
          end: at(8),
          attrs: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'fine' },
        },
      ]),
    );
    expect(t.steps.map((s) => [s.step_type, s.tool_name, s.latency_ms])).toEqual([
      ['tool_call', 'fine', 0],
      ['observation', 'fine', 1],
      ['tool_call', 'skewed', 0],
      ['observation', 'skewed', 0],
    ]);
  });
});

describe('fromOtelSpans: files with several traces', () => {
  const two = otlp([
    {
      id: 'x',
      trace: 'aaaa',
      start: at(0),
      end: at(1),
      attrs: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'one' },
    },
    {
      id: 'y',
      trace: 'bbbb',
      start: at(0),
      end: at(1),
      attrs: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'two' },
    },
  ]);

  it('asks which trace to read, and reads the one named', () => {
    expect(failure(() => fromOtelSpans(two))).toBe(
      '<otlp trace>: the file holds 2 traces (aaaa, bbbb); choose one (needlework import --trace <id>, or the traceId option)',
    );
    expect(toolCalls(fromOtelSpans(two, { traceId: 'bbbb' })).map((s) => s.tool_name)).toEqual(['two']);
    expect(failure(() => fromOtelSpans(two, { traceId: 'cccc', file: 't.json' }))).toBe(
      't.json: no trace with id cccc; the file holds aaaa, bbbb',
    );
  });

  it('reads every trace with fromOtelTraces, and an array of exports (JSONL lines) as one export', () => {
    expect(fromOtelTraces(two).map((t) => [t.task_id, toolCalls(t)[0]!.tool_name])).toEqual([
      ['aaaa', 'one'],
      ['bbbb', 'two'],
    ]);
    const lines = [
      otlp([
        {
          id: 'p',
          start: at(5),
          end: at(6),
          attrs: { 'tool.name': 'late', 'openinference.span.kind': 'TOOL' },
        },
      ]),
      otlp([
        {
          id: 'q',
          start: at(1),
          end: at(2),
          attrs: { 'tool.name': 'early', 'openinference.span.kind': 'TOOL' },
        },
      ]),
    ];
    expect(toolCalls(fromOtelSpans(lines)).map((s) => s.tool_name)).toEqual(['early', 'late']);
  });
});

describe('fromOtelSpans: bad input', () => {
  it('refuses what is not an OTLP/JSON export', () => {
    expect(failure(() => fromOtelSpans({ spans: [] }))).toBe(
      '<otlp trace>: (top level): expected an OTLP/JSON trace export with a "resourceSpans" array, found an object',
    );
    expect(failure(() => fromOtelSpans({ resourceSpans: [] }))).toBe(
      '<otlp trace>: (top level): no spans: expected resourceSpans[].scopeSpans[].spans[] to hold at least one span',
    );
  });

  it('reports every bad span at once, with its path, line and column', () => {
    const text = JSON.stringify(
      {
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  { traceId: 't', spanId: 's1', startTimeUnixNano: 1780394410.25, attributes: [] },
                  {
                    spanId: 's2',
                    startTimeUnixNano: '17803944100000',
                    endTimeUnixNano: 'soon',
                    attributes: {},
                  },
                  { traceId: 't', spanId: 's3', startTimeUnixNano: '1', attributes: [{ value: {} }] },
                ],
              },
            ],
          },
        ],
      },
      null,
      2,
    );
    const error = (() => {
      try {
        fromOtelSpans(parseJson(text, 'trace.json'), {
          file: 'trace.json',
          locate: (p, k) => locateInJson(text, p, k),
        });
      } catch (e) {
        return e as UserError;
      }
    })();
    expect(error?.message).toBe(
      [
        'trace.json:10:36: resourceSpans[0].scopeSpans[0].spans[0].startTimeUnixNano: expected unix time in nanoseconds (a string of digits), found the number 1780394410.25',
        'trace.json:13:13: resourceSpans[0].scopeSpans[0].spans[1].traceId: expected the trace id (a hex string), found nothing',
        'trace.json:16:34: resourceSpans[0].scopeSpans[0].spans[1].endTimeUnixNano: expected unix time in nanoseconds (a string of digits), found the string "soon"',
        'trace.json:24:17: resourceSpans[0].scopeSpans[0].spans[2].attributes[0]: expected an attribute { key, value }, found an object',
      ].join('\n'),
    );
  });
});
