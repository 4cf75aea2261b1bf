import type { CheckMeta } from '../model/check.js';
import { byteCompare } from '../model/order.js';

/**
 * One finished test as the reports see it: what Vitest knows about it (name, file, state, duration, errors) and,
 * for a needlework test, the `CheckMeta` it attached. It is plain data, so the report builders are pure functions of
 * a list of these (the benchmarks and unit tests feed them directly) and a merged sharded run gives the same list as
 * one run.
 */
export interface CheckRecord {
  /** The test's name (for a needlework test, the criterion). */
  name: string;
  /** The names of the enclosing `describe` blocks, outermost first. */
  suitePath: string[];
  /** `suitePath` and `name` joined with ` > `, as Vitest shows it. */
  fullName: string;
  /** The test file, relative to the project root, with `/` separators. */
  file: string;
  /** 1-based line of the test in its file, when Vitest recorded it. */
  line?: number;
  /** `pending` only for a run that was interrupted before the test finished. */
  state: 'passed' | 'failed' | 'skipped' | 'pending';
  /** Wall time of the test in milliseconds (0 when it did not run). */
  durationMs: number;
  /** The errors the test threw, colour codes stripped. */
  errors: CheckError[];
  /** The note given to `ctx.skip(note)`, or `todo` for a `.todo` test. */
  skipNote?: string;
  /** What a needlework test attached as `task.meta.needlework`; absent for a plain Vitest test. */
  meta?: CheckMeta;
}

export interface CheckError {
  /** The error's class name (`AssertionError`, `TypeError`). */
  name: string;
  message: string;
  /** The stack trace, when there was one. */
  stack?: string;
}

/**
 * Sorts checks into report order: by file, then by full name, with the original position breaking ties (two tests of
 * one file with the same name keep their source order, which is the same in every shard).
 */
export function sortChecks(checks: readonly CheckRecord[]): CheckRecord[] {
  return checks
    .map((check, index) => ({ check, index }))
    .sort(
      (a, b) =>
        byteCompare(a.check.file, b.check.file) ||
        byteCompare(a.check.fullName, b.check.fullName) ||
        a.index - b.index,
    )
    .map(({ check }) => check);
}

/** Whether a value is a `CheckMeta`, as far as a reporter needs to trust it (it crossed a process boundary). */
export function isCheckMeta(value: unknown): value is CheckMeta {
  if (typeof value !== 'object' || value === null) return false;
  const meta = value as Record<string, unknown>;
  return (
    typeof meta['spec'] === 'string' &&
    typeof meta['workup'] === 'string' &&
    typeof meta['criterion'] === 'string' &&
    typeof meta['metric'] === 'string' &&
    (meta['verdict'] === 'pass' || meta['verdict'] === 'fail' || meta['verdict'] === 'not-applicable')
  );
}
