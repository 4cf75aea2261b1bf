import { plural } from '../../io/plural.js';
import { type SourceToolCall, sourceToolCalls } from '../../model/deferred-steps.js';
import type { MessageOutline, Trajectory } from '../../model/index.js';
import { pythonEquals } from './python-equals.js';

/**
 * Trajectory match with the verdicts of LangChain agentevals' trajectory match evaluators
 * (`createTrajectoryMatchEvaluator({ trajectoryMatchMode, toolArgsMatchMode, toolArgsMatchOverrides })` of the
 * `agentevals` JS package, `create_trajectory_match_evaluator` in Python; `trajectory/{strict,unordered,subset,
 * superset,utils}`). A test compares the verdicts with the real JS package's on generated OpenAI message logs, for
 * every mode and argument mode.
 *
 * agentevals compares lists of chat messages; needlework compares trajectories, whose unit is the tool call (each
 * `tool_call` step, with `tool_name` and `tool_input`). Thoughts, observations and answers take no part, as message
 * contents take no part in agentevals' verdicts. A call without input (`tool_input: null`) is compared as `{}`,
 * since an OpenAI tool call always carries an arguments object. Strict mode also needs the messages' structure, which
 * a trajectory read by `fromOpenAIMessages` keeps as its `messages` outline (see `matchTrajectory`).
 *
 * Where the Python and JS agentevals differ, needlework follows Python's, as it did before the JS package was
 * compared: argument values are equal by Python's `==` (`true == 1`; the JS package's `_deepEqual` says no, and
 * equates an array with an object of the same index keys), and an empty override (`[]`, `''`) falls back to the
 * default mode (the JS package reads `[]` and `''` as "ignore the arguments").
 */
/** How the whole trajectories are compared. */
export type TrajectoryMatchMode = 'strict' | 'unordered' | 'subset' | 'superset';

/** How two calls of the same tool compare their arguments (agentevals' `ToolArgsMatchMode`). */
export type ToolArgsMatchMode = 'exact' | 'ignore' | 'subset' | 'superset';

/** A custom argument comparison: true when the two argument objects match. */
export type ToolArgsMatcher = (
  actual: Record<string, unknown>,
  reference: Record<string, unknown>,
) => boolean;

/**
 * Per tool name: a mode, a list of argument keys (dot paths into nested objects, as `"filter.city"`) that must be
 * equal, or a function (agentevals' `ToolArgsMatchOverrides`).
 */
export type ToolArgsOverride = ToolArgsMatchMode | readonly string[] | ToolArgsMatcher;

export interface MatchTrajectoryOptions {
  /** @default 'strict' */
  mode?: TrajectoryMatchMode;
  /** @default 'exact' */
  toolArgs?: ToolArgsMatchMode;
  /** Argument comparison per tool name, in place of `toolArgs` for that tool. */
  toolArgsOverrides?: Readonly<Record<string, ToolArgsOverride>>;
}

/** A tool call as the match reports it. */
export interface ToolCall {
  tool: string | null;
  args: Record<string, unknown>;
}

export interface TrajectoryMatchResult {
  /** The agentevals verdict. */
  pass: boolean;
  /** Reference calls the actual trajectory lacks, in the direction(s) the mode checks (see `matchTrajectory`). */
  missing: ToolCall[];
  /** Actual calls the reference lacks, in the direction(s) the mode checks. */
  extra: ToolCall[];
  /**
   * Strict mode over two message lists only: the first difference in the messages' structure (their number, a role,
   * tool calls on one message and not the other), when there is one. Absent otherwise.
   */
  reason?: string;
}

