import { loadSpec, loadWorkup, type NeedleSpec, type Workup } from 'needlework';
import { beforeAll, describe, expect, it } from 'vitest';

const runs = new URL('../../fixtures/workups/', import.meta.url).pathname;
const bridge = (await loadSpec(
  new URL('../needles/compound-alpha.needle.yaml', import.meta.url).pathname,
)) as NeedleSpec;

let grounded: Workup;
let guessed: Workup;
let uncited: Workup;

beforeAll(async () => {
  [grounded, guessed, uncited] = (await Promise.all(
    ['grounded', 'guessed', 'uncited'].map((n) => loadWorkup(runs + n)),
  )) as [Workup, Workup, Workup];
});

describe('the Halberd-Wren task', () => {
  it('a grounded run walks the bridge and cites every hop', () => {
    expect(grounded).toTraverse(['MEMBER_OF', 'CO_LOCATED', 'CO_LOCATED']);
    expect(grounded).toBeGrounded(bridge);
    expect(grounded).toCite({ subject: 'Wren', relation: 'CO_LOCATED', object: 'Compound-Alpha' });
    expect(grounded).toHaveCitationRecall(1);
    expect(grounded).toHavePivotBurdenAtMost(bridge, 5);
  });

  it('a guessed run names the answer without walking the path', () => {
    expect(guessed).toSurface(bridge);
    expect(guessed).not.toBeGrounded(bridge);
    expect(guessed).not.toTraverse(bridge.required_path);
  });

  it('an uncited claim is caught', () => {
    expect(uncited).not.toHaveCitationRecall(1);
  });

  it('the trajectory recovers from its timeout and stays close to the gold path', () => {
    expect(grounded).toRecoverFromErrors();
    expect(grounded).toMatchTrajectory(undefined, { mode: 'superset' });
    expect(grounded).toHaveStepF1(undefined, 0.8);
    expect(grounded).toHaveRedundancyAtMost(0.2);
  });
});
