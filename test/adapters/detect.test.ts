import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../src/adapters/detect.js';
import { readInspectEval } from '../../src/adapters/inspect.js';
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

describe('detectFormat for the formats of issue 45', () => {
  const fixture = async (name: string): Promise<unknown> => {
    const bytes = await readFile(`fixtures/imports/${name}`);
    if (name.endsWith('.eval')) return readInspectEval(bytes, name);
    const text = bytes.toString('utf8');
    return name.endsWith('.jsonl')
      ? text
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => JSON.parse(l))
      : JSON.parse(text);
  };

  it.each([
    ['mini-swe-agent-django-14752.traj.json', 'mini-swe-agent'],
    ['mini-swe-agent-pvlib-1606-error.traj.json', 'mini-swe-agent'],
    ['tau2-bench-airline-results.json', 'tau2-bench'],
    ['inspect-bash-tool-calls.eval', 'inspect'],
    ['inspect-tool-call-errors.json', 'inspect'],
    ['openhands-output.jsonl', 'openhands'],
    ['litellm-completion-finish.json', 'openai'],
    ['agentops-crewai-trace.json', 'agentops'],
  ])('tells %s as %s by itself', async (name, format) => {
    expect(detectFormat(await fixture(name))).toBe(format);
  });

  it('tells each by the fields it must have, and nothing looser', () => {
    expect(detectFormat({ simulations: [] })).toBe('tau2-bench');
    expect(detectFormat({ eval: { task: 't' }, samples: [] })).toBe('inspect');
    expect(detectFormat({ eval: { task: 't' }, version: 2 })).toBe('inspect');
    expect(detectFormat({ trace: {}, spans: [{ span_id: 'a', span_name: 'x' }] })).toBe('agentops');
    expect(detectFormat([{ instance_id: 'i', history: [{ action: 'run' }] }])).toBe('openhands');
    expect(detectFormat({ trajectory_format: 'mini-swe-agent-1.1', messages: [] })).toBe('mini-swe-agent');
    expect(detectFormat({ info: { mini_version: '2.2.7' }, messages: [{ role: 'exit' }] })).toBe(
      'mini-swe-agent',
    );
    // Look-alikes: an eval that is not an object, spans without span ids, a history of plain messages.
    expect(detectFormat({ eval: 'x', samples: [] })).toBeUndefined();
    expect(detectFormat({ spans: [{ span_name: 'x' }] })).toBeUndefined();
    expect(detectFormat([{ instance_id: 'i', history: [{ role: 'user' }] }])).toBeUndefined();
    expect(detectFormat({ trajectory_format: 'other', messages: [] })).toBeUndefined();
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
