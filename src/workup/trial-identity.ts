import type { Check } from '../model/check.js';
import type { Workup } from '../model/workup.js';

/**
 * The `task` and `trial` fields a check carries for its workup: those of `meta.task` / `meta.trial`, or none for a
 * workup that names no task (it is then its own task of one trial, see `taskOf`).
 */
export function trialOf(workup: Workup): Pick<Check, 'task' | 'trial'> {
  const { task, trial } = workup.meta;
  return {
    ...(typeof task === 'string' && task !== '' && { task }),
    ...((typeof trial === 'number' || (typeof trial === 'string' && trial !== '')) && { trial }),
  };
}

/** The task a check counts toward: its `task`, or its workup's id when it names none (a task of one trial). */
export function taskOf(check: Pick<Check, 'task' | 'workup'>): string {
  return check.task ?? check.workup;
}
