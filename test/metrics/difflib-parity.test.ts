import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchingBlocks, type SequenceElement, sequenceRatio } from '../../src/metrics/difflib.js';
import { pythonUnavailable, runReference } from '../reference/python.js';

// Short sequences over small alphabets (many ties), and long ones (200 to 600 items) in which a few elements are
// frequent enough to be "popular" under autojunk, mixing strings and numbers.
const element = (k: number) =>
  fc.oneof(fc.constantFrom(...'abcdefgh'.slice(0, k)), fc.integer({ min: 0, max: 2 }));
const short = fc.integer({ min: 1, max: 8 }).chain((k) => fc.array(element(k), { maxLength: 25 }));
const long = fc
  .integer({ min: 1, max: 8 })
  .chain((k) => fc.array(element(k), { minLength: 200, maxLength: 600 }));
const sequence: fc.Arbitrary<SequenceElement[]> = fc.oneof(short, long);

describe('parity with CPython difflib (live python3)', () => {
  it('gives SequenceMatcher(None, a, b).ratio() and get_matching_blocks() on 1,500 generated pairs', (ctx) => {
    if (pythonUnavailable) return ctx.skip(pythonUnavailable);
    const pairs = fc.sample(fc.tuple(sequence, sequence), { numRuns: 1500, seed: 42 });
    expect(pairs.some(([, b]) => b.length >= 200)).toBe(true);
    const py = runReference<{ ratio: number; blocks: number[][] }[]>('difflib_ratio.py', pairs);
    pairs.forEach(([a, b], i) => {
      const where = `pair ${i} (${a.length} x ${b.length})`;
      expect(sequenceRatio(a, b), where).toBe(py[i]?.ratio);
      expect(
        matchingBlocks(a, b).map((m) => [m.a, m.b, m.size]),
        where,
      ).toEqual(py[i]?.blocks);
    });
  });
});
