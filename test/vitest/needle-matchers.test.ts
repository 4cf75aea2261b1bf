import { beforeAll, describe, expect, it } from 'vitest';
import type { NeedleSpec } from '../../src/model/spec.js';
import type { Workup } from '../../src/model/workup.js';
import { failure, fixture, needle } from './helpers.js';

let grounded: Workup;
let guessed: Workup;
let uncited: Workup;
let dangling: Workup;
let agree: Workup;
let conflict: Workup;
let bridge: NeedleSpec;
let wren: NeedleSpec;

beforeAll(async () => {
  const loaded = await Promise.all(
    ['grounded', 'guessed', 'uncited', 'dangling', 'cross-store-agree', 'cross-store-conflict'].map(fixture),
  );
  [grounded, guessed, uncited, dangling, agree, conflict] = loaded as [
    Workup,
    Workup,
    Workup,
    Workup,
    Workup,
    Workup,
  ];
  [bridge, wren] = (await Promise.all([needle('compound-alpha'), needle('wren-tie')])) as [
    NeedleSpec,
    NeedleSpec,
  ];
});

const PATH = ['MEMBER_OF', 'CO_LOCATED', 'CO_LOCATED'];

describe('toTraverse', () => {
  it('passes when the ledger holds the chain, in either direction unless directed', () => {
    expect(grounded).toTraverse(PATH);
    expect(grounded).toTraverse({ relations: PATH, from: 'Halberd', to: 'Wren' });
  });

  it('fails on a guess, with the required path against the traversed prefix as the diff', () => {
    expect(failure(() => expect(guessed).toTraverse(PATH))).toBe(
      [
        'expect(workup).toTraverse(path)',
        '',
        'Expected the ledger to traverse MEMBER_OF → CO_LOCATED → CO_LOCATED.',
        'It traversed only MEMBER_OF:',
        '  Halberd -MEMBER_OF-> Ash Cell  [g1]',
      ].join('\n'),
    );
    try {
      expect(guessed).toTraverse(PATH);
    } catch (error) {
      expect(error).toMatchObject({ expected: PATH, actual: ['MEMBER_OF'] });
    }
  });

  it('passes .not on a guess and fails .not on a traversal', () => {
    expect(guessed).not.toTraverse({ relations: PATH, from: 'Halberd', to: 'Wren' });
    expect(failure(() => expect(grounded).not.toTraverse(PATH))).toBe(
      [
        'expect(workup).not.toTraverse(path)',
        '',
        'Expected the ledger not to traverse MEMBER_OF → CO_LOCATED → CO_LOCATED, but it did:',
        '  Halberd -MEMBER_OF-> Ash Cell  [g1]',
        '  Ash Cell -CO_LOCATED-> Compound-Alpha  [g4]',
        '  Compound-Alpha -CO_LOCATED-> Wren  [g5]',
      ].join('\n'),
    );
  });

  it('works as an asymmetric matcher', () => {
    expect({ run: grounded }).toEqual({ run: expect.toTraverse(PATH) });
  });

  it('throws a TypeError naming the matcher on misuse', () => {
    expect(() => expect('grounded').toTraverse(PATH)).toThrow(
      new TypeError(
        'toTraverse: expected a Workup (from loadWorkup) as the received value, got string "grounded"',
      ),
    );
    expect(() => expect(grounded).toTraverse('MEMBER_OF' as never)).toThrow(
      new TypeError(
        'toTraverse: expected a path: a list of relation names or { relations, from?, to?, directed? }, got "MEMBER_OF"',
      ),
    );
    expect(() => expect(grounded).toTraverse([1, 2] as never)).toThrow(TypeError);
  });
});

describe('toBeGrounded', () => {
  it('passes for a traversed run and fails a guess saying it is one', () => {
    expect(grounded).toBeGrounded(bridge);
    expect(failure(() => expect(guessed).toBeGrounded(bridge))).toBe(
      [
        'expect(workup).toBeGrounded(needle)',
        '',
        'A guess, not a finding: the note of workup guessed names Compound-Alpha, but its ledger never traversed MEMBER_OF → CO_LOCATED → CO_LOCATED (needle compound-alpha-bridge).',
        'Longest traversed prefix: MEMBER_OF',
      ].join('\n'),
    );
  });

  it('negates', () => {
    expect(guessed).not.toBeGrounded(bridge);
    expect(failure(() => expect(grounded).not.toBeGrounded(bridge))).toMatch(
      /^expect\(workup\)\.not\.toBeGrounded\(needle\)\n\nExpected workup grounded not to be grounded in needle compound-alpha-bridge, but it surfaced Compound-Alpha and traversed the path via g1, g4, g5\.$/,
    );
  });

  it('refuses a receiver or needle of the wrong kind', () => {
    expect(() => expect(grounded).toBeGrounded({ id: 'x' } as never)).toThrow(
      'toBeGrounded: expected a needle spec (from loadSpec or loadSpecs), got an object that is not a workup',
    );
  });
});

describe('toSurface', () => {
  it('finds the answer as a string or a needle, and fails naming what it looked for', () => {
    expect(guessed).toSurface('Compound-Alpha');
    expect(grounded).toSurface(bridge);
    expect(failure(() => expect(grounded).toSurface('Tessellate Freight'))).toBe(
      'expect(workup).toSurface(answer)\n\nExpected the note\'s claims to name "Tessellate Freight"; none does.',
    );
    expect(grounded).not.toSurface('Tessellate Freight');
    expect(failure(() => expect(grounded).not.toSurface('Compound-Alpha'))).toMatch(
      /Expected the note not to name "Compound-Alpha", but line 5 does:\n {2}Halberd and Wren are linked/,
    );
  });
});

