import type { Check } from '../model/check.js';
import type { Spec } from '../model/spec.js';
import type { Workup } from '../model/workup.js';
import { type PlanOptions, planChecks } from './plan.js';

/** How `checkWorkup` decides; the same settings as the plan's. */
export type CheckWorkupOptions = PlanOptions;

/**
 * Every check of a workup against specs, as the plan (`planChecks`) applies them: each spec whose `workups` patterns
 * take the workup (every spec with `matchWorkupPatterns: false`) and each case of a task-cases spec the workup is a
 * run of, each of its criteria, decided once, in spec, case and criterion order. This is the one place a verdict is
 * decided: the YAML-spec tests, the matchers, `needlework score` and the reporters all show these checks.
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { checkWorkup, loadSpecs, loadWorkup } from 'needlework';
 *
 * const { needles } = await loadSpecs('needles');
 * const checks = await checkWorkup(await loadWorkup('fixtures/workups/grounded'), needles);
 * const grounded = checks.find((c) => c.spec === 'compound-alpha-bridge' && c.criterion === 'grounded');
 * assert.equal(grounded?.verdict, 'pass');
 * for (const check of checks) console.log(check.spec, check.criterion, check.verdict, check.summary);
 * ```
 */
export async function checkWorkup(
  workup: Workup,
  specs: readonly Spec[],
  options: CheckWorkupOptions = {},
): Promise<Check[]> {
  const checks: Check[] = [];
  for (const item of planChecks(specs, [workup], options, false))
    for (const criterion of item.criteria) checks.push(await criterion.check(workup));
  return checks;
}
