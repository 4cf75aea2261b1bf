// A tool-calls check's evidence as the workup view reads it: whole for a failure, slim for a pass, read back whole.

import type { ToolCall, TrajectoryAlignment } from '../metrics/trajectory/match.js';
import { type Trajectory, toolCalls } from '../model/trajectory.js';
import { stringifyJson } from '../parse/json.js';

/** The tool calls of a trajectory as the match compares them (and as the evidence records them). */
export function callsOf(trajectory: Trajectory): ToolCall[] {
  return toolCalls(trajectory).map((s) => ({ tool: s.tool_name, args: s.tool_input ?? {} }));
}

/** A call as the workup view shows it, tool and arguments' JSON: two calls with the same text show alike. */
function callText(call: ToolCall): string {
  return stringifyJson([call.tool ?? null, call.args ?? {}]) ?? '';
}

/**
 * Eight hex digits naming the run's tool calls (FNV-1a, 32 bits, over the calls' texts one a line): what a reader
 * compares to notice that the workup's calls changed since the check (a change goes unnoticed once in 2^32).
 */
function digestOf(texts: readonly string[]): string {
  let h = 0x811c9dc5;
  const text = texts.join('\n');
  for (let k = 0; k < text.length; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The run's tool calls' digest, as a passing check records it (`digest`). */
export function callsDigest(calls: readonly ToolCall[]): string {
  return digestOf(calls.map(callText));
}

/**
 * The evidence of a PASSING tool-calls check: only what a reader cannot take from the run's own calls (a failure
 * keeps the whole form, which its diff reads). Beside `mode`, `args` (and `reason`, should a pass have one):
 * - `calls`: how many tool calls the run made: the slim form's mark, and what the reader checks the workup against;
 * - `missing` and `extra` (the calls the match lists) only when not empty;
 * - `reference` (the expected calls) unless each of them was paired with a run call that shows alike (same tool,
 *   same arguments' JSON; none missing), in which case `digest` (`callsDigest` of the run's calls) stands for it and
 *   the reader takes the run's calls at the pairs;
 * - `alignment` with `pairs` unless they pair each run call with the expected call of its position (a strict pass
 *   over every call), `missing` and `extra` only when not empty, and no `alignment` when all three are left out.
 * On the bench's workload (8 calls a check) a passing check's evidence goes from 484 to 62 bytes (strict) and from 487
 * to 65 (unordered, its pairs in order; 137 with two calls swapped).
 */
export function passingEvidence(
  fields: {
    mode: string;
    args: unknown;
    missing: ToolCall[];
    extra: ToolCall[];
    reason?: string | undefined;
  },
  run: readonly ToolCall[],
  reference: readonly ToolCall[],
  alignment: TrajectoryAlignment,
): Record<string, unknown> {
  const out: Record<string, unknown> = { mode: fields.mode, args: fields.args, calls: run.length };
  if (fields.missing.length > 0) out['missing'] = fields.missing;
  if (fields.extra.length > 0) out['extra'] = fields.extra;
  if (fields.reason) out['reason'] = fields.reason;
  const { pairs } = alignment;
  const texts = run.map(callText);
  const derivable =
    alignment.missing.length === 0 &&
    pairs.length === reference.length &&
    pairs.every(([i, j]) => texts[i] === callText(reference[j]!));
  if (derivable) out['digest'] = digestOf(texts);
  else out['reference'] = reference;
  const kept: Record<string, unknown> = {};
  const identity = pairs.length === run.length && pairs.every(([i, j], k) => i === k && j === k);
  if (!identity) kept['pairs'] = pairs;
  if (alignment.missing.length > 0) kept['missing'] = alignment.missing;
  if (alignment.extra.length > 0) kept['extra'] = alignment.extra;
  if (Object.keys(kept).length > 0) out['alignment'] = kept;
  return out;
}

/** The expected calls and their pairing as the whole form holds them; `alignment` undefined: they do not fit. */
export interface MatchEvidence {
  reference: unknown[];
  alignment?: Record<string, unknown>;
}

/**
 * A tool-calls check's expected calls and pairing, whole, from its evidence in either form (undefined when it
 * recorded none). The whole form (every failure; every check before the slim form) is returned as it is. A slim one
 * (`calls`, see `passingEvidence`) is completed from the run's calls as the workup holds them now (`run`, asked only
 * then); where those are not the ones the check saw (another count, another digest) the alignment is left out, and
 * the expected calls too when they were the run's.
 */
export function wholeEvidence(
  evidence: Record<string, unknown> | undefined,
  run: () => readonly ToolCall[],
): MatchEvidence | undefined {
  const count = evidence?.['calls'];
  const reference = evidence?.['reference'];
  const alignment = evidence?.['alignment'];
  // The slim form's mark: a count of calls beside the match mode (a tool rule's `calls` is a list of names).
  if (typeof count !== 'number' || typeof evidence?.['mode'] !== 'string') {
    if (!Array.isArray(reference) || !alignment || typeof alignment !== 'object') return undefined;
    return { reference, alignment: alignment as Record<string, unknown> };
  }
  const calls = run();
  const kept = Array.isArray(reference) ? reference : undefined;
  if (calls.length !== count) return { reference: kept ?? [] };
  const given = (alignment && typeof alignment === 'object' ? alignment : {}) as Record<string, unknown>;
  const whole = {
    pairs: given['pairs'] ?? calls.map((_, i) => [i, i]),
    missing: given['missing'] ?? [],
    extra: given['extra'] ?? [],
  };
  if (kept) return { reference: kept, alignment: whole };
  if (evidence?.['digest'] !== callsDigest(calls)) return { reference: [] };
  const pairs = whole.pairs;
  if (!Array.isArray(pairs)) return { reference: [] };
  const expected: ToolCall[] = [];
  for (const pair of pairs) {
    const [i, j] = Array.isArray(pair) ? pair : [];
    if (!isIndex(i, calls.length) || !isIndex(j, pairs.length) || expected[j] !== undefined)
      return { reference: [] };
    expected[j] = calls[i]!;
  }
  return { reference: expected, alignment: whole };
}

function isIndex(n: unknown, below: number): n is number {
  return Number.isInteger(n) && (n as number) >= 0 && (n as number) < below;
}
