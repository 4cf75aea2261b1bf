import { describe, expect, it } from 'vitest';
import type { NeedleSpec } from '../../src/model/spec.js';
import type { Workup } from '../../src/model/workup.js';
import '../../src/vitest/types.js';

declare const workups: Workup[];
declare const needle: NeedleSpec;

describe('the trial matcher types', () => {
  it('type expect(workups).toPassAtK / toPassHatK with a needle criterion or a function', () => {
    expect(workups).toPassAtK({ needle, criterion: 'grounded' }, 3, 0.9);
    expect(workups).not.toPassHatK((w: Workup) => w.ledger.length > 0, 2, 0.5);
    expect(workups).toPassHatK((w: Workup) => ({ verdict: w.note ? 'pass' : 'fail' }), 1, 1);
    // @ts-expect-error: not a criterion this matcher decides by name
    expect(workups).toPassAtK({ needle, criterion: 'vibes' }, 1, 0.5);
    // @ts-expect-error: k is a number
    expect(workups).toPassAtK({ needle, criterion: 'grounded' }, '3', 0.5);
  });
});
