import { resolve } from 'node:path';
import { expectationText } from '../checks/format.js';
import { terminalSafe } from '../io/terminal.js';
import type { Check } from '../model/check.js';

/**
 * A failed check as its test's error: the one-line statement every report shows, and a stack whose frames are the
 * check's places in its spec file: where its assertion is written, then, when that is elsewhere (a budget its case
 * takes from `defaults:`, a needle's criterion), where its case starts. Vitest prints each frame as `❯ file:line:col`,
 * and a code frame of the first (the spec file is a module it transformed), as it does for a hand-written test. A
 * check whose evidence holds `expected` and `actual` lists (a `tool_calls` check) gets Vitest's diff of them.
 */
export function checkFailure(check: Check): Error {
  // The statement quotes agent text (an answer, a claim): escaped so a terminal prints it and obeys none of it.
  const error = new Error(terminalSafe(expectationText(check)));
  error.name = 'AssertionError';
  error.stack = [`${error.name}: ${error.message}`, ...placeFrames(check)].join('\n');
  // Two lists to compare (a tool_calls check's expected calls and the run's): Vitest prints their diff.
  const { expected, actual } = check.evidence ?? {};
  if (Array.isArray(expected) && Array.isArray(actual))
    Object.assign(error, { expected: expected.map(String), actual: actual.map(String), showDiff: true });
  return error;
}

/** The stack frames of a check's places, `    at <what> (<file>:<line>:<column>)`; none without a spec file. */
export function placeFrames(check: Check): string[] {
  if (check.specFile === undefined) return [];
  const file = resolve(check.specFile);
  const frames: string[] = [];
  const at = (what: string, place: { line: number; column: number }) =>
    frames.push(`    at ${what} (${file}:${place.line}:${place.column})`);
  if (check.place) at(check.criterion, check.place);
  if (check.casePlace && check.case !== undefined && !same(check.place, check.casePlace))
    at(`case ${check.case}`, check.casePlace);
  return frames;
}

function same(a: { line: number; column: number } | undefined, b: { line: number; column: number }): boolean {
  return a !== undefined && a.line === b.line && a.column === b.column;
}
