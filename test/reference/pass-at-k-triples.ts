import { seededRandom } from '../../src/metrics/stats/random.js';

/**
 * The (n, c, k) triples of the pass@k parity tests, generated from a fixed seed: mostly small n (1 to 20, where every
 * edge c = 0, c = n, k = n is common), some up to 200 and some up to 2,000 (long products, tiny and near-1 results).
 * `pass-at-k.pinned.json` holds the exact references of these triples in this order: change the generator and the
 * pinned file must be regenerated with `pass_at_k.py`.
 */
export function passAtKTriples(count = 10_000, seed = 11): Array<[number, number, number]> {
  const random = seededRandom(seed);
  const triples: Array<[number, number, number]> = [];
  for (let i = 0; i < count; i++) {
    const bucket = random.below(10);
    const max = bucket < 6 ? 20 : bucket < 9 ? 200 : 2000;
    const n = 1 + random.below(max);
    const c = random.below(n + 1);
    const k = 1 + random.below(n);
    triples.push([n, c, k]);
  }
  return triples;
}
