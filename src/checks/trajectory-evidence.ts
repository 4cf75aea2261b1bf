// A tool-calls check's evidence as the workup view reads it: whole for a failure, slim for a pass, read back whole.

import type { ToolCall, TrajectoryAlignment } from '../metrics/trajectory/match.js';
import { type Trajectory, toolCalls } from '../model/trajectory.js';

/** The tool calls of a trajectory as the match compares them (and as the evidence records them). */
export function callsOf(trajectory: Trajectory): ToolCall[] {
  return toolCalls(trajectory).map((s) => ({ tool: s.tool_name, args: s.tool_input ?? {} }));
}

/**
 * Whether two values show alike in the workup view (the same JSON text): the same plain values (strings, finite
 * numbers, booleans, null, arrays, objects with the same keys in the same order), walked rather than written out.
 * Anything else (a bigint, undefined, a class instance) is taken as not alike, which keeps the expected calls.
 */
function alike(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null)
    return a === b && (a === null || typeof a === 'string' || typeof a === 'boolean' || Number.isFinite(a));
  if (typeof b !== 'object' || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, k) => alike(x, b[k]));
  if (Array.isArray(b) || Object.getPrototypeOf(a) !== Object.prototype) return false;
  if (Object.getPrototypeOf(b) !== Object.prototype) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let k = 0; k < ka.length; k++)
    if (
      ka[k] !== kb[k] ||
      !alike((a as Record<string, unknown>)[ka[k]!], (b as Record<string, unknown>)[kb[k]!])
    )
      return false;
  return true;
}

/** FNV-1a (32 bits) of `h` followed by a tag and a text's UTF-16 code units. */
function mix(h: number, tag: number, text: string): number {
  h = Math.imul(h ^ tag, 0x01000193);
  for (let k = 0; k < text.length; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
  return h;
}

/** `mix` over a value, walked: each string, number, key and bracket tagged, so no two shapes hash as one text. */
function hashOf(h: number, value: unknown): number {
  if (value === null || typeof value !== 'object') return mix(h, (typeof value).charCodeAt(0), String(value));
  if (Array.isArray(value)) {
    h = mix(h, 0x5b, '');
    for (const item of value) h = hashOf(h, item);
    return mix(h, 0x5d, '');
  }
  h = mix(h, 0x7b, '');
  for (const key of Object.keys(value))
    h = hashOf(mix(h, 0x3a, key), (value as Record<string, unknown>)[key]);
  return mix(h, 0x7d, '');
}

/**
 * Eight hex digits naming the run's tool calls (FNV-1a, 32 bits, over each call's tool and arguments as `hashOf`
 * walks them): what a reader compares to notice that the workup's calls changed since the check (a change goes
 * unnoticed once in 2^32). Walked, as `alike` compares, rather than written as JSON text: on the bench's 20,000
 * passing matches of 8 calls the slim form adds 30-40 ms to the matches' 75-90 ms, the text 90-100 ms.
 */
export function callsDigest(calls: readonly ToolCall[]): string {
  let h = 0x811c9dc5;
  for (const call of calls) h = hashOf(mix(h, 0x28, call.tool ?? '\u0000'), call.args);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/**
 * The evidence of a PASSING tool-calls check: only what a reader cannot take from the run's own calls (a failure
 * keeps the whole form, which its diff reads). Beside `mode`, `args` (and `reason`, should a pass have one):
 * - `calls`: how many tool calls the run made: the slim form's mark, and what the reader checks the workup against;
 * - `missing` and `extra` (the calls the match lists) only when not empty;
 * - `reference` (the expected calls) unless each of them was paired with a run call that shows alike (same tool,
 *   arguments `alike`; none missing), in which case `digest` (`callsDigest` of the run's calls) stands for it and
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
  const identity = pairs.length === run.length && pairs.every(([i, j], k) => i === k && j === k);
  const derivable =
    alignment.missing.length === 0 &&
    pairs.length === reference.length &&
    pairs.every(([i, j]) => run[i]!.tool === reference[j]!.tool && alike(run[i]!.args, reference[j]!.args));
  if (derivable) out['digest'] = callsDigest(run);
  else out['reference'] = reference;
  const kept: Record<string, unknown> = {};
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
