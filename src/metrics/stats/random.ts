/**
 * A small seeded pseudo-random generator (mulberry32: 32-bit state, period 2^32). Seeded so a report, a bootstrap
 * interval and a simulation give the same numbers on every machine and every run; not for anything cryptographic.
 */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, bound), for bound in 1..2^32. */
  below(bound: number): number;
  /** The generator's 32-bit state; `resampleMeans` advances it, so draws continue one sequence. */
  state: number;
}

/** One step of mulberry32 on a state already advanced by 0x6d2b79f5: a uniform 32-bit unsigned integer. */
function mix(state: number): number {
  let t = Math.imul(state ^ (state >>> 15), state | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return (t ^ (t >>> 14)) >>> 0;
}

/** A generator from a seed (any number; its low 32 bits are used). */
export function seededRandom(seed: number): Random {
  const random: Random = {
    state: seed >>> 0,
    next: () => {
      random.state = (random.state + 0x6d2b79f5) >>> 0;
      return mix(random.state) / 4294967296;
    },
    below: (bound) => Math.floor(random.next() * bound),
  };
  return random;
}

/**
 * The means of `resamples` bootstrap samples: each draws `sums.length` items with replacement (as `random.below` would)
 * and takes sum(sums) / sum(counts) over them, or the plain mean of the drawn sums without counts. The loop inlines the
 * generator: this is the statistics layer's hot path (10,000 values x 1,000 resamples per criterion).
 *
 * @param sums one value per item (a trial's value, or a task's sum of values)
 * @param counts the number of values behind each sum (a task's trials); omitted when each sum is one value
 */
export function resampleMeans(
  sums: Float64Array,
  counts: Float64Array | undefined,
  resamples: number,
  random: Random,
): Float64Array {
  const n = sums.length;
  const means = new Float64Array(resamples);
  // u * n / 2^32 for a 32-bit u is below n < 2^31, so truncation with | 0 is the floor.
  const scale = n / 4294967296;
  let state = random.state;
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    let count = 0;
    if (counts) {
      for (let i = 0; i < n; i++) {
        state = (state + 0x6d2b79f5) | 0;
        let t = Math.imul(state ^ (state >>> 15), state | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        const j = (((t ^ (t >>> 14)) >>> 0) * scale) | 0;
        sum += sums[j] as number;
        count += counts[j] as number;
      }
    } else {
      for (let i = 0; i < n; i++) {
        state = (state + 0x6d2b79f5) | 0;
        let t = Math.imul(state ^ (state >>> 15), state | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        sum += sums[(((t ^ (t >>> 14)) >>> 0) * scale) | 0] as number;
      }
      count = n;
    }
    means[r] = sum / count;
  }
  random.state = state >>> 0;
  return means;
}

/** The most indices `BootstrapDraws` keeps of one sequence (16 MB): longer ones are drawn each time. */
const DRAWS_KEPT = 1 << 22;

/**
 * The items `resampleMeans` draws from a fresh generator, kept by how many items, resamples and seed: they depend on
 * nothing else, so the bootstraps of one comparison over the same number of cases (every criterion of a spec runs
 * over its cases) draw them once. `resampleMeansOf` reads them back.
 */
export class BootstrapDraws {
  private readonly kept = new Map<string, Int32Array>();

  /** The `n x resamples` indices, in draw order, of a generator seeded with `seed`; undefined past `DRAWS_KEPT`. */
  indices(n: number, resamples: number, seed: number): Int32Array | undefined {
    if (n * resamples > DRAWS_KEPT) return undefined;
    const key = `${n}/${resamples}/${seed}`;
    let found = this.kept.get(key);
    if (!found) {
      found = new Int32Array(n * resamples);
      const scale = n / 4294967296;
      let state = seededRandom(seed).state;
      for (let d = 0; d < found.length; d++) {
        state = (state + 0x6d2b79f5) | 0;
        let t = Math.imul(state ^ (state >>> 15), state | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        found[d] = (((t ^ (t >>> 14)) >>> 0) * scale) | 0;
      }
      this.kept.set(key, found);
    }
    return found;
  }
}

/**
 * `resampleMeans(sums, undefined, resamples, random)` from the indices it would draw (`BootstrapDraws.indices`): the
 * same means, each summed in the same order.
 */
export function resampleMeansOf(sums: Float64Array, indices: Int32Array, resamples: number): Float64Array {
  const n = sums.length;
  const means = new Float64Array(resamples);
  let d = 0;
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += sums[indices[d++] as number] as number;
    means[r] = sum / n;
  }
  return means;
}
