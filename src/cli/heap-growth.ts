import v8 from 'node:v8';

/**
 * The process's size past which heaps grow as V8 decides again: a run that large cannot be held near a small peak,
 * and collecting its gigabytes twice as often only makes it slower.
 */
const LARGE_RUN_BYTES = 2 ** 30;

/**
 * The young generation's semi-space of every thread started while the heaps are held (the test worker, the store's and
 * the HTML report's threads), in MB: V8's default on a 64-bit machine is 16 (a new space of 32 MB a thread).
 */
export const SEMI_SPACE_MB = 4;

/**
 * Holds every heap of the process (the CLI's and its test worker thread's) to twice the size it keeps alive, until
 * the process is larger than `LARGE_RUN_BYTES`, and gives each thread started meanwhile a young generation of
 * `SEMI_SPACE_MB`. Returns the function that lets heaps grow freely again.
 *
 * The test worker's heap grows to about 2.6x what it keeps alive (V8 lets a heap grow up to 4x when its collector is
 * slow against the program's allocation), and it peaks beside the main process's: a 10,000-case run peaked at
 * 931-969 MB. Held to 2x, 22 of 23 such runs peaked at 720-813 MB (one at 883 MB), the median wall and CPU time of 11
 * interleaved runs unchanged; a bound of 1.5x held it near 660 MB but cost 25-30% more CPU. Held for the whole run, a
 * 100,000-case run (a live heap of gigabytes, collected about 3x as often) took 158 s against 126 s; freed past
 * 1.5 GB, 140 s; freed past 1 GB, 120 s (2026-11-27).
 *
 * The young generation: a thread's new space grows to 32 MB and its pages stay mapped. A semi-space of 4 MB took a
 * 10,000-case run on a developer machine from 942-969 MB to 796-810 MB at its peak, and in CI from 1,150-1,163 MB to
 * 997-1,021 MB, with the same wall and CPU time (6 and 4 interleaved runs against the build before; 1,000 cases:
 * 340-356 -> 315-321 MB); 2 MB cost time, and 1 MB held more (objects promoted before they die). See
 * docs/performance.md, 2026-11-28 (night). The flag is read as a thread's heap is made, so the main thread keeps V8's
 * default, and a thread started after `free` gets it again.
 */
export function boundHeapGrowth(): () => void {
  v8.setFlagsFromString('--heap-growing-percent=100');
  v8.setFlagsFromString(`--max-semi-space-size=${SEMI_SPACE_MB}`);
  const free = () => {
    clearInterval(watch);
    v8.setFlagsFromString('--heap-growing-percent=0');
    v8.setFlagsFromString('--max-semi-space-size=0');
  };
  const watch = setInterval(() => {
    if (process.memoryUsage.rss() > LARGE_RUN_BYTES) free();
  }, 250);
  watch.unref();
  return free;
}
