import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callKey, numberCalls } from '../../src/metrics/trajectory/call-key.js';
import { makeStep, makeTrajectory } from '../../src/model/index.js';
import { jsonValue } from '../reference/arbitraries.js';

/** One trajectory holding each (tool, input) as a tool call, in order. */
function calls(list: Array<[string | null, unknown]>) {
  return makeTrajectory({
    task_id: 't',
    steps: list.map(([tool, input], i) =>
      makeStep({
        step_id: i + 1,
        step_type: 'tool_call',
        tool_name: tool,
        tool_input: input as Record<string, unknown> | null,
      }),
    ),
  });
}

// Values that differ from each other in exactly the ways Python's JSON text tells apart (or does not).
const tricky: unknown[] = [
  null,
  undefined,
  0,
  -0,
  1,
  1.5,
  true,
  false,
  '1',
  'true',
  'null',
  '',
  [],
  {},
  [1],
  { 0: 1 },
  { a: 1, b: 2 },
  { b: 2, a: 1 },
  { '\uffff': 1, '\u{1f600}': 2 },
  { '\u{1f600}': 2, '\uffff': 1 },
  [[]],
  [{}],
  { a: [] },
  { a: {} },
  2 ** 60,
  BigInt(2 ** 60),
  10n ** 22n,
  1e22,
  Number.NaN,
];

describe('numberCalls', () => {
  it('gives two calls one id exactly when their callKeys (Python JSON texts) are equal', () => {
    const value = fc.oneof(jsonValue, fc.constantFrom(...tricky));
    const tool = fc.constantFrom<string | null>('f', 'g', null, 'null');
    fc.assert(
      fc.property(fc.array(fc.tuple(tool, value), { maxLength: 8 }), (list) => {
        const { calls: numbered, size } = numberCalls([calls(list)]);
        const ids = numbered[0]!;
        const keys = list.map(([t, v]) => callKey(t, v));
        expect(size).toBe(new Set(keys).size);
        for (let i = 0; i < list.length; i++) {
          for (let j = 0; j < list.length; j++) {
            expect(ids[i] === ids[j], `${keys[i]} vs ${keys[j]}`).toBe(keys[i] === keys[j]);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('tells apart every pair of the tricky values that Python writes differently', () => {
    const list = tricky.map((v) => ['f', v] as [string, unknown]);
    const ids = numberCalls([calls(list)]).calls[0]!;
    const keys = list.map(([t, v]) => callKey(t, v));
    for (let i = 0; i < list.length; i++) {
      for (let j = 0; j < list.length; j++) {
        expect(ids[i] === ids[j], `${keys[i]} vs ${keys[j]}`).toBe(keys[i] === keys[j]);
      }
    }
  });

  it('numbers the calls of several trajectories together, 0, 1, 2, ... in order of first appearance', () => {
    const a = calls([
      ['f', { b: 2, a: 1 }],
      ['g', null],
      ['f', { a: 1, b: 2 }],
    ]);
    const b = calls([
      ['g', {}],
      ['f', { a: 1, b: 2 }],
      ['g', null],
    ]);
    expect(numberCalls([a, b])).toEqual({
      calls: [
        [0, 1, 0],
        [2, 0, 1],
      ],
      size: 3,
    });
    // A new numbering starts again from 0, whatever the earlier ones met.
    expect(numberCalls([b])).toEqual({ calls: [[0, 1, 2]], size: 3 });
  });

  it('keeps numbers consistent while its table grows in the middle of a numbering', () => {
    // 20,000 distinct argument values, each called twice, far apart: the pair table grows several times between.
    const list: Array<[string, unknown]> = [];
    for (let i = 0; i < 20_000; i++) list.push(['f', { q: `v${i}`, n: i, deep: [i, { x: i }] }]);
    const twice = [...list, ...list.slice().reverse()];
    const { calls: numbered, size } = numberCalls([calls(twice)]);
    const ids = numbered[0]!;
    expect(size).toBe(20_000);
    for (let i = 0; i < 20_000; i++) {
      expect(ids[i]).toBe(i);
      expect(ids[twice.length - 1 - i]).toBe(i);
    }
  });

  it('numbers as before once its table, past its bounds after a large numbering, has started over', () => {
    // 80,000 distinct calls of several values each: over a million ids, past the table's bound, so the next
    // numbering starts from a fresh table; the numbers must not depend on what the table held.
    const big: Array<[string, unknown]> = [];
    for (let i = 0; i < 80_000; i++) big.push(['f', { q: `w${i}`, n: [i, i + 0.5, { k: `k${i}` }] }]);
    expect(numberCalls([calls(big)]).size).toBe(80_000);
    const a = calls([
      ['f', { a: 1 }],
      ['g', { q: 'w1', n: [1, 1.5, { k: 'k1' }] }],
      ['f', { a: 1 }],
    ]);
    expect(numberCalls([a, calls([['g', { q: 'w1', n: [1, 1.5, { k: 'k1' }] }]])])).toEqual({
      calls: [[0, 1, 0], [1]],
      size: 2,
    });
  });
});
