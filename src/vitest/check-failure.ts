import { relative, resolve } from 'node:path';
import type { ParsedStack } from 'vitest';
import { expectationText } from '../checks/format.js';
import { describeCall } from '../checks/trajectory.js';
import { terminalSafe } from '../io/terminal.js';
import type { Check } from '../model/check.js';

/**
 * The size of a spec file past which its failed checks print their places without a code frame. Vitest draws a code
 * frame by reading and splitting the whole file, again for every failed test: a 4.5 MB spec of 10,000 cases with 4,000
 * failures took a minute of the run's end for it.
 */
export const CODE_FRAME_MAX_BYTES = 100_000;

/**
 * A failed check as its test's error: the one-line statement every report shows, and a stack whose frames are the
 * check's places in its spec file: where its assertion is written, then, when that is elsewhere (a budget its case
 * takes from `defaults:`, a needle's criterion), where its case starts. Vitest prints each frame as `❯ file:line:col`,
 * and a code frame of the first (the spec file is a module it transformed), as it does for a hand-written test. Given
 * `root` (Vitest's root, for a spec file over `CODE_FRAME_MAX_BYTES`), the error carries those lines as its own
 * `frame`, paths relative to the root, which Vitest prints in place of the stack and its code frame. A check whose
 * evidence holds the run's calls (`actual`) and the expected ones (`reference`, or `expected` as text) gets Vitest's
 * diff of them, each side a text of a call a line.
 */
export function checkFailure(check: Check, root?: string): Error {
  // The statement quotes agent text (an answer, a claim): escaped so a terminal prints it and obeys none of it.
  const error = new Error(terminalSafe(expectationText(check)));
  error.name = 'AssertionError';
  const places = placeStacks(check);
  error.stack = [`${error.name}: ${error.message}`, ...places.map(frameLine)].join('\n');
  // The frames as Vitest would parse them from that stack, given with it: Vitest takes an error's `stacks` as they are.
  // Left to parse them, its main process looks for a source map of each frame's file, reading the whole spec file for
  // every failed test (at 10,000 cases, 4,000 reads of a 4.5 MB file).
  Object.assign(error, { stacks: places });
  if (root !== undefined && places.length > 0) Object.assign(error, { frame: placeLines(places, root) });
  // Two lists to compare (a tool_calls check's expected calls and the run's): Vitest prints their diff.
  const expected = expectedTexts(check.evidence);
  const actual = check.evidence?.['actual'];
  if (expected && Array.isArray(actual))
    Object.assign(error, {
      expected: callLines(expected),
      actual: callLines(actual.map(String)),
      showDiff: true,
    });
  return error;
}

/**
 * A list of calls as one text, a call a line, for Vitest's diff (of a failed check, and of `toMatchTrajectory`). Vitest diffs two texts line by line (marking what
 * changed within a line), where two lists it first pretty-prints, twice each, then diffs: on the 4,000 failures of
 * 10,000 cases of the bench workload (3,000 of them tool_calls checks) its `processError` took 200-227 ms with lists,
 * 71-84 ms with texts (bench/failure-diff.bench.mjs). Each call is kept to its line and made terminal-safe: a tool's
 * name is the agent's text as it is, and JSON leaves C1 controls and bidirectional overrides in the arguments.
 */
export function callLines(calls: readonly string[]): string {
  return calls.map((call) => terminalSafe(call).replaceAll('\n', '\\n')).join('\n');
}

/**
 * The expected side of a diff, as text: the evidence's `expected` list, or each of its `reference` calls as the run's
 * are written (`describeCall`): a tool_calls check keeps its expected calls once, as calls.
 */
function expectedTexts(evidence: Check['evidence']): string[] | undefined {
  const { expected, reference } = evidence ?? {};
  if (Array.isArray(expected)) return expected.map(String);
  if (!Array.isArray(reference)) return undefined;
  return reference.map((call: { tool?: string | null; args?: Record<string, unknown> }) =>
    describeCall({ tool: call?.tool ?? null, args: call?.args ?? {} }),
  );
}

/** The stack frames of a check's places, `    at <what> (<file>:<line>:<column>)`; none without a spec file. */
export function placeFrames(check: Check): string[] {
  return placeStacks(check).map(frameLine);
}

/** A check's places as parsed stack frames: where its assertion is written, then where its case starts. */
function placeStacks(check: Check): ParsedStack[] {
  if (check.specFile === undefined) return [];
  const file = resolve(check.specFile);
  const frames: ParsedStack[] = [];
  const at = (method: string, place: { line: number; column: number }) =>
    frames.push({ method, file, line: place.line, column: place.column });
  if (check.place) at(check.criterion, check.place);
  if (check.casePlace && check.case !== undefined && !same(check.place, check.casePlace))
    at(`case ${check.case}`, check.casePlace);
  return frames;
}

/**
 * The places as Vitest prints a stack (` ❯ <what> <path>:<line>:<column>`, the path from the root, then an empty line),
 * for an error's `frame`, which Vitest prints as it is.
 */
function placeLines(places: readonly ParsedStack[], root: string): string {
  const lines = places.map(
    (p) =>
      ` ❯ ${[p.method, `${relative(root, p.file).replaceAll('\\', '/')}:${p.line}:${p.column}`].filter(Boolean).join(' ')}`,
  );
  return `${lines.join('\n')}\n`;
}

function frameLine(frame: ParsedStack): string {
  return `    at ${frame.method} (${frame.file}:${frame.line}:${frame.column})`;
}

function same(a: { line: number; column: number } | undefined, b: { line: number; column: number }): boolean {
  return a !== undefined && a.line === b.line && a.column === b.column;
}
