import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NeedleworkTrendReporter } from '../../reporters/trend.js';
import { checkMeta, makeProject, removeProject, runVitest, testFileSource } from './harness.js';

let root: string;
beforeAll(async () => {
  // One needlework check that passes, and one plain Vitest test that fails in both runs.
  root = await makeProject({
    'plain.check.mjs': testFileSource([
      {
        describe: ['refunds', 'run-1'],
        name: 'answer-contains',
        meta: checkMeta({ spec: 'refunds', workup: 'run-1', criterion: 'answer-contains' }),
        outcome: 'pass',
      },
      { describe: ['helpers'], name: 'parses a date', outcome: 'fail', error: 'expected 1 to be 2' },
    ]),
  });
});
afterAll(() => removeProject(root));

describe('the gate and failing tests that carry no check', () => {
  it('counts them under the story, as failures the gate fails on whatever the baseline held', async () => {
    const store = join(root, 'store');
    await runVitest(root, [new NeedleworkTrendReporter({ store })]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const trend = new NeedleworkTrendReporter({ store });
    const printed: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      printed.push(String(chunk));
      return true;
    });
    try {
      await runVitest(root, [trend]);
    } finally {
      spy.mockRestore();
    }
    const story = printed
      .join('')
      .split('\n')
      .filter((line) => /^needlework: (vs | {2})/.test(line));
    expect(story).toEqual([
      expect.stringMatching(/^needlework: vs \S+: nothing regressed$/),
      'needlework:   1 failing test outside the comparison (a Vitest test with no needlework check); the gate fails on it (docs/gate.md#exit-codes)',
    ]);
    expect(trend.unknownFailures).toBe(1);
  }, 60_000);
});
