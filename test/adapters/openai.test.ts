import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromOpenAIMessages } from '../../src/adapters/openai.js';
import { UserError } from '../../src/errors/index.js';
import {
  errorSteps,
  makeStep,
  makeTrajectory,
  type Trajectory,
  toolCalls,
} from '../../src/model/trajectory.js';
import { parseJson } from '../../src/parse/json.js';
import { locateInJson } from '../../src/parse/locate.js';

const FIXTURE = 'fixtures/imports/openai-chat.json';

/** The message a UserError carries, for pinning. */
function failure(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof UserError) return error.message;
    throw error;
  }
  throw new Error('expected a UserError');
}

describe('fromOpenAIMessages', () => {
  it('reads the bundled chat log: task, tool calls in order with their parsed arguments, linked results, answer', () => {
    const t = fromOpenAIMessages(parseJson(readFileSync(FIXTURE, 'utf8'), FIXTURE), {
      taskId: 'openai-chat',
    });
    expect(t.task_id).toBe('openai-chat');
    expect(t.task_input).toBe('How, if at all, are Halberd and Wren connected?');
    expect(t.steps.map((s) => s.step_type)).toEqual([
      'tool_call',
      'observation',
      'thought',
      'tool_call',
      'observation',
      'tool_call',
      'tool_call',
      'observation',
      'observation',
      'answer',
    ]);
    expect(t.steps.map((s) => s.step_id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(toolCalls(t).map((s) => [s.tool_name, s.tool_input, s.call_id])).toEqual([
      ['graph_neighbors', { entity: 'Halberd' }, 'call_8f2kq1'],
      ['graph_neighbors', { entity: 'Ash Cell' }, 'call_Q3v9xz'],
      ['graph_neighbors', { entity: 'Compound-Alpha' }, 'call_w7Lm2d'],
      ['docs_search', { query: 'Compound-Alpha' }, 'call_Zr41pe'],
    ]);
    // Parallel calls answered in their own order: each observation is linked to its call by id, not by position.
    const observations = t.steps.filter((s) => s.step_type === 'observation');
    expect(observations.map((s) => [s.call_id, s.tool_name])).toEqual([
      ['call_8f2kq1', 'graph_neighbors'],
      ['call_Q3v9xz', 'graph_neighbors'],
      ['call_w7Lm2d', 'graph_neighbors'],
      ['call_Zr41pe', 'docs_search'],
    ]);
    expect(observations[3]!.tool_output).toEqual([
      expect.objectContaining({ id: 'doc-044', title: 'Port Sable site survey' }),
    ]);
    expect(t.steps[2]!.content).toBe(
      'Halberd belongs to Ash Cell. Depot-Seven is a possible meeting place, but the cell is the stronger lead.',
    );
    expect(t.final_answer).toMatch(/^Halberd and Wren are linked through the Compound-Alpha facility/);
    expect(t.steps[9]!.content).toBe(t.final_answer);
    expect(t.succeeded).toBe(true);
    expect(t.metadata).toEqual({ source_format: 'openai' });
  });

  it('accepts a bare array as well as { messages }, and gives the seed defaults to every step', () => {
    const messages = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a' },
    ];
    const bare = fromOpenAIMessages(messages);
    expect(fromOpenAIMessages({ messages })).toEqual(bare);
    expect(bare.task_id).toBe('openai-chat');
    expect(bare.steps).toEqual([
      {
        step_id: 1,
        step_type: 'answer',
        content: 'a',
        tool_name: null,
        tool_input: null,
        tool_output: null,
        timestamp: null,
        latency_ms: 0,
        tokens_used: 0,
        error: null,
      },
    ]);
  });

  it('keeps unparseable or non-object arguments as { input: raw }, as the seed logger wraps non-dict input', () => {
    const t = fromOpenAIMessages([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'shell', arguments: 'ls -la {' } },
          { id: 'c2', type: 'function', function: { name: 'sum', arguments: '[1, 2]' } },
          { id: 'c3', type: 'function', function: { name: 'noop', arguments: '' } },
          {
            id: 'c4',
            type: 'function',
            function: { name: 'big', arguments: '{"id": 123456789012345678901}' },
          },
        ],
      },
    ]);
    expect(toolCalls(t).map((s) => s.tool_input)).toEqual([
      { input: 'ls -la {' },
      { input: [1, 2] },
      {},
      { id: '123456789012345678901' },
    ]);
    expect(toolCalls(t)[0]!.content).toBe('ls -la {');
  });

  it('joins content given as parts, and reads an assistant text with tool calls as a thought', () => {
    const t = fromOpenAIMessages([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Who is Wren?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          { type: 'text', text: 'Cite the store.' },
        ],
      },
      {
        role: 'assistant',
        content: [{ type: 'text', text: 'Look Wren up.' }],
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'graph_neighbors', arguments: '{}' } }],
      },
      {
        role: 'tool',
        tool_call_id: 'c1',
        content: [{ type: 'text', text: 'Wren works for Marrow Logistics' }],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Wren works for ' },
          { type: 'text', text: 'Marrow.' },
        ],
      },
    ]);
    expect(t.task_input).toBe('Who is Wren?\nCite the store.');
    expect(t.steps.map((s) => [s.step_type, s.content])).toEqual([
      ['thought', 'Look Wren up.'],
      ['tool_call', '{}'],
      ['observation', 'Wren works for Marrow Logistics'],
      ['answer', 'Wren works for \nMarrow.'],
    ]);
    expect(t.steps[2]!.tool_output).toBe('Wren works for Marrow Logistics');
  });

  it('reads the legacy function_call and function role, linked by the function name', () => {
    const t = fromOpenAIMessages([
      { role: 'user', content: 'Where is Compound-Alpha?' },
      {
        role: 'assistant',
        content: null,
        function_call: { name: 'locate', arguments: '{"entity":"Compound-Alpha"}' },
      },
      { role: 'function', name: 'locate', content: '{"city":"Port Sable"}' },
      { role: 'assistant', content: 'Port Sable.' },
    ]);
    expect(t.steps.map((s) => [s.step_type, s.tool_name, s.tool_input, s.tool_output])).toEqual([
      ['tool_call', 'locate', { entity: 'Compound-Alpha' }, null],
      ['observation', 'locate', null, { city: 'Port Sable' }],
      ['answer', null, null, null],
    ]);
    expect(t.steps[0]).not.toHaveProperty('call_id');
  });

  it('has no final answer when the run stops on a tool call or a tool result', () => {
    const onCall = fromOpenAIMessages([
      { role: 'user', content: 'q' },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [{ id: 'c', type: 'function', function: { name: 't' } }],
      },
    ]);
    expect(onCall.final_answer).toBeNull();
    expect(onCall.succeeded).toBe(false);
    expect(onCall.steps.map((s) => s.step_type)).toEqual(['thought', 'tool_call']);
    const onResult = fromOpenAIMessages([
      { role: 'user', content: 'q' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 't' } }],
      },
      { role: 'tool', tool_call_id: 'c', content: 'r' },
    ]);
    expect(onResult.final_answer).toBeNull();
    expect(errorSteps(onResult)).toEqual([]);
  });

  it('takes the last assistant text as the answer even when a later user turn follows, earlier ones as thoughts', () => {
    const t = fromOpenAIMessages([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'draft' },
      { role: 'user', content: 'more?' },
      { role: 'assistant', content: 'final' },
      { role: 'user', content: 'thanks' },
    ]);
    expect(t.task_input).toBe('first');
    expect(t.steps.map((s) => [s.step_type, s.content])).toEqual([
      ['thought', 'draft'],
      ['answer', 'final'],
    ]);
    expect(t.final_answer).toBe('final');
  });

  it('keeps a result whose call is not in the log, with no tool name', () => {
    const t = fromOpenAIMessages([{ role: 'tool', tool_call_id: 'lost', content: 'x' }]);
    expect(t.steps[0]).toMatchObject({ step_type: 'observation', tool_name: null, call_id: 'lost' });
  });

  it('reports every bad message at once, naming its index and what was expected', () => {
    const message = failure(() =>
      fromOpenAIMessages([
        { role: 'user', content: 'q' },
        { role: 'bot', content: 'hi' },
        'hello',
        { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { arguments: '{}' } }] },
        { role: 'tool', content: 'r' },
        { role: 'assistant', tool_calls: { id: 'c2' } },
        { role: 'user', content: 42 },
        { role: 'user', content: [{ type: 'text' }, 7] },
      ]),
    );
    expect(message).toBe(
      [
        '<openai messages>: [1].role: expected one of system, developer, user, assistant, tool, function, found the string "bot"',
        '<openai messages>: [2]: expected a message object with a "role", found the string "hello"',
        "<openai messages>: [3].tool_calls[0].function.name: expected the tool's name (a string), found nothing",
        '<openai messages>: [4].tool_call_id: expected the id of the tool call this message answers, found nothing',
        '<openai messages>: [5].tool_calls: expected an array of tool calls, found an object',
        '<openai messages>: [6].content: expected a string, null or an array of content parts, found the number 42',
        '<openai messages>: [7].content[0].text: expected a string, found nothing',
        '<openai messages>: [7].content[1]: expected a content part with a "type", found the number 7',
      ].join('\n'),
    );
  });

  it('places a bad message at its line and column in the file', () => {
    const text = '{\n  "messages": [\n    {"role": "user", "content": "q"},\n    {"role": "robot"}\n  ]\n}\n';
    const error = (() => {
      try {
        fromOpenAIMessages(parseJson(text, 'chat.json'), {
          file: 'chat.json',
          locate: (path, key) => locateInJson(text, path, key),
        });
      } catch (e) {
        return e as UserError;
      }
    })();
    expect(error?.diagnostics).toEqual([
      {
        file: 'chat.json',
        line: 4,
        column: 14,
        message:
          'messages[1].role: expected one of system, developer, user, assistant, tool, function, found the string "robot"',
      },
    ]);
  });

  it('refuses input that is not a message log', () => {
    expect(failure(() => fromOpenAIMessages({ choices: [] }))).toBe(
      '<openai messages>: (top level): expected an array of chat messages or an object with a "messages" array, found an object',
    );
  });
});

