import { beforeAll, describe, expect, it } from 'vitest';
import type { NeedleSpec } from '../../src/model/spec.js';
import type { Workup } from '../../src/model/workup.js';
import { failure, fixture, needle } from './helpers.js';

let bridge: NeedleSpec;
/** Ten trials of one task: 7 grounded runs and 3 guessed ones. */
let trials: Workup[];

beforeAll(async () => {
  bridge = await needle('compound-alpha');
  const [grounded, guessed] = (await Promise.all([fixture('grounded'), fixture('guessed')])) as [
    Workup,
    Workup,
  ];
  trials = Array.from({ length: 10 }, (_, i) => {
    const source = i < 7 ? grounded : guessed;
    return { ...source, id: `trial-${i + 1}`, meta: { ...source.meta, task: 'bridge', trial: i + 1 } };
  });
});

const grounded = () => ({ needle: bridge, criterion: 'grounded' as const });

describe('toPassAtK', () => {
  it('passes when pass@k reaches min, and fails naming n, c and the estimate', () => {
    expect(trials).toPassAtK(grounded(), 1, 0.7);
    expect(trials).toPassAtK(grounded(), 2, 0.9);
    expect(failure(() => expect(trials).toPassAtK(grounded(), 1, 0.8))).toBe(
      'expect(workups).toPassAtK(criterion, k, min)\n\nExpected pass@1 of compound-alpha-bridge grounded over 10 trials of task bridge to be at least 0.8, but it is 0.7 (n = 10, c = 7).',
    );
  });

  it('honours .not, with its own wording', () => {
    expect(trials).not.toPassAtK(grounded(), 1, 0.8);
    expect(failure(() => expect(trials).not.toPassAtK(grounded(), 3, 0.9))).toBe(
      'expect(workups).not.toPassAtK(criterion, k, min)\n\nExpected pass@3 of compound-alpha-bridge grounded over 10 trials of task bridge to be below 0.9, but it is 0.9917 (n = 10, c = 7).',
    );
  });

  it('fails when k is more than the trials, saying it does not apply', () => {
    expect(failure(() => expect(trials.slice(0, 2)).toPassAtK(grounded(), 3, 0.5))).toBe(
      'expect(workups).toPassAtK(criterion, k, min)\n\nExpected pass@3 of compound-alpha-bridge grounded over 2 trials of task bridge to be at least 0.5, but it does not apply: k = 3 is more than the n = 2 decided trials.',
    );
  });

  it('takes any function of a workup as the criterion, and leaves not-applicable trials out', () => {
    const cited = (w: Workup) =>
      w.id === 'trial-1' ? { verdict: 'not-applicable' as const } : (w.note?.sections.length ?? 0) > 0;
    expect(trials).toPassAtK(cited, 9, 1);
    expect(failure(() => expect(trials).not.toPassAtK(cited, 1, 1))).toMatch(
      /over 9 trials of task bridge to be below 1, but it is 1 \(n = 9, c = 9\) \(1 not applicable, left out\)\.$/,
    );
  });

  it('refuses misuse with a TypeError naming the matcher', () => {
    expect(() => expect(trials[0]).toPassAtK(grounded(), 1, 0.5)).toThrow(
      'toPassAtK: expected a non-empty array of workups (the trials of one task) as the received value',
    );
    const mixed = [trials[0], { ...trials[1]!, meta: { task: 'other' } }];
    expect(() => expect(mixed).toPassAtK(grounded(), 1, 0.5)).toThrow(
      'toPassAtK: expected the trials of one task, got workups of 2 tasks: bridge, other',
    );
    expect(() => expect(trials).toPassAtK(grounded(), 0, 0.5)).toThrow(
      'toPassAtK: expected k to be a positive integer, got 0',
    );
    const vibes = { needle: bridge, criterion: 'vibes' } as unknown as ReturnType<typeof grounded>;
    expect(() => expect(trials).toPassAtK(vibes, 1, 0.5)).toThrow(TypeError);
  });
});

describe('toPassHatK', () => {
  it('passes when pass^k reaches min, and fails naming n, c and the estimate', () => {
    expect(trials).toPassHatK(grounded(), 1, 0.7);
    // C(7,2)/C(10,2) = 21/45.
    expect(failure(() => expect(trials).toPassHatK(grounded(), 2, 0.5))).toBe(
      'expect(workups).toPassHatK(criterion, k, min)\n\nExpected pass^2 of compound-alpha-bridge grounded over 10 trials of task bridge to be at least 0.5, but it is 0.4667 (n = 10, c = 7).',
    );
    expect(trials).not.toPassHatK(grounded(), 8, 0.01);
  });
});
