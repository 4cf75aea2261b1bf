import { describe, expect, it } from 'vitest';
import { Semaphore } from '../../src/judge/semaphore.js';

describe('Semaphore', () => {
  it('runs at most `limit` tasks at once, in arrival order, and frees a slot when a task throws', async () => {
    const semaphore = new Semaphore(2);
    let active = 0;
    let most = 0;
    const started: number[] = [];
    const gates = Array.from({ length: 5 }, deferred);
    const runs = gates.map((gate, i) =>
      semaphore.run(async () => {
        started.push(i);
        active++;
        most = Math.max(most, active);
        await gate.promise;
        active--;
        if (i === 0) throw new Error('task 0 failed');
        return i;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    gates[0]!.resolve();
    await expect(runs[0]).rejects.toThrow('task 0 failed');
    expect(started).toEqual([0, 1, 2]);
    for (const gate of gates) gate.resolve();
    expect(await Promise.all(runs.slice(1))).toEqual([1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
  });

  it('rejects a limit below 1', () => {
    expect(() => new Semaphore(0)).toThrow('Semaphore: limit must be a positive integer, got 0');
  });
});

/** `Promise.withResolvers` (Node 22) for Node 20. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
