import { context, type HrTime, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { WorkupSpanProcessor, type WorkupSpanProcessorOptions } from '../../../src/harness/otel/index.js';
import { agentTest } from '../../../src/vitest/agent.js';
import { bridgeTurns, failure, guessTurns } from '../helpers/agent.js';
import { expectTwoToolWorkup, TOOLS, type ToolTurn, TWO_TOOL_TURNS, toolTurns } from '../helpers/two-tool.js';
import { compoundAlpha, GUESS_NOTE, graphLedger, groundedNote, QUESTION } from '../helpers/world.js';

/** 2026-06-02T10:00:00Z, plus whole milliseconds: span times the test controls, so order and latency are exact. */
const T0 = 1_780_394_400;
const at = (ms: number): HrTime => [T0 + Math.floor(ms / 1000), (ms % 1000) * 1_000_000];

/**
 * A hand-rolled agent instrumented by the OpenTelemetry GenAI semantic conventions, as instrumentation libraries
 * write them: an `invoke_agent` root, a `chat` span per model turn (its output messages, tokens), an `execute_tool`
 * span per tool call (arguments, result, or an exception and error status). Each turn takes 100 ms of model time and
 * each tool 10 ms.
 */
function runAgent(tracer: Tracer, turns: readonly ToolTurn[]): void {
  let now = 0;
  const text = (content: string) => ({ type: 'text', content });
  const root = tracer.startSpan(
    'invoke_agent Analyst',
    {
      startTime: at(now),
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': 'Analyst',
        'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [text(QUESTION)] }]),
      },
    },
    context.active(),
  );
  const inRoot = trace.setSpan(context.active(), root);
  let answer = '';
  for (const turn of turns) {
    const chat = tracer.startSpan(
      'chat scripted-model',
      {
        startTime: at(now),
        attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'scripted-model' },
      },
      inRoot,
    );
    now += 100;
    const parts = [
      ...(turn.text !== undefined ? [text(turn.text)] : []),
      ...turn.calls.map((c) => ({ type: 'tool_call', id: c.id, name: c.name, arguments: c.input })),
    ];
    chat.setAttributes({
      'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts }]),
      'gen_ai.usage.input_tokens': turn.usage?.input ?? 0,
      'gen_ai.usage.output_tokens': turn.usage?.output ?? 0,
    });
    chat.end(at(now));
    if (turn.calls.length === 0) {
      answer = turn.text ?? '';
      continue;
    }
    for (const call of turn.calls) {
      const span = tracer.startSpan(
        `execute_tool ${call.name}`,
        {
          startTime: at(now),
          attributes: {
            'gen_ai.operation.name': 'execute_tool',
            'gen_ai.tool.name': call.name,
            'gen_ai.tool.call.id': call.id,
            'gen_ai.tool.call.arguments': JSON.stringify(call.input),
          },
        },
        inRoot,
      );
      now += 10;
      try {
        span.setAttribute('gen_ai.tool.call.result', JSON.stringify(TOOLS[call.name](call.input as never)));
      } catch (error) {
        span.recordException(error as Error, at(now));
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      }
      span.end(at(now));
    }
  }
  root.setAttribute('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', parts: [text(answer)] }]));
  root.end(at(now));
}

function setUp(options: WorkupSpanProcessorOptions = {}) {
  const processor = new WorkupSpanProcessor({ ledger: graphLedger, ...options });
  const provider = new BasicTracerProvider({ spanProcessors: [processor] });
  return { processor, tracer: provider.getTracer('agent-under-test') };
}

