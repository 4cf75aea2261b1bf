import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRecorder, loadWorkup, type Workup } from '../../src/index.js';
import { useTmpDir } from '../helpers/tmp.js';

const tmp = useTmpDir();

/** A clock that reads the given milliseconds in turn. */
function ticks(...readings: number[]): () => number {
  let i = 0;
  return () => readings[Math.min(i++, readings.length - 1)]!;
}

/** A workup as loaded, without where it was loaded from (the only thing a recorded workup cannot know). */
function located(workup: Workup): Workup {
  const { path: _path, ...meta } = workup.meta;
  const copy: Workup = { ...workup, meta };
  if (copy.note) {
    const { file: _file, ...note } = copy.note;
    copy.note = note;
  }
  return copy;
}

describe('createRecorder', () => {
  it('records calls, results, thoughts and the answer as steps and ledger entries', () => {
    const recorder = createRecorder({
      id: 'run-1',
      task: 'bridge',
      trial: 2,
      input: 'Who links Halberd to Wren?',
      clock: ticks(0, 10, 25, 40, 41, 100),
      ledger: ({ output }) =>
        Array.isArray(output)
          ? output.map((o) => ({ ...(o as { subject: string; relation: string; object: string }) }))
          : undefined,
    });
    const id = recorder.toolCall('graph_query', { entity: 'Halberd' });
    recorder.toolResult(id, [
      { subject: 'Halberd', relation: 'MEMBER_OF', object: 'Ash Cell', store: 'graph' },
    ]);
    recorder.thought('Follow the cell.', { tokens: 12 });
    const failed = recorder.toolCall('search', 'Ash Cell');
    recorder.toolResult(failed, { error: 'timeout after 5000 ms' });
    recorder.answer('Compound-Alpha');
    const workup = recorder.workup();
    expect(id).toBe('g1');
    expect(failed).toBe('g2');
    expect(workup.ledger).toEqual([
      {
        id: 'g1',
        store: 'graph',
        query: 'graph_query({"entity":"Halberd"})',
        results: [{ subject: 'Halberd', relation: 'MEMBER_OF', object: 'Ash Cell', store: 'graph' }],
        ts: expect.any(String),
      },
      {
        id: 'g2',
        store: 'search',
        query: 'search(Ash Cell)',
        results: [],
        ts: expect.any(String),
        error: 'timeout after 5000 ms',
      },
    ]);
    const steps = workup.trajectory!.steps.map((s) => [
      s.step_id,
      s.step_type,
      s.tool_name,
      s.latency_ms,
      s.tokens_used,
      s.error,
      s.call_id,
    ]);
    expect(steps).toEqual([
      [1, 'tool_call', 'graph_query', 10, 0, null, 'g1'],
      [2, 'observation', 'graph_query', 15, 0, null, 'g1'],
      [3, 'thought', null, 15, 12, null, undefined],
      [4, 'tool_call', 'search', 1, 0, null, 'g2'],
      [5, 'observation', 'search', 59, 0, 'timeout after 5000 ms', 'g2'],
      [6, 'answer', null, 0, 0, null, undefined],
    ]);
    expect(workup.trajectory).toMatchObject({
      task_id: 'bridge',
      task_input: 'Who links Halberd to Wren?',
      final_answer: 'Compound-Alpha',
      succeeded: true,
      total_tokens: 12,
      total_latency_ms: 100,
    });
    expect(workup.trajectory!.steps[3]!.tool_input).toEqual({ input: 'Ash Cell' });
    expect(workup.meta).toEqual({ task: 'bridge', trial: 2 });
  });

  it('uses the SDK call ids, made citable and unique, and finds results by either id', () => {
    const recorder = createRecorder({ id: 'ids' });
    expect(recorder.toolCall('a', {}, 'call:1')).toBe('call_1');
    expect(recorder.toolCall('a', {}, 'call_1')).toBe('call_1-2');
    expect(recorder.toolCall('a', {})).toBe('g3');
    recorder.toolResult('call:1', 'first');
    recorder.toolResult('call_1-2', 'second');
    expect(recorder.workup().ledger.map((e) => [e.id, e.text])).toEqual([
      ['call_1', 'first'],
      ['call_1-2', 'second'],
      ['g3', undefined],
    ]);
  });

  it('keeps a result whose call it never saw as an observation, without a ledger entry', () => {
    const recorder = createRecorder({ id: 'orphan' });
    recorder.toolResult('call-9', { rows: 2 });
    const workup = recorder.workup();
    expect(workup.ledger).toEqual([]);
    expect(workup.trajectory!.steps.map((s) => [s.step_type, s.tool_name, s.call_id, s.tool_output])).toEqual(
      [['observation', null, 'call-9', { rows: 2 }]],
    );
  });

  it('takes latencies the SDK reports over its own clock, and totals reported usage', () => {
    const recorder = createRecorder({ id: 'timed', clock: ticks(0, 1, 2, 3) });
    const id = recorder.toolCall('t', { q: 1 }, undefined, { latencyMs: 250 });
    recorder.toolResult(id, 'ok', { latencyMs: 1234.5 });
    recorder.usage({ inputTokens: 100, outputTokens: 20, costUsd: 0.001 });
    recorder.usage({ inputTokens: 50, outputTokens: 5 });
    const workup = recorder.workup();
    expect(workup.trajectory!.steps.map((s) => s.latency_ms)).toEqual([250, 1234.5]);
    expect(workup.trajectory!.total_latency_ms).toBe(1484.5);
    expect(workup.trajectory!.total_tokens).toBe(175);
    expect(workup.meta.usage).toEqual({ inputTokens: 150, outputTokens: 25, costUsd: 0.001 });
  });

  it('marks a run that threw as failed, keeping what it did', () => {
    const recorder = createRecorder({ id: 'threw' });
    recorder.toolCall('t', {});
    recorder.fail(new Error('rate limited'));
    const workup = recorder.workup();
    expect(workup.trajectory!.succeeded).toBe(false);
    expect(workup.meta.error).toBe('rate limited');
    expect(workup.ledger).toHaveLength(1);
  });

  it('saves a folder that loadWorkup reads back equal: latencies, tokens, errors, big ids', async () => {
    const recorder = createRecorder({
      id: 'round-trip',
      task: 'bridge',
      trial: 'b',
      input: 'Who links Halberd to Wren?',
      meta: { model: 'mock', when: new Date('2026-01-02T03:04:05Z') },
      ledger: ({ output }) =>
        (output as { facts?: Array<{ subject: string; relation: string; object: string }> }).facts,
    });
    const big = 12345678901234567890n;
    const a = recorder.toolCall(
      'graph_query',
      { entity: 'Halberd', traceId: big, span: 2 ** 60, small: 7n },
      'call-1',
      {
        latencyMs: 12.75,
      },
    );
    recorder.toolResult(a, {
      facts: [{ subject: 'Halberd', relation: 'MEMBER_OF', object: 'Ash Cell' }],
      id: 18446744073709551615n,
      nested: [undefined, Number.NaN, -0, { when: new Date(0) }],
    });
    recorder.thought('Now the cell.', { tokens: 33, latencyMs: 400.5 });
    const b = recorder.toolCall('graph_query', ['Ash Cell']);
    recorder.toolResult(b, { error: 'timeout after 5000 ms' });
    recorder.answer('Compound-Alpha', { tokens: 9 });
    recorder.usage({ inputTokens: 1000, outputTokens: 200, costUsd: 0.0042 });
    recorder.note('# Workup\n\n## Findings\n\n- Halberd is a member of Ash Cell. [cite:call-1]\n');
    const dir = await recorder.save(await tmp());
    expect(dir.endsWith('round-trip')).toBe(true);

    const recorded = recorder.workup();
    const loaded = await loadWorkup(dir);
    expect(located(loaded)).toEqual(recorded);
    expect(loaded.meta.path).toBe(dir);
    // The big integers stay exact on disk, and come back as the loader keeps them: decimal strings.
    const input = recorded.trajectory!.steps[0]!.tool_input!;
    expect(input.traceId).toBe('12345678901234567890');
    // A number past 2^53 holds only what JSON prints of it.
    expect(input.span).toBe('1152921504606847000');
    expect(input.small).toBe(7);
    expect(loaded.trajectory!.steps[1]!.tool_output).toMatchObject({ id: '18446744073709551615' });
    expect(loaded.trajectory!.steps.map((s) => [s.latency_ms, s.tokens_used, s.error])).toEqual(
      recorded.trajectory!.steps.map((s) => [s.latency_ms, s.tokens_used, s.error]),
    );
    expect(loaded.ledger[1]!.error).toBe('timeout after 5000 ms');
    expect(loaded.trajectory!.total_tokens).toBe(1200);
    expect(JSON.parse(await readFile(join(dir, 'meta.json'), 'utf8'))).toEqual({
      model: 'mock',
      when: '2026-01-02T03:04:05.000Z',
      task: 'bridge',
      trial: 'b',
      usage: { inputTokens: 1000, outputTokens: 200, costUsd: 0.0042 },
    });
  });

  it('writes no note.md for a run without a note, and names an unsafe id safely', async () => {
    const recorder = createRecorder({ id: 'a/b:c' });
    recorder.answer('x');
    const dir = await recorder.save(await tmp());
    expect(dir.endsWith('a_b_c')).toBe(true);
    const loaded = await loadWorkup(dir);
    expect(loaded.note).toBeUndefined();
    expect(loaded.trajectory!.final_answer).toBe('x');
  });
});

describe('saveWorkup', () => {
  it('saved again without a note, removes the note of the earlier save', async () => {
    const parent = await tmp();
    const first = createRecorder({ id: 'again' });
    first.note('# Workup\n\nA note.\n');
    const dir = await first.save(parent);
    await createRecorder({ id: 'again' }).save(parent);
    expect((await loadWorkup(dir)).note).toBeUndefined();
  });
});
