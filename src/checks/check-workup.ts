import type { Check } from '../model/check.js';
import type { Spec } from '../model/spec.js';
import type { Workup } from '../model/workup.js';
import { appliesTo } from '../specs/applies.js';
import { caseCriteria, casesOf } from './cases.js';
import { type CheckOptions, criteriaOf } from './spec.js';

export interface CheckWorkupOptions extends CheckOptions {
  /** Check only the specs whose `workups` patterns take the workup. @default true */
  matchWorkupPatterns?: boolean;
}

/**
 * Every check of a workup against specs: each spec whose `workups` patterns take the workup (every spec with
 * `matchWorkupPatterns: false`) and each case of a task-cases spec the workup is a run of, each of its criteria,
 * decided once, in spec then criterion order. This is the one place a verdict is decided: the YAML-spec tests, the
 * matchers, `needlework score` and the reporters all show these checks.
 */
export async function checkWorkup(
  workup: Workup,
  specs: readonly Spec[],
  options: CheckWorkupOptions = {},
): Promise<Check[]> {
  const checks: Check[] = [];
  for (const spec of specs) {
    if (spec.kind === 'cases') {
      for (const c of casesOf(spec, workup))
        for (const criterion of caseCriteria(spec, c, options)) checks.push(await criterion.check(workup));
      continue;
    }
    if (options.matchWorkupPatterns !== false && !appliesTo(spec.workups, workup.id)) continue;
    for (const criterion of criteriaOf(spec, options)) checks.push(await criterion.check(workup));
  }
  return checks;
}
