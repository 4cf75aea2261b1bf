import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchingBlocks, type SequenceElement, sequenceRatio } from '../../src/metrics/difflib.js';

const chars = (s: string) => [...s];
const blocks = (a: SequenceElement[], b: SequenceElement[]) =>
  matchingBlocks(a, b).map((m) => [m.a, m.b, m.size]);

// Values printed by CPython 3.11's difflib.SequenceMatcher(None, a, b), pinned.
describe('sequenceRatio and matchingBlocks against pinned CPython values', () => {
  it.each([
    [
      'abxcd',
      'abcd',
      0.8888888888888888,
      [
        [0, 0, 2],
        [3, 2, 2],
        [5, 4, 0],
      ],
    ],
    [
      'abcd',
      'bcda',
      0.75,
      [
        [1, 0, 3],
        [4, 4, 0],
      ],
    ],
    [
      'qabxcd',
      'abycdf',
      0.6666666666666666,
      [
        [1, 0, 2],
        [4, 3, 2],
        [6, 6, 0],
      ],
    ],
    [
      'private Thread currentThread;',
      'private volatile Thread currentThread;',
      0.8656716417910447,
      [
        [0, 0, 6],
        [6, 15, 23],
        [29, 38, 0],
      ],
    ],
    ['', '', 1.0, [[0, 0, 0]]],
    ['abc', '', 0.0, [[3, 0, 0]]],
  ] as const)('%j vs %j', (a, b, ratio, expected) => {
    expect(sequenceRatio(chars(a), chars(b))).toBe(ratio);
    expect(blocks(chars(a), chars(b))).toEqual(expected);
  });

  it('is not a longest common subsequence: ties go to the earliest block, so the order of arguments can matter', () => {
    expect(sequenceRatio(chars('abbaa'), chars('baccaab'))).toBe(0.3333333333333333);
    expect(sequenceRatio(chars('baccaab'), chars('abbaa'))).toBe(0.5);
  });

  it('applies autojunk from 200 items: a popular element of b cannot start a match', () => {
    const a = ['x', 'a', 'a', 'a', 'y'];
    const b = ['y', ...Array<string>(199).fill('a'), 'x'];
    // 'a' occurs 199 > 201 // 100 + 1 times in b, so only the final 'x' matches
    expect(sequenceRatio(a, b)).toBe(0.009708737864077669);
    expect(blocks(a, b)).toEqual([
      [0, 200, 1],
      [5, 201, 0],
    ]);
    // the other way round b is short, nothing is popular and the three 'a's match
    expect(sequenceRatio(b, a)).toBe(0.02912621359223301);
    // and below 200 items there is no heuristic: the run of 'a's matches
    expect(sequenceRatio(a, b.slice(2))).toBe(0.029411764705882353);
  });

  it('extends a match across popular elements, as find_longest_match does', () => {
    const a = ['x', 'a', 'a', 'y'];
    const b = ['x', 'a', 'a', 'y', ...Array<string>(196).fill('a')];
    expect(sequenceRatio(a, b)).toBe(0.0392156862745098);
    expect(blocks(a, b)).toEqual([
      [0, 0, 4],
      [4, 200, 0],
    ]);
    // with no match outside the popular element at all, the empty match still extends forward from the start
    expect(sequenceRatio(Array(10).fill('a'), [...Array(199).fill('a'), 'b'])).toBe(0.09523809523809523);
  });

  it('compares elements by value and type: 1 is not "1"', () => {
    expect(sequenceRatio([1, 2, 3, '1'], ['1', 2, 3, 1])).toBe(0.5);
    expect(sequenceRatio([null, 'a'], [null, 'a'])).toBe(1);
  });
});

describe('properties', () => {
  const seq = fc.array(fc.constantFrom<SequenceElement>('a', 'b', 'c', 1, null), { maxLength: 40 });

  it('stays in [0, 1]; 1 for equal sequences; 0 when nothing is shared', () => {
    fc.assert(
      fc.property(seq, seq, (a, b) => {
        const r = sequenceRatio(a, b);
        expect(r >= 0 && r <= 1).toBe(true);
        expect(sequenceRatio(a, a)).toBe(1);
        const disjoint = b.map((x) => `other ${String(x)}`);
        expect(sequenceRatio(a, disjoint)).toBe(a.length + disjoint.length === 0 ? 1 : 0);
      }),
    );
  });

  it('returns blocks that really match, increasing and non-adjacent, ending with the sentinel', () => {
    fc.assert(
      fc.property(seq, seq, (a, b) => {
        const bs = matchingBlocks(a, b);
        expect(bs.at(-1)).toEqual({ a: a.length, b: b.length, size: 0 });
        for (let k = 0; k < bs.length - 1; k++) {
          const m = bs[k] as { a: number; b: number; size: number };
          const next = bs[k + 1] as { a: number; b: number; size: number };
          expect(a.slice(m.a, m.a + m.size)).toEqual(b.slice(m.b, m.b + m.size));
          expect(m.a + m.size <= next.a && m.b + m.size <= next.b).toBe(true);
          if (next.size > 0) expect(m.a + m.size === next.a && m.b + m.size === next.b).toBe(false);
        }
      }),
    );
  });
});