describe('fromOpenAIMessages builds the steps on their first read', () => {
  const log = () => [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Weather in Paris?' },
    {
      role: 'assistant',
      content: 'Checking.',
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'weather', arguments: '{"city": "Paris"}' } },
        { id: 'c2', type: 'function', function: { name: 'shell', arguments: 'ls -la {' } },
        { id: 'c3', type: 'function', function: { name: 'sum', arguments: { a: 1 } } },
      ],
    },
    { role: 'tool', tool_call_id: 'c1', content: '{"temp": 21}' },
    { role: 'tool', tool_call_id: 'c2', content: 'not json {' },
    { role: 'tool', tool_call_id: 'c3', content: '1' },
    { role: 'assistant', content: 'It is 21 degrees.' },
  ];
  /** What the trajectory holds, written out: the values every reader must see. */
  const expected = {
    task_input: 'Weather in Paris?',
    steps: [
      { step_id: 1, step_type: 'thought', content: 'Checking.', tool_name: null, tool_input: null },
      {
        step_id: 2,
        step_type: 'tool_call',
        content: '{"city": "Paris"}',
        tool_name: 'weather',
        tool_input: { city: 'Paris' },
        call_id: 'c1',
      },
      // Malformed arguments JSON: kept as text, wrapped as the seed's logger wraps non-dict input.
      {
        step_id: 3,
        step_type: 'tool_call',
        content: 'ls -la {',
        tool_name: 'shell',
        tool_input: { input: 'ls -la {' },
        call_id: 'c2',
      },
      {
        step_id: 4,
        step_type: 'tool_call',
        content: '{"a":1}',
        tool_name: 'sum',
        tool_input: { a: 1 },
        call_id: 'c3',
      },
      {
        step_id: 5,
        step_type: 'observation',
        content: '{"temp": 21}',
        tool_name: 'weather',
        tool_output: { temp: 21 },
        call_id: 'c1',
      },
      {
        step_id: 6,
        step_type: 'observation',
        content: 'not json {',
        tool_name: 'shell',
        tool_output: 'not json {',
        call_id: 'c2',
      },
      { step_id: 7, step_type: 'observation', content: '1', tool_name: 'sum', tool_output: 1, call_id: 'c3' },
      { step_id: 8, step_type: 'answer', content: 'It is 21 degrees.', tool_name: null, tool_output: null },
    ].map((s) => makeStep(s as Parameters<typeof makeStep>[0])),
    final_answer: 'It is 21 degrees.',
    succeeded: true,
    total_tokens: 0,
    total_latency_ms: 0,
    metadata: { source_format: 'openai' },
    task_id: 'openai-chat',
    messages: [
      { role: 'system', tool_calls: null },
      { role: 'user', tool_calls: null },
      { role: 'assistant', tool_calls: 3 },
      { role: 'tool', tool_calls: null },
      { role: 'tool', tool_calls: null },
      { role: 'tool', tool_calls: null },
      { role: 'assistant', tool_calls: null },
    ],
  };

  it('gives every reader the built steps: a property read, toEqual, JSON, a spread, structuredClone, Object.keys', () => {
    expect(fromOpenAIMessages(log()).steps).toEqual(expected.steps);
    expect(fromOpenAIMessages(log())).toEqual(expected);
    expect(JSON.parse(JSON.stringify(fromOpenAIMessages(log())))).toEqual(expected);
    expect({ ...fromOpenAIMessages(log()) }).toEqual(expected);
    expect(structuredClone(fromOpenAIMessages(log()))).toEqual(expected);
    expect(Object.entries(fromOpenAIMessages(log()))).toEqual(Object.entries(expected));
    // makeTrajectory's key order, so a written trajectory.json reads as before.
    expect(JSON.stringify(fromOpenAIMessages(log()))).toBe(
      JSON.stringify(makeTrajectory({ ...expected, steps: fromOpenAIMessages(log()).steps })),
    );
  });

  it('builds the steps once: every read gives the same array, whose edits stay', () => {
    const t = fromOpenAIMessages(log());
    const steps = t.steps;
    expect(t.steps).toBe(steps);
    steps[1]!.tool_input = { city: 'Oslo' };
    steps.push(steps[0]!);
    expect(t.steps[1]!.tool_input).toEqual({ city: 'Oslo' });
    expect(JSON.parse(JSON.stringify(t)).steps).toHaveLength(9);
  });

  it('takes an assigned list before the first read, and reads a frozen trajectory', () => {
    const replaced = fromOpenAIMessages(log());
    replaced.steps = [];
    expect(replaced.steps).toEqual([]);
    expect(JSON.parse(JSON.stringify(replaced)).steps).toEqual([]);
    const read = fromOpenAIMessages(log());
    void read.steps;
    read.steps = [];
    expect(read.steps).toEqual([]);
    // A trajectory that inherits one gets a list of its own, as with a data property.
    const base = fromOpenAIMessages(log());
    const child = Object.create(base) as Trajectory;
    expect(child.steps).toEqual(expected.steps);
    child.steps = [];
    expect([child.steps, base.steps]).toEqual([[], expected.steps]);

    const frozen = Object.freeze(fromOpenAIMessages(log()));
    expect(frozen.steps).toEqual(expected.steps);
    expect(frozen.steps).toBe(frozen.steps);
    expect(() => {
      (frozen as { steps: unknown }).steps = [];
    }).toThrow(TypeError);
    expect(frozen.steps).toEqual(expected.steps);
  });

  it('says so, rather than give no steps, when read through a proxy that passes itself as the receiver', () => {
    const wrap = <T extends object>(t: T) =>
      new Proxy(t, { get: (target, key, receiver) => Reflect.get(target, key, receiver) });
    expect(() => wrap(fromOpenAIMessages(log())).steps).toThrow(
      'trajectory.steps: this trajectory builds its steps when read, and cannot be read through a proxy that passes itself as the receiver, nor through a copy of its property descriptors; wrap or copy a plain copy instead ({ ...trajectory })',
    );
    expect(wrap({ ...fromOpenAIMessages(log()) }).steps).toEqual(expected.steps);
  });

  it('still reports every shape problem at once, when the log is read, not when the steps are', () => {
    expect(
      failure(() =>
        fromOpenAIMessages([
          { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { arguments: '{' } }] },
        ]),
      ),
    ).toBe(
      "<openai messages>: [0].tool_calls[0].function.name: expected the tool's name (a string), found nothing",
    );
  });
});
