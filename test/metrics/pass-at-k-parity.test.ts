import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { passAtK } from '../../src/metrics/stats/index.js';
import { passAtKTriples } from '../reference/pass-at-k-triples.js';
import { pythonUnavailable, runReference } from '../reference/python.js';

const triples = passAtKTriples();
const pinned = JSON.parse(
  readFileSync(new URL('../reference/pass-at-k.pinned.json', import.meta.url), 'utf8'),
) as { seed: number; count: number; first: number[]; exact: number[] };

/** The largest |ours - reference| over the triples, and where it is. */
function largestGap(reference: readonly number[]): { gap: number; at: number } {
  let gap = 0;
  let at = -1;
  triples.forEach(([n, c, k], i) => {
    const d = Math.abs((passAtK(n, c, k) as number) - (reference[i] as number));
    if (d > gap) {
      gap = d;
      at = i;
    }
  });
  return { gap, at };
}

describe('pass@k parity', () => {
  it('covers 10,000 triples with every edge case', () => {
    expect(triples).toHaveLength(10_000);
    expect(triples.some(([n, c]) => c === 0 && n > 1)).toBe(true);
    expect(triples.some(([n, c]) => c === n && n > 1)).toBe(true);
    expect(triples.some(([n, , k]) => k === n && n > 1)).toBe(true);
    expect(triples.some(([n]) => n > 1000)).toBe(true);
  });

  it('equals the exact 1 - C(n-c, k)/C(n, k) pinned from Python integers, within 1e-12', () => {
    // The pinned file belongs to these triples: a changed generator must regenerate it.
    expect([pinned.count, pinned.first]).toEqual([triples.length, triples[0]]);
    const { gap, at } = largestGap(pinned.exact);
    console.log(
      `pass@k vs exact (pinned): largest gap ${gap.toExponential(2)} at ${JSON.stringify(triples[at])}`,
    );
    expect(gap).toBeLessThan(1e-12);
  });

  it("equals HumanEval's estimate_pass_at_k (live python3) within 1e-15", (ctx) => {
    if (pythonUnavailable) return ctx.skip(pythonUnavailable);
    const py = runReference<{ humaneval: number[]; exact: number[] }>('pass_at_k.py', triples);
    const { gap, at } = largestGap(py.humaneval);
    console.log(
      `pass@k vs HumanEval: largest gap ${gap.toExponential(2)}${at >= 0 ? ` at ${JSON.stringify(triples[at])}` : ''}`,
    );
    expect(gap).toBeLessThanOrEqual(1e-15);
    // The pinned exact values are what Python computes today.
    expect(py.exact).toEqual(pinned.exact);
  });
});