/**
 * Does `actual` match `reference` under `mode`, with agentevals' verdicts:
 *
 * - `strict`: when both trajectories have a `messages` outline (both read from chat logs), agentevals' strict scorer
 *   exactly: the same number of messages, the same role at each index, tool calls on the same messages (a `null`
 *   count on both or on neither) and as many on each, and within one message the calls matched in any order (each
 *   actual call, in order, takes the first unused reference call of that message with the same tool whose arguments
 *   match). So three assistant messages with neither text nor calls do not match one, and parallel calls may come in
 *   any order. `reason` names the first structural difference; `extra` holds the actual calls left unmatched and
 *   `missing` the reference calls left unused, message by message. When either trajectory has no outline (a seed 002
 *   `trajectory.json`, OTel spans), each tool call stands for one assistant message of its own: the same number of
 *   calls and, at each position, the same tool with matching arguments; `missing` and `extra` hold the reference
 *   and actual calls at the positions that differ, and the unpaired tail.
 * - `superset`: every reference call is matched by a distinct actual call (`_is_trajectory_superset(outputs,
 *   reference_outputs)`); extra actual calls are allowed. `missing` holds the unmatched reference calls.
 * - `subset`: every actual call is matched by a distinct reference call (`_is_trajectory_superset(reference_outputs,
 *   outputs)`). `extra` holds the unmatched actual calls.
 * - `unordered`: both of the above (`superset` and `subset`), in any order.
 *
 * The matching is agentevals' greedy one, kept because it decides the verdict: for each call to be covered, in order,
 * the first not-yet-used call of the same tool whose arguments match is taken. In `subset` mode agentevals passes
 * the argument matcher its arguments swapped (the reference call's first), which matters for the asymmetric
 * `toolArgs` modes and for custom functions; that order is kept too.
 *
 * Argument modes, for calls of the same tool: `exact`, the objects are equal (Python `==`: `true == 1`); `ignore`,
 * always; `subset`, every key of the first argument exists in the second with an equal value; `superset`, every
 * key of the second exists in the first with an equal value. A key-list override compares the values at each dot
 * path, a missing path or a `null` value reading as `null` (`get_nested_value`). As in Python agentevals, an override
 * that is empty (`[]`, `''`) is ignored and the default mode applies. A legacy `function_call` counts as a tool call
 * of its message here (agentevals reads only `tool_calls`).
 *
 * Empty inputs: two trajectories without tool calls match in every mode; with an empty reference, `superset` always
 * passes and `subset` passes only when the actual trajectory has no calls.
 */
export function matchTrajectory(
  actual: Trajectory,
  reference: Trajectory,
  options: MatchTrajectoryOptions = {},
): TrajectoryMatchResult {
  return matchCalls(actual, reference, options, undefined);
}

/**
 * Which calls a match paired and which it left over, by position among each trajectory's tool calls (0-based): what a
 * reader lays over the steps (matched, missing, extra). The pairing is the one the verdict rests on, the same greedy
 * walk as `matchTrajectory`'s; nothing is matched a second way.
 */
export interface TrajectoryAlignment {
  /** `[actual call, reference call]` for each pair the match made, in the order it made them. */
  pairs: Array<[number, number]>;
  /** The reference calls of the result's `missing`, by position, in the same order. */
  missing: number[];
  /** The actual calls of the result's `extra`, by position, in the same order. */
  extra: number[];
}

/**
 * `matchTrajectory` with the alignment it rests on. In `superset` mode the actual calls left unpaired are allowed (no
 * `extra`), in `subset` mode the reference calls left unpaired are (no `missing`); `unordered` pairs the calls the
 * reference side's way (each reference call takes an actual one) and reports the extra calls of the other walk, as the
 * verdict does.
 */
export function alignTrajectory(
  actual: Trajectory,
  reference: Trajectory,
  options: MatchTrajectoryOptions = {},
): TrajectoryMatchResult & { alignment: TrajectoryAlignment } {
  const alignment: TrajectoryAlignment = { pairs: [], missing: [], extra: [] };
  return { ...matchCalls(actual, reference, options, alignment), alignment };
}

