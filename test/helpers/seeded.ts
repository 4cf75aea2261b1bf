/**
 * A seeded integer source for generated test inputs: `int(n)` is in [0, n). A linear congruential generator, so a
 * seed gives the same texts on every machine, and the seeds the tests name keep the inputs they were chosen for.
 */
export function seededInts(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return Math.floor((state / 2 ** 31) * n);
  };
}
