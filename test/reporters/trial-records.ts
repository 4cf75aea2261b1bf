import type { CheckRecord } from '../../src/report/checks.js';
import { checkMeta } from './harness.js';

/**
 * The record of trial `trial` of `task` (none: a workup that names no task) on `criterion`, passing or failing, with
 * the verdict as its 0/1 value: what the trial reports (JUnit, HTML) are built from.
 */
export function trialRecord(
  task: string | undefined,
  trial: number,
  criterion: string,
  pass: boolean,
): CheckRecord {
  return {
    name: criterion,
    suitePath: [],
    fullName: criterion,
    file: 'f.ts',
    state: pass ? 'passed' : 'failed',
    durationMs: 1,
    errors: [],
    meta: checkMeta({
      spec: 'needle',
      workup: `${task ?? 'solo'}/${trial}`,
      ...(task !== undefined && { task, trial }),
      criterion,
      metric: criterion,
      verdict: pass ? 'pass' : 'fail',
      value: pass ? 1 : 0,
    }),
  };
}