function matchCalls(
  actual: Trajectory,
  reference: Trajectory,
  options: MatchTrajectoryOptions,
  alignment: TrajectoryAlignment | undefined,
): TrajectoryMatchResult {
  const mode = options.mode ?? 'strict';
  const toolArgs = options.toolArgs ?? 'exact';
  const overrides = options.toolArgsOverrides;
  const out = callsOf(actual);
  const ref = callsOf(reference);
  const matcherFor = (tool: string | null) => argsMatcher(tool, toolArgs, overrides);
  switch (mode) {
    case 'strict': {
      const outOutline = outlineOf(actual, out.length);
      const refOutline = outlineOf(reference, ref.length);
      return outOutline && refOutline
        ? strictMessages(out, outOutline, ref, refOutline, matcherFor, alignment)
        : strict(out, ref, matcherFor, alignment);
    }
    case 'superset': {
      const missing = uncovered(
        out,
        ref,
        matcherFor,
        alignment && { pairs: alignment.pairs, left: alignment.missing, flip: false },
      );
      return { pass: missing.length === 0, missing, extra: [] };
    }
    case 'subset': {
      const extra = uncovered(
        ref,
        out,
        matcherFor,
        alignment && { pairs: alignment.pairs, left: alignment.extra, flip: true },
      );
      return { pass: extra.length === 0, missing: [], extra };
    }
    case 'unordered': {
      const missing = uncovered(
        out,
        ref,
        matcherFor,
        alignment && { pairs: alignment.pairs, left: alignment.missing, flip: false },
      );
      const extra = uncovered(
        ref,
        out,
        matcherFor,
        alignment && { pairs: [], left: alignment.extra, flip: true },
      );
      return { pass: missing.length === 0 && extra.length === 0, missing, extra };
    }
    default:
      throw new TypeError(`matchTrajectory: unknown mode ${JSON.stringify(mode)}`);
  }
}

/**
 * A tool call as the matching compares it: its tool, its arguments' text when the source wrote text, and its
 * arguments, read only when compared (a trajectory read from a chat log parses them then, once).
 */
interface Call {
  readonly tool: string | null;
  readonly text: string | undefined;
  args(): Record<string, unknown>;
}

/** A `tool_call` step's call: its arguments are already data. */
class StepCall implements Call {
  readonly text = undefined;
  constructor(
    readonly tool: string | null,
    private readonly input: Record<string, unknown>,
  ) {}
  args(): Record<string, unknown> {
    return this.input;
  }
}

/** How the arguments of two calls of one tool are compared. */
interface ArgsMatch {
  compare: ToolArgsMatcher;
  /**
   * Whether two calls whose arguments have the same text match without parsing them: true for every built-in mode
   * and key list, which match any arguments with themselves (and `args()` is a function of the text alone); false
   * for a custom function, which may say anything.
   */
  sameText: boolean;
}

type MatcherFor = (tool: string | null) => ArgsMatch;

/** `compare(first.args(), second.args())`, without parsing arguments the verdict cannot depend on. */
function argsMatch(match: ArgsMatch, first: Call, second: Call): boolean {
  if (match.compare === ignoreMatcher) return true;
  if (match.sameText && first.text !== undefined && first.text === second.text) return true;
  return match.compare(first.args(), second.args());
}

/** A call as the result reports it. */
function reported(call: Call): ToolCall {
  return { tool: call.tool, args: call.args() };
}

function callsOf(trajectory: Trajectory): readonly Call[] {
  // A chat log whose steps were never read: its calls as written, arguments unparsed.
  const source: readonly SourceToolCall[] | undefined = sourceToolCalls(trajectory);
  if (source !== undefined) return source;
  const calls: Call[] = [];
  for (const step of trajectory.steps) {
    if (step.step_type === 'tool_call') calls.push(new StepCall(step.tool_name, step.tool_input ?? {}));
  }
  return calls;
}

function strict(
  out: readonly Call[],
  ref: readonly Call[],
  matcherFor: MatcherFor,
  alignment: TrajectoryAlignment | undefined,
): TrajectoryMatchResult {
  const missing: ToolCall[] = [];
  const extra: ToolCall[] = [];
  const n = Math.min(out.length, ref.length);
  for (let i = 0; i < n; i++) {
    const o = out[i] as Call;
    const r = ref[i] as Call;
    if (o.tool !== r.tool || !argsMatch(matcherFor(o.tool), o, r)) {
      missing.push(reported(r));
      extra.push(reported(o));
      alignment?.missing.push(i);
      alignment?.extra.push(i);
    } else alignment?.pairs.push([i, i]);
  }
  for (let i = n; i < ref.length; i++) {
    missing.push(reported(ref[i] as Call));
    alignment?.missing.push(i);
  }
  for (let i = n; i < out.length; i++) {
    extra.push(reported(out[i] as Call));
    alignment?.extra.push(i);
  }
  return { pass: missing.length === 0 && extra.length === 0, missing, extra };
}

