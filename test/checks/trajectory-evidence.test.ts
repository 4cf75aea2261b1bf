import { describe, expect, it } from 'vitest';
import { trajectoryMatch } from '../../src/checks/trajectory.js';
import { callsDigest, callsOf, wholeEvidence } from '../../src/checks/trajectory-evidence.js';
import { type CallSpec, run, wholeForm } from './helpers.js';

const TOOLS = ['search', 'get_user', 'get_reservation', 'update', 'book', 'cancel', 'list', 'notify'];
/** Eight calls as the bench's workload makes them (bench/workload/cases.mjs, case 7). */
const EIGHT: CallSpec[] = TOOLS.map((_, k) => ({
  name: TOOLS[(7 + k * 3) % 8]!,
  args: { id: `r${49 + k}` },
}));

const bytes = (evidence: unknown) => Buffer.byteLength(JSON.stringify(evidence));

describe("trajectoryMatch: a passing check's evidence carries only what the run's calls do not", () => {
  it('a strict pass over 8 calls: the count and the digest of the calls, 62 bytes rather than 477', () => {
    const workup = run(EIGHT);
    const { measured } = trajectoryMatch(workup, run(EIGHT).trajectory);
    expect(measured.verdict).toBe('pass');
    expect(measured.evidence).toEqual({ mode: 'strict', args: 'exact', calls: 8, digest: '3c04a332' });
    expect(measured.evidence!['digest']).toBe(callsDigest(callsOf(workup.trajectory!)));
    expect(bytes(measured.evidence)).toBeLessThanOrEqual(64);
    expect(bytes(wholeForm(workup, run(EIGHT)))).toBeGreaterThan(470);
  });

  it('an unordered pass keeps its pairs only when they are not in order', () => {
    const inOrder = trajectoryMatch(run(EIGHT), run(EIGHT).trajectory, { mode: 'unordered' }).measured;
    expect(inOrder.evidence).toEqual({ mode: 'unordered', args: 'exact', calls: 8, digest: '3c04a332' });
    const swapped = [...EIGHT];
    [swapped[2], swapped[5]] = [swapped[5]!, swapped[2]!];
    const { measured } = trajectoryMatch(run(swapped), run(EIGHT).trajectory, { mode: 'unordered' });
    expect(measured.verdict).toBe('pass');
    expect(measured.evidence).toEqual({
      mode: 'unordered',
      args: 'exact',
      calls: 8,
      digest: callsDigest(callsOf(run(swapped).trajectory!)),
      alignment: {
        pairs: [
          [0, 0],
          [1, 1],
          [5, 2],
          [3, 3],
          [4, 4],
          [2, 5],
          [6, 6],
          [7, 7],
        ],
      },
    });
    expect(bytes(measured.evidence)).toBeLessThanOrEqual(150);
  });

  it('keeps the expected calls where they show otherwise than the calls they were paired with', () => {
    // Equal under exact arguments, but the view shows each side's keys in its own order.
    const { measured } = trajectoryMatch(
      run([{ name: 'search', args: { city: 'Paris', n: 2 } }]),
      run([{ name: 'search', args: { n: 2, city: 'Paris' } }]).trajectory,
    );
    expect(measured.evidence).toEqual({
      mode: 'strict',
      args: 'exact',
      calls: 1,
      reference: [{ tool: 'search', args: { n: 2, city: 'Paris' } }],
    });
    // Arguments a subset match leaves out, and calls a superset match allows.
    const wider = trajectoryMatch(
      run([{ name: 'login' }, { name: 'search', args: { city: 'Paris', n: 2 } }]),
      run([{ name: 'search', args: { city: 'Paris' } }]).trajectory,
      { mode: 'superset', toolArgs: 'superset' },
    ).measured;
    expect(wider.evidence).toEqual({
      mode: 'superset',
      args: 'superset',
      calls: 2,
      reference: [{ tool: 'search', args: { city: 'Paris' } }],
      alignment: { pairs: [[1, 0]] },
    });
  });

  it('keeps the expected calls whose arguments are not plain JSON values, and names calls by their shape', () => {
    const big = trajectoryMatch(
      run([{ name: 'a', args: { n: 10n ** 20n } }]),
      run([{ name: 'a', args: { n: 10n ** 20n } }]).trajectory,
    );
    expect(big.measured.verdict).toBe('pass');
    expect(big.measured.evidence).toHaveProperty('reference');
    const digest = (args: Record<string, unknown>) => callsDigest([{ tool: 'a', args }]);
    const shapes = [{ x: '1' }, { x: 1 }, { x: [1] }, { x: { y: 1 } }, { xy: 1 }, { x: null }, {}];
    expect(new Set(shapes.map(digest)).size).toBe(shapes.length);
    expect(callsDigest([{ tool: 'a', args: {} }])).not.toBe(callsDigest([{ tool: null, args: {} }]));
  });

  it('a failure keeps the whole evidence, which its diff reads', () => {
    const workup = run([{ name: 'search', args: { city: 'Rome' } }]);
    const reference = run([{ name: 'search', args: { city: 'Paris' } }]);
    const { measured } = trajectoryMatch(workup, reference.trajectory);
    expect(measured.verdict).toBe('fail');
    expect(measured.evidence).toEqual({
      ...wholeForm(workup, reference),
      actual: ['search({"city":"Rome"})'],
    });
  });
});

describe('wholeEvidence: either form read back whole', () => {
  const workup = run(EIGHT);
  const calls = () => callsOf(workup.trajectory!);

  it('completes a slim pass from the run calls it was checked on', () => {
    const { evidence } = trajectoryMatch(workup, run(EIGHT).trajectory).measured;
    expect(Object.keys(evidence!)).toEqual(['mode', 'args', 'calls', 'digest']);
    const whole = wholeForm(workup, run(EIGHT));
    expect(wholeEvidence(evidence, calls)).toEqual({
      reference: whole.reference,
      alignment: whole.alignment,
    });
  });

  it('reads the whole form as it is, without asking for the run calls', () => {
    const whole = wholeForm(workup, run(EIGHT));
    const asked = () => {
      throw new Error('asked');
    };
    expect(wholeEvidence(JSON.parse(JSON.stringify(whole)), asked)).toEqual({
      reference: whole.reference,
      alignment: whole.alignment,
    });
    expect(wholeEvidence({ mode: 'strict' }, asked)).toBeUndefined();
    // Other checks' evidence: a tool rule's (`calls`, the names), a count without a match mode.
    expect(wholeEvidence({ calls: ['a'], broken: [] }, asked)).toBeUndefined();
    expect(wholeEvidence({ calls: 3 }, asked)).toBeUndefined();
  });

  it('leaves out the alignment, and the calls taken from the run, where the run calls are not the ones checked', () => {
    const { evidence } = trajectoryMatch(workup, run(EIGHT).trajectory).measured;
    const fewer = callsOf(run(EIGHT.slice(1)).trajectory!);
    expect(wholeEvidence(evidence, () => fewer)).toEqual({ reference: [] });
    const other = callsOf(run([...EIGHT.slice(1), { name: 'notify', args: { id: 'x' } }]).trajectory!);
    expect(wholeEvidence(evidence, () => other)).toEqual({ reference: [] });
    const forged = {
      ...evidence,
      alignment: {
        pairs: [
          [0, 0],
          [1, 0],
        ],
      },
    };
    expect(wholeEvidence(forged, calls)).toEqual({ reference: [] });
  });
});
