import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Judge } from '../../src/judge/types.js';
import type { EntailmentVerifier } from '../../src/model/entailment.js';
import type { NeedleSpec, RubricSpec } from '../../src/model/spec.js';
import type { Workup } from '../../src/model/workup.js';
import '../../src/vitest/types.js';

declare const workup: Workup;
declare const needle: NeedleSpec;
declare const rubric: RubricSpec;
declare const judge: Judge;
declare const verifier: EntailmentVerifier;

describe('the matcher types', () => {
  it('type expect(workup).toX with their arguments', () => {
    expect(workup).toTraverse(['MEMBER_OF', 'CO_LOCATED']);
    expect(workup).toTraverse({ relations: ['MEMBER_OF'], from: 'Halberd', directed: true });
    expect(workup).not.toBeGrounded(needle);
    expect(workup).toSurface('Compound-Alpha');
    expect(workup).toCite({ subject: 'a', relation: 'R', object: 'b' });
    expect(workup).toHaveCitationRecall(0.9);
    expect(workup).toMatchTrajectory(undefined, { mode: 'unordered', toolArgs: 'ignore' });
    expect(workup).toHaveStepF1(workup, 0.8);
    expectTypeOf(expect(workup).toHaveCitationPrecision(0.9, { verifier })).toMatchTypeOf<Promise<unknown>>();
    expectTypeOf(expect(workup).toScoreRubric(rubric, { judge, min: 3 })).toMatchTypeOf<Promise<unknown>>();
  });

  it('type the asymmetric forms', () => {
    expect({ run: workup }).toEqual({ run: expect.toTraverse(['MEMBER_OF']) });
    expect({ run: workup }).toEqual({ run: expect.toBeGrounded(needle) });
  });

  it('reject wrong arguments', () => {
    // @ts-expect-error a path is a list of relation names, not one string
    expect(workup).toTraverse('MEMBER_OF');
    // @ts-expect-error a rubric matcher needs a judge
    expect(workup).toScoreRubric(rubric, {});
    // @ts-expect-error the mode is one of strict, unordered, subset, superset
    expect(workup).toMatchTrajectory(undefined, { mode: 'loose' });
  });
});