/**
 * agentevals' strict `_scorer` over two message outlines: the same number of messages; at each index the same role,
 * `tool_calls` on both or on neither, as many calls on both, and each output call matched, in order, to the first
 * unused reference call of the same message with the same tool whose arguments match (the matcher of the output
 * call's tool, output arguments first). Continued past the first difference so that every difference is reported:
 * `reason` names the first structural one, `extra` the output calls left unmatched, `missing` the reference calls left
 * unused.
 */
function strictMessages(
  out: readonly Call[],
  outOutline: readonly MessageOutline[],
  ref: readonly Call[],
  refOutline: readonly MessageOutline[],
  matcherFor: MatcherFor,
  alignment: TrajectoryAlignment | undefined,
): TrajectoryMatchResult {
  const missing: ToolCall[] = [];
  const extra: ToolCall[] = [];
  let reason: string | undefined;
  if (outOutline.length !== refOutline.length) {
    reason = `${plural(outOutline.length, 'message')}, the reference has ${refOutline.length}`;
  }
  let o = 0;
  let r = 0;
  const n = Math.max(outOutline.length, refOutline.length);
  for (let k = 0; k < n; k++) {
    const om = outOutline[k];
    const rm = refOutline[k];
    const oStart = o;
    const rStart = r;
    o += om?.tool_calls ?? 0;
    r += rm?.tool_calls ?? 0;
    if (om !== undefined && rm !== undefined) {
      if (om.role !== rm.role) reason ??= `message ${k}: role ${om.role}, the reference's is ${rm.role}`;
      else if ((om.tool_calls === null) !== (rm.tool_calls === null)) {
        reason ??= `message ${k}: ${om.tool_calls === null ? 'no tool calls' : 'tool calls'}, the reference has ${rm.tool_calls === null ? 'none' : 'tool calls'}`;
      }
    }
    // Most messages carry no call or one: the loops below stay on the flat lists, allocating nothing but `used`.
    const used: boolean[] = [];
    for (let j = rStart; j < r; j++) used.push(false);
    for (let i = oStart; i < o; i++) {
      const call = out[i] as Call;
      const matcher = matcherFor(call.tool);
      let found = false;
      for (let j = rStart; j < r; j++) {
        const candidate = ref[j] as Call;
        if (used[j - rStart] || candidate.tool !== call.tool || !argsMatch(matcher, call, candidate))
          continue;
        used[j - rStart] = true;
        found = true;
        alignment?.pairs.push([i, j]);
        break;
      }
      if (!found) {
        extra.push(reported(call));
        alignment?.extra.push(i);
      }
    }
    for (let j = rStart; j < r; j++)
      if (!used[j - rStart]) {
        missing.push(reported(ref[j] as Call));
        alignment?.missing.push(j);
      }
  }
  const pass = reason === undefined && missing.length === 0 && extra.length === 0;
  return reason === undefined ? { pass, missing, extra } : { pass, missing, extra, reason };
}

/** The outline, when it accounts for every tool call of the trajectory (see `MessageOutline`). */
function outlineOf(trajectory: Trajectory, calls: number): readonly MessageOutline[] | undefined {
  const outline = trajectory.messages;
  if (outline === undefined) return undefined;
  let total = 0;
  for (const message of outline) total += message.tool_calls ?? 0;
  if (total !== calls) {
    throw new TypeError(
      `matchTrajectory: the trajectory ${JSON.stringify(trajectory.task_id)} has ${plural(calls, 'tool call')} but its messages outline counts ${total}`,
    );
  }
  return outline;
}

/**
 * `_is_trajectory_superset(outputs, reference_outputs)` of agentevals, continued past the first failure so that
 * every uncovered call is reported: for each call of `required` in order, take the first unused call of `available`
 * with the same tool for which `matcher(available.args, required.args)` holds. Returns the calls of `required` left
 * uncovered; agentevals' verdict is that this list is empty (it stops at the first one, and later calls cannot change
 * a failure into a pass).
 */