describe('toCite', () => {
  it('checks a ledger id is cited and exists', () => {
    expect(grounded).toCite('g4');
    expect(grounded).not.toCite('g3');
    expect(failure(() => expect(dangling).toCite('g99'))).toBe(
      'expect(workup).toCite(ledgerId)\n\nExpected the note to cite ledger entry g99, but the ledger has no entry g99.',
    );
  });

  it('checks a fact is asserted and cited to an entry that returned it', () => {
    expect(grounded).toCite({ subject: 'Halberd', relation: 'MEMBER_OF', object: 'Ash Cell' });
    // guessed cites g2 (Wren's neighbours) for "Ash Cell operates out of Compound-Alpha": g2 never returned that edge.
    expect(guessed).toCite({ subject: 'Wren', relation: 'CO_LOCATED', object: 'Compound-Alpha' });
    expect(
      failure(() =>
        expect(guessed).toCite({ subject: 'Ash Cell', relation: 'CO_LOCATED', object: 'Compound-Alpha' }),
      ),
    ).toBe(
      'expect(workup).toCite(fact)\n\nExpected a claim to assert Ash Cell -CO_LOCATED-> Compound-Alpha and cite a ledger entry that returned it; none does.',
    );
    expect(() => expect(grounded).toCite(42 as never)).toThrow(
      'toCite: expected a ledger id or a fact { subject, relation, object }, got 42',
    );
  });
});

describe('citations', () => {
  it('toHaveResolvableCitations names each dangling id with its place', () => {
    expect(grounded).toHaveResolvableCitations();
    expect(dangling).not.toHaveResolvableCitations();
    expect(failure(() => expect(dangling).toHaveResolvableCitations())).toBe(
      'expect(workup).toHaveResolvableCitations()\n\nExpected every citation to name a ledger entry; these name none:\n  g99 (line 13, column 61)',
    );
    expect(failure(() => expect(grounded).not.toHaveResolvableCitations())).toBe(
      'expect(workup).not.toHaveResolvableCitations()\n\nExpected a dangling citation, but all 8 resolve.',
    );
  });

  it('toHaveCitationRecall lists the uncited claims with their lines', () => {
    expect(grounded).toHaveCitationRecall();
    expect(uncited).toHaveCitationRecall(0.5);
    expect(uncited).not.toHaveCitationRecall(1);
    expect(failure(() => expect(uncited).toHaveCitationRecall())).toBe(
      [
        'expect(workup).toHaveCitationRecall(min)',
        '',
        'Expected citation recall of at least 1, but it is 0.778 (7 of 9 claims cited).',
        'Uncited claims:',
        '  line 11: Wren visited the site twice in March.',
        '  line 12: Halberd and Wren probably know each other personally.',
      ].join('\n'),
    );
    expect(() => expect(uncited).toHaveCitationRecall(2)).toThrow(
      'toHaveCitationRecall: expected min to be a number from 0 to 1, got 2',
    );
  });
});

describe('supporting facts, pivot burden, reconciliation', () => {
  it('toHaveSupportingFactF1 uses the needle threshold and lists missing facts', () => {
    expect(grounded).toHaveSupportingFactF1(bridge);
    expect(failure(() => expect(guessed).toHaveSupportingFactF1(bridge, 1))).toMatch(
      /^expect\(workup\)\.toHaveSupportingFactF1\(needle, min\)\n\nExpected supporting-fact F1 of at least 1, but it is [0-9.]+ .*\nRequired facts not cited:\n {2}.*CO_LOCATED/s,
    );
  });

  it('toHavePivotBurdenAtMost counts queries until the path completed', () => {
    expect(grounded).toHavePivotBurdenAtMost(bridge, 5);
    expect(failure(() => expect(grounded).toHavePivotBurdenAtMost(bridge, 4))).toBe(
      'expect(workup).toHavePivotBurdenAtMost(needle, max)\n\nExpected the path to be completed within 4 queries, but it took 5 (completed by g5).',
    );
    expect(failure(() => expect(guessed).toHavePivotBurdenAtMost(bridge))).toBe(
      'expect(workup).toHavePivotBurdenAtMost(needle, max)\n\nExpected the path to be completed within 20 queries, but the ledger never completes the path.',
    );
  });

  it('toReconcileStores accepts corroborated agreement and flagged conflict, and fails a single-store run', () => {
    expect(agree).toReconcileStores(wren);
    expect(conflict).toReconcileStores(wren);
    expect(failure(() => expect(grounded).toReconcileStores(wren))).toMatch(
      /^expect\(workup\)\.toReconcileStores\(needle\)\n\nExpected the note to reconcile graph and docs on Wren EMPLOYED_BY/,
    );
  });
});

describe('toUseEstimativeLanguage', () => {
  it('passes a note with ICD-203 terms and a stated confidence, and fails one without', () => {
    expect(grounded).toUseEstimativeLanguage();
    expect(failure(() => expect(agree).toUseEstimativeLanguage())).toMatch(
      /^expect\(workup\)\.toUseEstimativeLanguage\(\)\n\nExpected the note to follow ICD-203 estimative language:\n {2}no likelihood stated in ICD-203 estimative terms\n {2}no analytic confidence stated/,
    );
  });
});
