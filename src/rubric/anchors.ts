import type { AnchorLevel } from '../model/spec.js';

const ASCENDING: readonly AnchorLevel[] = [1, 2, 3, 4, 5];

/**
 * The order the anchors are listed in for a sample: ascending for sample 0, descending for 1, then each rotated one
 * further every two samples (sample 2: 2 3 4 5 1; sample 3: 4 3 2 1 5; ...). Varying the order across samples
 * counters the position bias of LLM judges (Zheng et al. 2023, arXiv:2306.05685; Wang et al. 2023,
 * arXiv:2305.17926), and being a pure function of the index keeps every request reproducible and cacheable. The
 * first ten samples all differ.
 */
export function anchorOrder(sample: number): AnchorLevel[] {
  if (!Number.isInteger(sample) || sample < 0) {
    throw new TypeError(`anchorOrder: sample must be a whole number, got ${sample}`);
  }
  const base = sample % 2 === 0 ? [...ASCENDING] : [...ASCENDING].reverse();
  const shift = Math.floor(sample / 2) % base.length;
  return [...base.slice(shift), ...base.slice(0, shift)];
}
