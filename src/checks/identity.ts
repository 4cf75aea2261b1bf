import type { Check } from '../model/check.js';

/** The fields that make a check one of its kind: spec x case x workup x criterion x trial. */
export type CheckIdentity = Pick<Check, 'spec' | 'case' | 'workup' | 'criterion' | 'trial'>;

/**
 * The identity of a check as one string: spec, case, workup, criterion and trial, joined by NUL (no id holds one).
 * Two checks with the same key are the same check of two runs; every output names a check by these parts, so no two
 * checks of one run share a JUnit test case, an HTML row or a store row.
 */
export function checkKey(check: CheckIdentity): string {
  return `${check.spec}\0${check.case ?? ''}\0${check.workup}\0${check.criterion}\0${check.trial ?? ''}`;
}
