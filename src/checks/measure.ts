import type { Check, SpecPlace } from '../model/check.js';
import type { Workup } from '../model/workup.js';
import { trialOf } from '../workup/trial-identity.js';

/** What a criterion decides about a workup: a check without the fields that say whose it is. */
export type Measured = Omit<
  Check,
  | 'schema'
  | 'spec'
  | 'specKind'
  | 'specFile'
  | 'place'
  | 'case'
  | 'casePlace'
  | 'workup'
  | 'workupPath'
  | 'task'
  | 'trial'
>;

/**
 * One assertion of a task case, ready to decide: its criterion id, the key it is written under in its kind's mapping
 * (`must_call` of `tools:`, `contains` of `answer:`), its test name, and the decision.
 */
export interface CaseRule {
  id: string;
  key: string;
  name: string;
  check: (workup: Workup) => Measured;
}

/** The spec a check belongs to: a needle, a rubric, or `matcher` for a hand-written assertion. */
export interface SpecRef {
  id: string;
  kind: Check['specKind'];
  file?: string;
  /** The task case, for a check of a `*.cases.yaml` spec. */
  case?: string;
  /** Where the case's `id:` is written in `file`. */
  casePlace?: SpecPlace;
}

/** The spec of a hand-written `expect(workup).toX(...)`. */
export const MATCHER: SpecRef = { id: 'matcher', kind: 'matcher' };

/**
 * The verdict of a measured value: a value that could not be measured (`null`) is not applicable, a boolean passes
 * when true, a number passes when it meets its pass mark (or has none).
 */
export function verdictOf(
  value: number | boolean | null,
  threshold?: number,
  comparator: NonNullable<Check['comparator']> = '>=',
): Check['verdict'] {
  if (value === null) return 'not-applicable';
  if (typeof value === 'boolean') return value ? 'pass' : 'fail';
  if (threshold === undefined) return 'pass';
  const met =
    comparator === '>=' ? value >= threshold : comparator === '<=' ? value <= threshold : value === threshold;
  return met ? 'pass' : 'fail';
}

/**
 * What a criterion reads that a run produces (its trajectory, its final answer, its note) and that may be missing,
 * or undefined when it is there: `(workup) => 'the run recorded no final answer'`.
 */
export type RunProduct = (workup: Workup) => string | undefined;

/**
 * The check of a criterion whose input the run should have produced and did not: a fail, naming what is missing,
 * never a skip (a crashed run with no messages must not pass CI). Not applicable is kept for what may be absent: a
 * reference the spec does not give, a figure the format does not record (tokens, cost), a model or judge not
 * configured. `base` keeps the criterion's metric and pass mark.
 */
export function missingInput(
  base: Omit<Measured, 'value' | 'verdict' | 'summary'>,
  missing: string,
): Measured {
  return { ...base, value: null, verdict: 'fail', summary: missing, evidence: { missing } };
}

/** The run's trajectory: the record of its steps, tool calls and answer. */
export const TRAJECTORY: RunProduct = (w) =>
  w.trajectory ? undefined : 'the workup has no trajectory: the run recorded no steps';

/** The run's note (`note.md`), whose claims cite its ledger. */
export const NOTE: RunProduct = (w) => (w.note ? undefined : 'the workup has no note: the run wrote none');

/**
 * A criterion shared with needles and matchers (where a missing input is not applicable), as a task case decides it:
 * a run of the case that lacks `product` fails, naming it.
 */
export function requiring(
  product: RunProduct,
  decide: (w: Workup) => Measured | Promise<Measured>,
): (w: Workup) => Measured | Promise<Measured> {
  return (workup) => {
    const missing = product(workup);
    const measured = decide(workup);
    if (missing === undefined) return measured;
    const fail = ({ value: _v, verdict: _d, summary: _s, evidence: _e, scores: _x, ...base }: Measured) =>
      missingInput(base, missing);
    return measured instanceof Promise ? measured.then(fail) : fail(measured);
  };
}

/** A measured criterion as the check of one spec on one workup, written at `place` in the spec's file. */
export function toCheck(spec: SpecRef, workup: Workup, measured: Measured, place?: SpecPlace): Check {
  return {
    schema: 1,
    spec: spec.id,
    specKind: spec.kind,
    ...(spec.file !== undefined && { specFile: spec.file }),
    ...(place !== undefined && { place }),
    ...(spec.case !== undefined && { case: spec.case }),
    ...(spec.casePlace !== undefined && { casePlace: spec.casePlace }),
    workup: workup.id,
    ...(workup.meta.path !== undefined && { workupPath: workup.meta.path }),
    ...trialOf(workup),
    ...measured,
  };
}
