import type { Spec, TaskCase } from '../model/spec.js';
import type { Workup } from '../model/workup.js';
import { appliesTo } from '../specs/applies.js';
import { caseCriteria, casesInFileOrder, runsOfCases } from './cases.js';
import { type CheckOptions, type Criterion, criteriaOf } from './spec.js';

/** The criteria of one spec, or of one case of a task-cases spec, and the workups they are decided on. */
export interface PlanItem {
  spec: Spec;
  /** The case, for a task-cases spec: each case is an item of its own. */
  case?: TaskCase;
  /** In report order; none for a case no workup is a run of. */
  criteria: Criterion[];
  /** The workups the criteria apply to, in the order they were given. */
  workups: Workup[];
}

export interface PlanOptions extends CheckOptions {
  /** Apply a needle or rubric only to the workups its `workups` patterns take (`false`: to every one). @default true */
  matchWorkupPatterns?: boolean;
}

/**
 * Which criteria apply to which workups: a needle or rubric to the workups its `workups` patterns take, each case of
 * a task-cases spec to the workups that are its runs (`casesOf`), in spec then case order. This is the one plan the
 * YAML-spec tests, `checkWorkup` and `needlework score` all read. It takes one pass over the workups per spec, each
 * workup finding its cases through the spec's index, so 10,000 cases meet 10,000 runs in linear time; a case's
 * criteria are built once, for all of its runs.
 *
 * @param everyCase whether a case no workup is a run of is an item too, with no criteria (the YAML suite says so
 *   of it). `checkWorkup` plans one workup at a time: with an item for each of 10,000 cases every time, checking
 *   10,000 runs one by one was quadratic.
 */
export function planChecks(
  specs: readonly Spec[],
  workups: readonly Workup[],
  options: PlanOptions = {},
  everyCase = true,
): PlanItem[] {
  const plan: PlanItem[] = [];
  for (const spec of specs) {
    if (spec.kind !== 'cases') {
      const taken =
        options.matchWorkupPatterns === false
          ? [...workups]
          : workups.filter((w) => appliesTo(spec.workups, w.id));
      plan.push({ spec, criteria: taken.length > 0 ? criteriaOf(spec, options) : [], workups: taken });
      continue;
    }
    const runs = runsOfCases(spec, workups);
    for (const c of everyCase ? spec.cases : casesInFileOrder(spec, runs.keys())) {
      const taken = runs.get(c) ?? [];
      plan.push({
        spec,
        case: c,
        criteria: taken.length > 0 ? caseCriteria(spec, c, options) : [],
        workups: taken,
      });
    }
  }
  return plan;
}
