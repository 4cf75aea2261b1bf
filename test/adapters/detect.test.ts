import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../src/adapters/detect.js';
import { fromOtelSpans } from '../../src/adapters/otel.js';
import { at, otlp, type SpanSpec } from './otlp.js';

describe('detectFormat', () => {
  it('tells each format by the fields it must have', () => {
    expect(detectFormat({ resourceSpans: [] })).toBe('otel');
    expect(detectFormat([{ resourceSpans: [] }, { resourceSpans: [] }])).toBe('otel');
    expect(detectFormat({ task_id: 't', steps: [] })).toBe('trajectory');
    expect(detectFormat([{ role: 'user', content: 'q' }])).toBe('openai');
    expect(detectFormat({ model: 'gpt-4o', messages: [{ role: 'user', content: 'q' }] })).toBe('openai');
  });

  it('guesses nothing from look-alikes', () => {
    expect(detectFormat([])).toBeUndefined();
    expect(detectFormat({ messages: [] })).toBeUndefined();
    expect(detectFormat([{ role: 'user' }, { content: 'no role' }])).toBeUndefined();
    expect(detectFormat({ task_id: 7, steps: [] })).toBeUndefined();
    expect(detectFormat([{ resourceSpans: [] }, { role: 'user' }])).toBeUndefined();
    expect(detectFormat('text')).toBeUndefined();
    expect(detectFormat(null)).toBeUndefined();
  });
});

describe('fromOtelSpans ordering', () => {
  it('gives the same trajectory whatever order the spans are written in', () => {
    const tool = (i: number, startNs: number, lengthNs: number): SpanSpec => ({
      id: `s${i}`,
      start: at(0, startNs),
      end: at(0, startNs + lengthNs),
      attrs: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': `tool${i}`,
        'gen_ai.tool.call.id': `c${i}`,
      },
    });
    fc.assert(
      fc.property(
        // Distinct starts within one millisecond, where only the nanoseconds tell them apart.
        fc.uniqueArray(fc.integer({ min: 0, max: 999_999 }), { minLength: 2, maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 5_000_000 }), { minLength: 8, maxLength: 8 }),
        fc.infiniteStream(fc.nat()),
        (starts, lengths, random) => {
          const spans = starts.map((start, i) => tool(i, start, lengths[i]!));
          const shuffled = [...spans];
          for (let i = shuffled.length - 1; i > 0; i--) {
            const j = random.next().value % (i + 1);
            [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
          }
          const expected = fromOtelSpans(otlp(spans));
          expect(fromOtelSpans(otlp(shuffled))).toEqual(expected);
          const calls = expected.steps.filter((s) => s.step_type === 'tool_call').map((s) => s.call_id);
          const byStart = starts
            .map((start, i) => ({ start, id: `c${i}` }))
            .sort((x, y) => x.start - y.start);
          expect(calls).toEqual(byStart.map((s) => s.id));
        },
      ),
    );
  });
});

describe('the names before 0.2, kept as deprecated aliases', () => {
  it('exports fromSeedTrajectory and inSeedOrder as the renamed functions', async () => {
    const api = await import('../../src/index.js');
    expect(api.fromSeedTrajectory).toBe(api.fromTrajectoryJson);
    expect(api.inSeedOrder).toBe(api.inTrajectoryOrder);
    expect(api.TRAJECTORY_FORMATS).toContain('trajectory');
    expect(api.TRAJECTORY_FORMATS).not.toContain('seed');
  });
});
