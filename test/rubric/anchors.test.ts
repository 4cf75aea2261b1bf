import { describe, expect, it } from 'vitest';
import { anchorOrder } from '../../src/rubric/anchors.js';

describe('anchorOrder', () => {
  it('lists ascending, descending, then rotated orders', () => {
    expect([0, 1, 2, 3].map(anchorOrder)).toEqual([
      [1, 2, 3, 4, 5],
      [5, 4, 3, 2, 1],
      [2, 3, 4, 5, 1],
      [4, 3, 2, 1, 5],
    ]);
  });

  it('gives ten different orders to the first ten samples, each a permutation of 1-5', () => {
    const orders = Array.from({ length: 10 }, (_, i) => anchorOrder(i));
    expect(new Set(orders.map((o) => o.join(''))).size).toBe(10);
    for (const order of orders) expect([...order].sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('is the same for the same sample (reproducible requests)', () => {
    expect(anchorOrder(7)).toEqual(anchorOrder(7));
  });

  it('rejects a sample that is not a whole number', () => {
    expect(() => anchorOrder(-1)).toThrow('anchorOrder: sample must be a whole number, got -1');
  });
});
