/**
 * A small seeded pseudo-random generator (mulberry32: 32-bit state, period 2^32, passes gjrand's and PractRand's
 * basic batteries at the sizes a bootstrap draws). Seeded so a report, a bootstrap interval and a simulation give the
 * same numbers on every machine and every run; not for anything cryptographic.
 */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, bound), for bound in 1..2^32. */
  below(bound: number): number;
}

/** A generator from a seed (any number; its low 32 bits are used). */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const nextUint = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  return {
    next: () => nextUint() / 4294967296,
    below: (bound) => Math.floor((nextUint() / 4294967296) * bound),
  };
}
