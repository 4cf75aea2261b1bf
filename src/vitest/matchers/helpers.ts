import type { MatcherState } from 'vitest';
import { TestRunner } from 'vitest';
import { MATCHER, type Measured, toCheck } from '../../checks/measure.js';
import type { Check } from '../../model/check.js';
import type { NeedleSpec, RequiredPath } from '../../model/spec.js';
import type { Workup } from '../../model/workup.js';

export { formatValue } from '../../checks/format.js';
export type { MatcherState };
/** What a needlework matcher returns: Vitest prints `message`, and a diff of `expected` against `actual` when given. */
export interface MatcherResult {
  pass: boolean;
  message: () => string;
  actual?: unknown;
  expected?: unknown;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object'
    ? 'an object that is not a workup'
    : `${typeof value} ${JSON.stringify(value)}`;
}

/** The receiver must be a `Workup`; anything else is misuse, a `TypeError` naming the matcher. */
export function requireWorkup(matcher: string, received: unknown): Workup {
  const w = received as Partial<Workup> | null;
  if (
    w === null ||
    typeof w !== 'object' ||
    typeof w.id !== 'string' ||
    !Array.isArray(w.ledger) ||
    typeof w.meta !== 'object'
  ) {
    throw new TypeError(
      `${matcher}: expected a Workup (from loadWorkup) as the received value, got ${describeValue(received)}`,
    );
  }
  return w as Workup;
}

export function requireNeedle(matcher: string, value: unknown): NeedleSpec {
  const n = value as Partial<NeedleSpec> | null;
  if (n === null || typeof n !== 'object' || n.kind !== 'needle' || typeof n.id !== 'string') {
    throw new TypeError(
      `${matcher}: expected a needle spec (from loadSpec or loadSpecs), got ${describeValue(value)}`,
    );
  }
  return n as NeedleSpec;
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string' && v !== '');
}

/** A relation list or `{ relations, from?, to?, directed? }`, normalised to the long form. */
export function requirePath(matcher: string, value: unknown): RequiredPath {
  if (isStringList(value)) return { relations: [...value], directed: false };
  const p = value as Partial<RequiredPath> | null;
  if (
    p !== null &&
    typeof p === 'object' &&
    isStringList(p.relations) &&
    (p.from === undefined || typeof p.from === 'string') &&
    (p.to === undefined || typeof p.to === 'string') &&
    (p.directed === undefined || typeof p.directed === 'boolean')
  ) {
    return { ...p, relations: [...p.relations], directed: p.directed ?? false };
  }
  throw new TypeError(
    `${matcher}: expected a path: a list of relation names or { relations, from?, to?, directed? }, got ${JSON.stringify(value)}`,
  );
}

/** A number in [lo, hi]; misuse otherwise. */
export function requireNumber(matcher: string, name: string, value: unknown, lo = 0, hi = 1): number {
  if (typeof value !== 'number' || Number.isNaN(value) || value < lo || value > hi) {
    throw new TypeError(
      `${matcher}: expected ${name} to be a number from ${lo} to ${hi}, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/**
 * The failure message every matcher builds the same way (jest-extended style): the matcher hint, a blank line, then
 * the lines that say what was expected and what was found.
 */
export function message(
  state: MatcherState,
  matcher: string,
  expectedArg: string,
  lines: (negated: boolean) => string[],
): () => string {
  return () => {
    const hint = state.utils.matcherHint(matcher, 'workup', expectedArg, { isNot: state.isNot });
    return `${hint}\n\n${lines(Boolean(state.isNot)).join('\n')}`;
  };
}

/**
 * Tells the reporters what this assertion measured, on the running test's `task.meta.needlework`, and returns
 * whether the matcher passed before `.not`. The check was decided by the criterion (src/checks); a hand-written
 * assertion's spec is `matcher`. A test that asserts several times carries its first failed check if that failure
 * failed the test (with `expect.soft` a test goes on after a failure, and the reports must name the failure it failed
 * on), else its last one. The recorded verdict is the assertion's outcome (so `.not` is honoured): a metric that does
 * not apply fails its assertion, and the summary says why, so the reporters agree with the test.
 */
export function record(state: MatcherState, workup: Workup, measured: Measured): boolean {
  const met = measured.verdict === 'pass';
  const test = TestRunner.getCurrentTest();
  if (!test) return met;
  const check = toCheck(MATCHER, workup, {
    ...measured,
    // chai leaves its negate flag undefined, not false, on an assertion without .not.
    verdict: met !== Boolean(state.isNot) ? 'pass' : 'fail',
  });
  // Only a failure the test counted (expect.soft marks the test failed and goes on) is kept; one the test caught
  // and moved past is not its outcome.
  const failedAlready = test.meta.needlework?.verdict === 'fail' && test.result?.state === 'fail';
  if (!failedAlready) {
    test.meta.needlework = JSON.parse(JSON.stringify(check)) as Check;
  }
  return met;
}
