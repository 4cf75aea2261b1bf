import type { Workup } from '../../model/workup.js';
import { type MatcherResult, type MatcherState, requireNumber, requireWorkup } from './helpers.js';
import { requireTrialCriterion } from './trial-check.js';

/** The trials of one task as the trial matchers count them: decided trials, passes and not-applicable ones. */
export interface TrialCounts {
  /** The task's name (`meta.task`), or `undefined` when the workups name none. */
  task: string | undefined;
  /** Trials decided (pass or fail). */
  n: number;
  /** Trials that passed. */
  c: number;
  /** Trials whose criterion did not apply, left out of n. */
  notApplicable: number;
}

/**
 * Counts the passes of a criterion over the trials of one task. The receiver must be a non-empty array of workups that
 * name one task (or none); anything else is misuse.
 */
export function countTrials(
  matcher: string,
  received: unknown,
  criterion: unknown,
): TrialCounts & { name: string } {
  if (!Array.isArray(received) || received.length === 0)
    throw new TypeError(
      `${matcher}: expected a non-empty array of workups (the trials of one task) as the received value`,
    );
  const workups: Workup[] = received.map((w) => requireWorkup(matcher, w));
  const tasks = [...new Set(workups.map((w) => w.meta.task).filter((t) => t !== undefined))];
  if (tasks.length > 1)
    throw new TypeError(
      `${matcher}: expected the trials of one task, got workups of ${tasks.length} tasks: ${tasks.join(', ')}`,
    );
  const { name, check } = requireTrialCriterion(matcher, criterion);
  let n = 0;
  let c = 0;
  let notApplicable = 0;
  for (const workup of workups) {
    const result = check(workup);
    const verdict = typeof result === 'boolean' ? (result ? 'pass' : 'fail') : result.verdict;
    if (verdict === 'not-applicable') notApplicable++;
    else {
      n++;
      if (verdict === 'pass') c++;
    }
  }
  return { name, task: tasks[0] as string | undefined, n, c, notApplicable };
}

/**
 * The shared body of `toPassAtK` and `toPassHatK`: the estimate from n and c must be at least `min`. An estimate that
 * does not apply (no decided trial, or k above n) fails, saying why.
 */
export function trialMatcher(
  state: MatcherState,
  matcher: 'toPassAtK' | 'toPassHatK',
  label: string,
  estimate: (n: number, c: number, k: number) => number | null,
  received: unknown,
  criterion: unknown,
  k: unknown,
  min: unknown,
): MatcherResult {
  const counts = countTrials(matcher, received, criterion);
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 1)
    throw new TypeError(`${matcher}: expected k to be a positive integer, got ${JSON.stringify(k)}`);
  const floor = requireNumber(matcher, 'min', min);
  const { n, c, notApplicable, name } = counts;
  const value = n >= k ? estimate(n, c, k) : null;
  const pass = value !== null && value >= floor;
  const what = `${label.replace('k', String(k))} of ${name} over ${n} trial${n === 1 ? '' : 's'}${counts.task ? ` of task ${counts.task}` : ''}`;
  const skipped = notApplicable ? ` (${notApplicable} not applicable, left out)` : '';
  const shown = value === null ? 'n/a' : Number(value.toFixed(4)).toString();
  return {
    pass,
    message: () => {
      const hint = state.utils.matcherHint(`.${matcher}`, 'workups', 'criterion, k, min', {
        isNot: state.isNot,
      });
      const line =
        value === null
          ? `Expected ${what} to be at least ${floor}, but it does not apply: k = ${k} is more than the n = ${n} decided trials${skipped}.`
          : state.isNot
            ? `Expected ${what} to be below ${floor}, but it is ${shown} (n = ${n}, c = ${c})${skipped}.`
            : `Expected ${what} to be at least ${floor}, but it is ${shown} (n = ${n}, c = ${c})${skipped}.`;
      return `${hint}\n\n${line}`;
    },
    expected: floor,
    actual: value,
  };
}
