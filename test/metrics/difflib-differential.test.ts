import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchingBlocks, type SequenceElement, sequenceRatio } from '../../src/metrics/difflib.js';
import * as v1 from '../reference/difflib-v1.js';

// Short sequences over small alphabets (many ties), long ones (200 to 700 items, where autojunk makes some elements
// popular) and ones of very different lengths, so the buffers reused between comparisons grow and shrink in use.
const element = (k: number) =>
  fc.oneof(fc.constantFrom<SequenceElement>(...'abcdefgh'.slice(0, k), null), fc.integer({ min: 0, max: 2 }));
const sized = (min: number, max: number) =>
  fc.integer({ min: 1, max: 8 }).chain((k) => fc.array(element(k), { minLength: min, maxLength: max }));
const sequence: fc.Arbitrary<SequenceElement[]> = fc.oneof(sized(0, 25), sized(26, 199), sized(200, 700));

describe('difflib against its previous implementation (test/reference/difflib-v1.ts)', () => {
  it('gives the same ratio and matching blocks on 5,000 generated pairs, in both argument orders', () => {
    fc.assert(
      fc.property(sequence, sequence, (a, b) => {
        expect(sequenceRatio(a, b)).toBe(v1.sequenceRatio(a, b));
        expect(sequenceRatio(b, a)).toBe(v1.sequenceRatio(b, a));
        expect(matchingBlocks(a, b)).toEqual(v1.matchingBlocks(a, b));
      }),
      { numRuns: 5000, seed: 12 },
    );
  });
});
