import type { Fact } from '../model/fact.js';
import type { Workup } from '../model/workup.js';

/** A tool call as the `ledger` option sees it: the call, and its result once there is one. */
export interface RecordedCall {
  name: string;
  input: unknown;
  /** What the tool returned (as JSON data: big integers as decimal strings); absent before a result or on error. */
  output?: unknown;
  /** The error the tool raised, when it failed. */
  error?: string;
}

export interface RecorderOptions {
  /** The workup's id (its folder name when saved). */
  id: string;
  /** The task this run is one trial of (`meta.json` `task`, non-empty); also the trajectory's `task_id`. */
  task?: string;
  /** Which trial of its task this run is (`meta.json` `trial`): a positive integer or a non-empty label. */
  trial?: number | string;
  /** The input the agent was given: the trajectory's `task_input`. */
  input?: string;
  /** Further `meta.json` fields (the model, the harness); `task` and `trial` above take precedence. */
  meta?: Record<string, unknown>;
  /**
   * Maps a tool call and its result to ledger facts, for tools that return graph facts, so needles and path checks
   * work on live runs. Called once per result, when a workup is first assembled (off the agent's path); `undefined`
   * or an empty list records no facts.
   */
  ledger?: (call: RecordedCall) => Array<Fact> | undefined;
  /** Milliseconds clock; default `performance.now`. Latencies are differences of its readings. */
  clock?: () => number;
}

/** Timing an SDK reported for a step, which then wins over the recorder's own clock. */
export interface StepTiming {
  /** Wall time of the step in milliseconds. */
  latencyMs?: number;
  /** Tokens the model spent on the step (a tool call's share of a model response). */
  tokens?: number;
}

/** Usage an SDK reported for the run (or one model call of it); successive reports are added up. */
export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  /** Cost in US dollars. */
  costUsd?: number;
}

/**
 * Records one live agent run as a `Workup`. Each tool call becomes a `tool_call` step and a ledger entry whose id is
 * the call id (so a note can cite it as `[cite:<id>]`); its result becomes an `observation` step and the entry's
 * results. Nothing throws on odd input from an SDK: values are kept as JSON data, ids are made citable.
 */
export interface Recorder {
  /**
   * Records a tool call. Returns the call id used: `callId` with any character a citation cannot hold replaced by
   * `_` (and `-2`, `-3`, ... appended if taken), or `g1`, `g2`, ... in call order when none is given.
   * `timing.latencyMs`: time the model took to decide on the call; default the time since the previous step.
   */
  toolCall(name: string, input: unknown, callId?: string, timing?: StepTiming): string;
  /**
   * Records a call's result (`{ error: message }`, an object with that one key, records a failure). `callId` is the
   * id given to `toolCall` or the one it returned. `timing.latencyMs`: the tool's run time; default the time since
   * the call.
   */
  toolResult(callId: string, output: unknown, timing?: StepTiming): void;
  /** Records the model's reasoning or intermediate text; `tokens`: tokens spent on it. */
  thought(text: string, options?: { tokens?: number; latencyMs?: number }): void;
  /** Records the final answer (the last one given is the trajectory's `final_answer`). */
  answer(text: string, options?: { tokens?: number; latencyMs?: number }): void;
  /** Sets the run's note (markdown citing ledger ids); a second call replaces the first. */
  note(markdown: string): void;
  /** Usage the SDK reported (tokens, cost), added to the run's totals (`meta.usage`, `total_tokens`). */
  usage(u: Usage): void;
  /** Adds fields to `meta.json` (the model an SDK reports, its finish reason); later calls win, `task`/`trial` stay. */
  setMeta(fields: Record<string, unknown>): void;
  /** Marks the run as failed (it threw): `succeeded` is false and `meta.error` holds the message. */
  fail(error: unknown): void;
  /** The run so far, as a `Workup` equal to the one `loadWorkup` reads back from `save` (but for `meta.path`). */
  workup(): Workup;
  /**
   * Writes the workup folder `<dir>/<id>` (`trajectory.json`, `provenance.jsonl`, `meta.json`, and `note.md` when
   * there is a note) and returns its path. An id that is not a safe file name gets a safe folder name
   * (`safeFolderName`: `_` for refused characters and leading dots, at most 120 bytes with a hash suffix), and
   * `meta.json` keeps the id, so the workup loads back with it.
   */
  save(dir: string): Promise<string>;
}