describe('WorkupSpanProcessor: a two-tool agent traced with the GenAI semantic conventions', () => {
  it('reads each finished trace as a workup: trajectory, ledger, note', () => {
    const { processor, tracer } = setUp({ task: 'halberd-wren' });
    runAgent(tracer, TWO_TOOL_TURNS);

    expect(processor.workups).toHaveLength(1);
    const workup = processor.workup();
    expect(processor.workups[0]).toBe(workup);
    const traceId = workup.id;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(workup.meta).toMatchObject({ task: 'halberd-wren', harness: 'otel', trace: { traceId } });
    expect(workup.meta.trace?.spanId).toMatch(/^[0-9a-f]{16}$/);

    const trajectory = workup.trajectory!;
    expect(trajectory.steps.map((s) => [s.step_type, s.tool_name, s.call_id ?? null, s.latency_ms])).toEqual([
      ['thought', null, null, 100],
      ['tool_call', 'graph_query', 'c-1', 0],
      ['observation', 'graph_query', 'c-1', 10],
      ['tool_call', 'graph_query', 'c-2', 0],
      ['observation', 'graph_query', 'c-2', 10],
      ['tool_call', 'docs_search', 'c-3', 0],
      ['observation', 'docs_search', 'c-3', 10],
      ['tool_call', 'docs_search', 'c-5', 0],
      ['observation', 'docs_search', 'c-5', 10],
      ['tool_call', 'graph_query', 'c-4', 0],
      ['observation', 'graph_query', 'c-4', 10],
      ['answer', null, null, 100],
    ]);
    expect(trajectory.steps[0]).toMatchObject({ content: 'Start from Halberd.', tokens_used: 120 });
    expect(trajectory.steps[1]).toMatchObject({ timestamp: '2026-06-02T10:00:00.100Z', tokens_used: 0 });
    expect(trajectory.steps[11]).toMatchObject({ tokens_used: 360 });
    expect(trajectory).toMatchObject({ succeeded: true, total_tokens: 480, total_latency_ms: 550 });
    expect(trajectory.metadata).toMatchObject({
      conventions: ['gen_ai'],
      span_count: 11,
      model: 'scripted-model',
    });

    expect(workup.ledger.map((e) => [e.id, e.store, e.results.length, e.error ?? null, e.ts])).toEqual([
      ['c-1', 'graph', 1, null, '2026-06-02T10:00:00.100Z'],
      ['c-2', 'graph', 1, null, '2026-06-02T10:00:00.210Z'],
      ['c-3', 'docs_search', 0, null, '2026-06-02T10:00:00.220Z'],
      ['c-5', 'docs_search', 0, 'empty query', '2026-06-02T10:00:00.330Z'],
      ['c-4', 'graph', 2, null, '2026-06-02T10:00:00.440Z'],
    ]);
    expectTwoToolWorkup(workup);
  });

  it('keeps one workup per trace, drops traces with no GenAI span, and reads an open trace on request', () => {
    const { processor, tracer } = setUp({ id: (run) => `${run.rootName} ${processor.workups.length + 1}` });
    runAgent(tracer, [{ text: 'First.', calls: [] }]);
    tracer.startSpan('GET /health').end();
    runAgent(tracer, [{ text: 'Second.', calls: [] }]);
    expect(processor.workups.map((w) => [w.id, w.trajectory?.final_answer])).toEqual([
      ['invoke_agent Analyst 1', 'First.'],
      ['invoke_agent Analyst 2', 'Second.'],
    ]);

    const root = tracer.startSpan('invoke_agent Analyst', {
      attributes: { 'gen_ai.operation.name': 'invoke_agent' },
    });
    const open = root.spanContext().traceId;
    tracer
      .startSpan(
        'execute_tool graph_query',
        { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'graph_query' } },
        trace.setSpan(context.active(), root),
      )
      .end();
    expect(processor.workup(open).ledger).toHaveLength(1);
    expect(processor.workups).toHaveLength(2);
    expect(processor.failures).toEqual([]);
  });

  it('says so when no trace has ended', () => {
    const { processor } = setUp();
    expect(() => processor.workup()).toThrow(
      'otel: no run recorded yet (is the harness registered with the SDK, and did the agent run?)',
    );
  });
});

describe('WorkupSpanProcessor: the compound-alpha acceptance test', () => {
  it('grounds the agent that walks the bridge and cites its calls', async () => {
    const { processor, tracer } = setUp();
    runAgent(tracer, toolTurns(bridgeTurns(groundedNote(['call-1', 'call-2', 'call-3']))));
    const workup = processor.workup();
    expect(workup.ledger.map((e) => e.id)).toEqual(['call-1', 'call-2', 'call-3']);
    expect(workup).toBeGrounded(await compoundAlpha());
  });

  it('fails the same agent as a guess when it answers without the bridge calls', async () => {
    const { processor, tracer } = setUp({ id: 'guess' });
    runAgent(tracer, toolTurns(guessTurns(GUESS_NOTE)));
    const needle = await compoundAlpha();
    expect(failure(() => expect(processor.workup()).toBeGrounded(needle))).toMatch(
      /^expect\(workup\)\.toBeGrounded\(needle\)\n\nA guess, not a finding: the note of workup guess names Compound-Alpha, but its ledger never traversed MEMBER_OF → CO_LOCATED → CO_LOCATED/,
    );
  });
});

describe('WorkupSpanProcessor: with the runAgent fixture', () => {
  const agentIt = agentTest(
    (_input, { recorder }) => {
      const { tracer } = setUp({ recorder });
      runAgent(tracer, toolTurns(bridgeTurns(groundedNote(['call-1', 'call-2', 'call-3']))));
    },
    { workups: false, recorder: { ledger: graphLedger } },
  );

  agentIt('replays the trace into the fixture recorder', async ({ runAgent }) => {
    const workup = await runAgent(QUESTION);
    expect(workup.meta).toMatchObject({ harness: 'otel', trial: 1, trace: { traceId: expect.any(String) } });
    expect(workup.trajectory?.steps.map((s) => [s.step_type, s.call_id ?? null, s.latency_ms])).toEqual([
      ['tool_call', 'call-1', 0],
      ['observation', 'call-1', 10],
      ['tool_call', 'call-2', 0],
      ['observation', 'call-2', 10],
      ['tool_call', 'call-3', 0],
      ['observation', 'call-3', 10],
      ['answer', null, 100],
    ]);
    expect(workup).toBeGrounded(await compoundAlpha());
  });
});
