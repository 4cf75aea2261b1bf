import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { boundHeapGrowth, SEMI_SPACE_MB } from '../../src/cli/heap-growth.js';

/** The largest new space (both semi-spaces) a thread reaches while it makes garbage and keeps some of it alive. */
function newSpaceMb(): Promise<number> {
  const code = `
    const v8 = require('node:v8');
    let kept = [];
    let largest = 0;
    for (let round = 0; round < 200; round++) {
      for (let i = 0; i < 20000; i++) kept.push({ i, text: 'x' + i });
      if (kept.length > 60000) kept = kept.slice(-20000);
      const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
      largest = Math.max(largest, space.space_size);
    }
    require('node:worker_threads').parentPort.postMessage(largest / 1048576);
  `;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

describe('boundHeapGrowth', () => {
  it("gives a thread started while the heaps are held a young generation of SEMI_SPACE_MB, and V8's own after", async () => {
    const free = boundHeapGrowth();
    let held: number;
    try {
      held = await newSpaceMb();
    } finally {
      free();
    }
    const freed = await newSpaceMb();
    expect(held).toBeLessThanOrEqual(2 * SEMI_SPACE_MB);
    expect(freed).toBeGreaterThan(2 * SEMI_SPACE_MB);
  });
});
