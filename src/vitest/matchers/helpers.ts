import type { MatcherState } from 'vitest';
import { TestRunner } from 'vitest';
import { scoreNeedle } from '../../metrics/needle/score.js';
import type { NeedleScore } from '../../metrics/needle/types.js';
import type { NeedleSpec, RequiredPath } from '../../model/spec.js';
import type { Workup } from '../../model/workup.js';
import { trialOf } from '../../trials/identity.js';
import type { CheckMeta } from '../meta.js';

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

/** `0.667`: scores shown to three places, as the reporters show them. */
export function fmt(value: number | null | undefined): string {
  if (value === null || value === undefined) return 'n/a';
  return Number.isInteger(value) ? String(value) : value.toFixed(3);
}

export type Check = Omit<CheckMeta, 'schema' | 'spec' | 'specKind' | 'workup' | 'verdict'> & {
  /**
   * Whether the matcher passed, before `.not`. A metric that does not apply (value null) fails its assertion, and the
   * verdict says so, with the reason in the summary: the reporters then agree with the test's outcome.
   */
  met: boolean;
};

/**
 * Tells the reporters what this assertion measured, on the running test's `task.meta.needlework`. A YAML needle test
 * sets the spec fields beforehand; a hand-written test is recorded as `matcher`. The verdict is the assertion's
 * outcome (so `.not` is honoured); `not-applicable` is left to the tests the YAML suite skips.
 */
export function record(state: MatcherState, workup: Workup, check: Check): void {
  const test = TestRunner.getCurrentTest();
  if (!test) return;
  const { met, ...rest } = check;
  const base = test.meta.needlework;
  const meta: CheckMeta = {
    schema: 1,
    spec: base?.spec ?? 'matcher',
    specKind: base?.specKind ?? 'matcher',
    ...(base?.specFile !== undefined && { specFile: base.specFile }),
    workup: workup.id,
    ...(workup.meta.path !== undefined && { workupPath: workup.meta.path }),
    ...trialOf(workup),
    ...rest,
    criterion: base?.criterion ?? rest.criterion,
    // chai leaves its negate flag undefined, not false, on an assertion without .not.
    verdict: met !== Boolean(state.isNot) ? 'pass' : 'fail',
  };
  test.meta.needlework = JSON.parse(JSON.stringify(meta)) as CheckMeta;
}

const scores = new WeakMap<Workup, WeakMap<NeedleSpec, NeedleScore>>();

/** `scoreNeedle`, computed once per workup and needle object: the YAML tests ask several matchers of one pair. */
export function needleScore(workup: Workup, needle: NeedleSpec): NeedleScore {
  let byNeedle = scores.get(workup);
  if (!byNeedle) {
    byNeedle = new WeakMap();
    scores.set(workup, byNeedle);
  }
  let score = byNeedle.get(needle);
  if (!score) {
    score = scoreNeedle(workup, needle);
    byNeedle.set(needle, score);
  }
  return score;
}
