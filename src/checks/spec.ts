import type { Check, SpecPlace } from '../model/check.js';
import type { EntailmentVerifier } from '../model/entailment.js';
import type { NeedleSpec, RubricSpec } from '../model/spec.js';
import type { Workup } from '../model/workup.js';
import { citationPrecision, citationRecall, citationsResolve } from './citations.js';
import { type Measured, type SpecRef, toCheck } from './measure.js';
import {
  bridgeCitations,
  grounded,
  pivotBurden,
  reconciled,
  supportingFacts,
  surfaced,
  traversed,
} from './needle.js';
import { type RubricCheckOptions, rubricCriterion } from './rubric.js';

/** What the criteria of a spec need beyond the workup. */
export interface CheckOptions {
  /** Measures citation precision (ALCE, with an NLI model); without one it is not measured, and says so. */
  verifier?: EntailmentVerifier;
  /** An entailment probability at or above it supports a claim. @default 0.5 */
  entailmentThreshold?: number;
  /** Scores rubric criteria; without one they are not measured, and say so. */
  judge?: RubricCheckOptions;
}

/**
 * One criterion of a spec, ready to be decided on any workup: its test name and the function that decides it. The
 * YAML-spec tests declare one test per criterion and decide it inside the test; `checkWorkup` decides them all.
 */
export interface Criterion {
  /** The test's name: the criterion id in words (`citation recall`). */
  name: string;
  /** The criterion id the check carries (`citation-recall`). */
  id: string;
  /** Where the criterion is written in its spec file, when it comes from one. */
  place?: SpecPlace;
  check(workup: Workup): Check | Promise<Check>;
}

function refOf(spec: NeedleSpec | RubricSpec): SpecRef {
  return { id: spec.id, kind: spec.kind, ...(spec.file !== undefined && { file: spec.file }) };
}

/**
 * A criterion of `ref`'s spec: its id, its test name, and the decision it makes, as a check carrying that id (a kind
 * may reuse a shared decision under its own id: a case's `tool-calls` is `trajectory-match`).
 */
export function criterionOf(
  ref: SpecRef,
  id: string,
  name: string,
  decide: (w: Workup) => Measured | Promise<Measured>,
  place?: SpecPlace,
): Criterion {
  return {
    name,
    id,
    ...(place && { place }),
    check: (workup) => {
      const measured = decide(workup);
      return measured instanceof Promise
        ? measured.then((m) => toCheck(ref, workup, { ...m, criterion: id }, place))
        : toCheck(ref, workup, { ...measured, criterion: id }, place);
    },
  };
}

function criterion(
  spec: NeedleSpec | RubricSpec,
  id: string,
  decide: (w: Workup) => Measured | Promise<Measured>,
): Criterion {
  return criterionOf(refOf(spec), id, id.replace(/-/g, ' '), decide, spec.places?.[id]);
}

/**
 * The criteria a needle gives every workup, in this order: surfaced, traversed, grounded, bridge citations,
 * citations resolve, citation recall, citation precision (not measured without a verifier), and, when the needle
 * asks for them, supporting facts (`required_cites`), pivot burden (`thresholds.pivot_burden`) and reconciled
 * (`stores`).
 */
function needleCriteria(needle: NeedleSpec, options: CheckOptions): Criterion[] {
  const t = needle.thresholds;
  const list = [
    criterion(needle, 'surfaced', (w) => surfaced(w, needle)),
    criterion(needle, 'traversed', (w) => traversed(w, needle.required_path)),
    criterion(needle, 'grounded', (w) => grounded(w, needle)),
    criterion(needle, 'bridge-citations', (w) => bridgeCitations(w, needle)),
    criterion(needle, 'citations-resolve', (w) => citationsResolve(w)),
    criterion(needle, 'citation-recall', (w) => citationRecall(w, t.citation_recall ?? 1)),
    criterion(needle, 'citation-precision', async (w) => {
      const { measured } = await citationPrecision(w, options.verifier, t.citation_precision ?? 1, {
        ...(options.entailmentThreshold !== undefined && { threshold: options.entailmentThreshold }),
      });
      return measured;
    }),
  ];
  if (needle.required_cites.length > 0) {
    list.push(criterion(needle, 'supporting-facts', (w) => supportingFacts(w, needle)));
  }
  if (t.pivot_burden !== undefined)
    list.push(criterion(needle, 'pivot-burden', (w) => pivotBurden(w, needle)));
  if (needle.stores.length > 0) list.push(criterion(needle, 'reconciled', (w) => reconciled(w, needle)));
  return list;
}

/** A rubric's criteria, each scored by the judge on its own (not measured without a judge). */
function rubricCriteria(rubric: RubricSpec, options: CheckOptions): Criterion[] {
  return rubric.criteria.map((c) => ({
    name: c.id,
    id: c.id,
    check: async (workup) => (await rubricCriterion(workup, rubric, c.id, options.judge)).check,
  }));
}

/**
 * The criteria of a needle or rubric, in report order. A task-cases spec has criteria per case (`caseCriteria`):
 * which ones a workup gets depends on the cases it is a run of.
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { criteriaOf, loadSpec, loadWorkup, type NeedleSpec } from 'needlework';
 *
 * const needle = (await loadSpec('needles/compound-alpha.needle.yaml')) as NeedleSpec;
 * const workup = await loadWorkup('fixtures/workups/grounded');
 * // One test per criterion, as the YAML suites declare them:
 * for (const criterion of criteriaOf(needle)) {
 *   const check = await criterion.check(workup);
 *   console.log(criterion.name, check.verdict);
 * }
 * assert.ok(criteriaOf(needle).some((c) => c.id === 'grounded'));
 * ```
 */
export function criteriaOf(spec: NeedleSpec | RubricSpec, options: CheckOptions = {}): Criterion[] {
  return spec.kind === 'needle' ? needleCriteria(spec, options) : rubricCriteria(spec, options);
}