function uncovered(
  available: readonly Call[],
  required: readonly Call[],
  matcherFor: MatcherFor,
  collect: Collect | undefined,
): ToolCall[] {
  const used: boolean[] = [];
  for (let i = 0; i < available.length; i++) used.push(false);
  const left: ToolCall[] = [];
  for (let k = 0; k < required.length; k++) {
    const want = required[k] as Call;
    const matcher = matcherFor(want.tool);
    let found = false;
    for (let i = 0; i < available.length; i++) {
      const have = available[i] as Call;
      if (have.tool !== want.tool || used[i]) continue;
      if (argsMatch(matcher, have, want)) {
        used[i] = true;
        found = true;
        // Pairs are [actual, reference]: `available` is the actual side unless the walk is flipped (subset).
        collect?.pairs.push(collect.flip ? [k, i] : [i, k]);
        break;
      }
    }
    if (!found) {
      left.push(reported(want));
      collect?.left.push(k);
    }
  }
  return left;
}

/** Where `uncovered` records its pairs and the positions of the calls it left uncovered. */
interface Collect {
  pairs: Array<[number, number]>;
  left: number[];
  /** True when `required` is the actual side (a subset walk). */
  flip: boolean;
}

/** `_get_matcher_for_tool_name`: the override for this tool when there is a non-empty one, else the default mode. */
function argsMatcher(
  tool: string | null,
  mode: ToolArgsMatchMode,
  overrides: Readonly<Record<string, ToolArgsOverride>> | undefined,
): ArgsMatch {
  const override = overrides && tool !== null && Object.hasOwn(overrides, tool) ? overrides[tool] : undefined;
  if (
    override === undefined ||
    (override as unknown) === '' ||
    (Array.isArray(override) && override.length === 0)
  ) {
    return modeMatcher(mode);
  }
  if (typeof override === 'function') return { compare: override, sameText: false };
  if (typeof override === 'string') return modeMatcher(override as ToolArgsMatchMode);
  if (Array.isArray(override)) return { compare: keysMatcher(override as readonly string[]), sameText: true };
  throw new TypeError(`matchTrajectory: invalid tool args override for ${JSON.stringify(tool)}`);
}

const ignoreMatcher: ToolArgsMatcher = () => true;
const EXACT: ArgsMatch = { compare: pythonEquals, sameText: true };
const SUBSET: ArgsMatch = { compare: (first, second) => containedIn(first, second), sameText: true };
const SUPERSET: ArgsMatch = { compare: (first, second) => containedIn(second, first), sameText: true };
const IGNORE: ArgsMatch = { compare: ignoreMatcher, sameText: true };

function modeMatcher(mode: ToolArgsMatchMode): ArgsMatch {
  switch (mode) {
    case 'exact':
      return EXACT;
    case 'subset':
      return SUBSET;
    case 'superset':
      return SUPERSET;
    default:
      // agentevals falls back to ignoring the arguments for any other mode.
      return IGNORE;
  }
}

/** Every key of `part` exists in `whole` with an equal value (`_subset_match(part, whole)`). */
function containedIn(part: Record<string, unknown>, whole: Record<string, unknown>): boolean {
  for (const key of Object.keys(part)) {
    if (!Object.hasOwn(whole, key) || !pythonEquals(whole[key], part[key])) return false;
  }
  return true;
}

/** `_get_partial_matcher_on_keys`: the values at every dot path are equal. */
function keysMatcher(keys: readonly string[]): ToolArgsMatcher {
  return (first, second) =>
    keys.every((key) => pythonEquals(nestedValue(first, key), nestedValue(second, key)));
}

/** `get_nested_value`: walks the dot path through objects; anything else on the way, or a missing key, is `null`. */
function nestedValue(args: Record<string, unknown>, path: string): unknown {
  let current: unknown = args;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return null;
    current = (current as Record<string, unknown>)[part];
    if (current === undefined || current === null) return null;
  }
  return current;
}
