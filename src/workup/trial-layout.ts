import { basename, dirname } from 'node:path';
import type { Diagnostic } from '../errors/index.js';

/** A trial folder's name: a number (`1`, `02`) or `trial-<number>` / `trial<number>`. */
const TRIAL_FOLDER = /^(?:trial-?)?(\d+)$/i;

/** What the `<task>/<trial>/` folder layout says about a workup folder. */
export interface LayoutTrial {
  /** The workup id: `<task>/<trial folder>`, unique where the trial folder's name alone is not. */
  id: string;
  task: string;
  /** The trial number, 1-based as written. */
  trial: number;
}

/**
 * Reads the `<task>/<trial>/` layout: a workup folder named by a number (or `trial-<n>`) is trial n of the task its
 * parent folder names, so `runs/book-flight/3/` is trial 3 of `book-flight`, with id `book-flight/3`. Any other name
 * says nothing (`undefined`). `meta.json` `task` and `trial`, when given, take precedence over the layout.
 */
export function trialFromLayout(dir: string): LayoutTrial | undefined {
  const name = basename(dir);
  const match = TRIAL_FOLDER.exec(name);
  if (!match) return undefined;
  const task = basename(dirname(dir));
  if (task === '' || task === '.' || task === '..') return undefined;
  return { id: `${task}/${name}`, task, trial: Number(match[1]) };
}

/**
 * The problems with a `meta.json`'s `task` and `trial` (a non-empty string; a positive integer or a non-empty label),
 * each at its line and column, so a typo is reported instead of silently making a task of its own.
 */
export function trialFieldProblems(
  meta: Record<string, unknown>,
  file: string,
  locate: (path: readonly string[]) => { line: number; column: number } | undefined,
): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const problem = (key: string, expected: string) =>
    problems.push({
      file,
      ...locate([key]),
      message: `${key} must be ${expected}, got ${JSON.stringify(meta[key])}`,
    });
  const { task, trial } = meta;
  if (task !== undefined && !(typeof task === 'string' && task !== '')) problem('task', 'a non-empty string');
  if (
    trial !== undefined &&
    !(
      (typeof trial === 'number' && Number.isInteger(trial) && trial >= 1) ||
      (typeof trial === 'string' && trial !== '')
    )
  )
    problem('trial', 'a positive integer or a non-empty label');
  return problems;
}
