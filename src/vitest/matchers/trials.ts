import type { Workup } from '../../model/workup.js';
import { type TrialEstimator, type TrialVerdict, trialEstimateCheck } from '../../trials/estimate.js';
import { type MatcherResult, type MatcherState, record, requireNumber, requireWorkup } from './helpers.js';
import { requireTrialCriterion } from './trial-check.js';

/** The trials of one task, each with its criterion's verdict; misuse is a `TypeError` naming the matcher. */
function trialsOf(
  matcher: string,
  received: unknown,
  criterion: unknown,
): { name: string; task: string | undefined; trials: Array<{ workup: Workup; verdict: TrialVerdict }> } {
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
  const trials = workups.map((workup) => {
    const result = check(workup);
    const verdict: TrialVerdict =
      typeof result === 'boolean' ? { verdict: result ? 'pass' : 'fail' } : result;
    return { workup, verdict };
  });
  return { name, task: tasks[0] as string | undefined, trials };
}

/**
 * The shared body of `toPassAtK` and `toPassHatK`: the estimate from n and c must be at least `min`. An estimate that
 * does not apply (no decided trial, or k above n) fails, saying why.
 */
export function trialMatcher(
  state: MatcherState,
  matcher: 'toPassAtK' | 'toPassHatK',
  label: 'pass@k' | 'pass^k',
  estimate: TrialEstimator,
  received: unknown,
  criterion: unknown,
  k: unknown,
  min: unknown,
): MatcherResult {
  const { name, task, trials } = trialsOf(matcher, received, criterion);
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 1)
    throw new TypeError(`${matcher}: expected k to be a positive integer, got ${JSON.stringify(k)}`);
  const floor = requireNumber(matcher, 'min', min);
  const { measured, counts } = trialEstimateCheck(trials, name, label, estimate, k, floor);
  const { n, c, notApplicable } = counts;
  const value = measured.value as number | null;
  // The check is the task's, not one trial's: it names the task as its workup, and no trial.
  const first = trials[0]!.workup;
  const pass = record(state, { ...first, id: task ?? first.id, meta: task ? { task } : {} }, measured);
  const what = `${label.replace('k', String(k))} of ${name} over ${n} trial${n === 1 ? '' : 's'}${task ? ` of task ${task}` : ''}`;
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
