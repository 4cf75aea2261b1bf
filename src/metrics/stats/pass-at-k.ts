/**
 * pass@k and pass^k from n trials of which c passed. Both return `null` (not applicable) where the estimate is
 * undefined: no trials (n = 0), or k outside 1..n. They never return NaN.
 */

function validCounts(name: string, n: number, c: number, k: number): void {
  for (const [label, value] of [
    ['n', n],
    ['c', c],
    ['k', k],
  ] as const) {
    if (!Number.isInteger(value) || value < 0)
      throw new RangeError(`${name} expects ${label} to be a non-negative integer, got ${value}`);
  }
  if (c > n) throw new RangeError(`${name} expects c <= n, got c = ${c}, n = ${n}`);
}

/**
 * The unbiased estimator of pass@k (Chen et al. 2021, "Evaluating Large Language Models Trained on Code"): the
 * probability that at least one of k trials drawn without replacement from the n run passes,
 * 1 - C(n - c, k) / C(n, k). Computed as HumanEval's `estimate_pass_at_k` does, in the numerically stable product
 * form 1 - prod_{i = n - c + 1}^{n} (1 - k / i), with the same order of operations, so it agrees with it to the last
 * bit or two. A ratio in [0, 1]; `null` when n = 0, k = 0 or k > n (HumanEval itself returns 1 for k > n).
 */
export function passAtK(n: number, c: number, k: number): number | null {
  validCounts('passAtK', n, c, k);
  if (n === 0 || k === 0 || k > n) return null;
  if (n - c < k) return 1;
  let product = 1;
  for (let i = n - c + 1; i <= n; i++) product *= 1 - k / i;
  return 1 - product;
}

/**
 * pass^k (Yao et al. 2024, tau-bench): the probability that all of k trials drawn without replacement from the n run
 * pass, C(c, k) / C(n, k) = prod_{i = 0}^{k - 1} (c - i) / (n - i). A ratio in [0, 1]; `null` when n = 0, k = 0 or
 * k > n.
 */
export function passHatK(n: number, c: number, k: number): number | null {
  validCounts('passHatK', n, c, k);
  if (n === 0 || k === 0 || k > n) return null;
  if (c < k) return 0;
  let product = 1;
  for (let i = 0; i < k; i++) product *= (c - i) / (n - i);
  return product;
}
