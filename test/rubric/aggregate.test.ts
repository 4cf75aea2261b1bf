import { describe, expect, it } from 'vitest';
import { agreementOf, median, sumTotals, totalUsage, weightedTotal } from '../../src/rubric/aggregate.js';

describe('median and agreement', () => {
  it('takes the middle score, or the mean of the two middle ones', () => {
    expect(median([4, 2, 5])).toBe(4);
    expect(median([3, 4])).toBe(3.5);
    expect(median([])).toBeUndefined();
  });

  it('reports spread and the share of samples at the median', () => {
    expect(agreementOf([4, 4, 2])).toEqual({ scores: [4, 4, 2], spread: 2, agreement: 2 / 3 });
    expect(agreementOf([3, 3, 3])).toEqual({ scores: [3, 3, 3], spread: 0, agreement: 1 });
    expect(agreementOf([3, 4])).toEqual({ scores: [3, 4], spread: 1, agreement: 0 });
    expect(agreementOf([])).toBeNull();
  });
});

describe('weightedTotal', () => {
  it('weights each score and skips criteria with no score', () => {
    expect(
      weightedTotal([
        { score: 4, weight: 3 },
        { score: 2, weight: 1 },
        { score: null, weight: 5 },
      ]),
    ).toBe(3.5);
  });

  it('is null rather than NaN when nothing scored or the weights sum to 0', () => {
    expect(weightedTotal([{ score: null, weight: 1 }])).toBeNull();
    expect(weightedTotal([{ score: 4, weight: 0 }])).toBeNull();
    expect(weightedTotal([])).toBeNull();
  });
});

describe('usage totals', () => {
  it('sums tokens and cost, counting cached judgements as free', () => {
    expect(
      totalUsage([
        { tokens: { input: 100, output: 10 }, costUsd: 0.5, cached: false, calls: 2 },
        { tokens: { input: 100, output: 10 }, costUsd: 0, cached: true, calls: 0 },
      ]),
    ).toEqual({ requests: 2, cached: 1, calls: 2, tokens: { input: 200, output: 20 }, costUsd: 0.5 });
  });

  it('leaves tokens or cost out as soon as one judgement does not know them', () => {
    expect(
      totalUsage([
        { tokens: { input: 1, output: 1 }, cached: false, calls: 1 },
        { costUsd: 1, cached: false, calls: 1 },
      ]),
    ).toEqual({ requests: 2, cached: 0, calls: 2 });
    expect(
      sumTotals([
        { requests: 1, cached: 0, calls: 1, tokens: { input: 5, output: 1 }, costUsd: 0.1 },
        { requests: 1, cached: 1, calls: 0, tokens: { input: 5, output: 1 } },
      ]),
    ).toEqual({ requests: 2, cached: 1, calls: 1, tokens: { input: 10, output: 2 } });
  });
});
