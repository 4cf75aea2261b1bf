import { createHash } from 'node:crypto';
import { UserError } from '../errors/index.js';
import { plain } from '../workup/plain.js';
import { redactedStableJson, stableJson } from './canonical.js';
import { describeCall, firstDifference, nearestCall } from './miss.js';
import type { CallRequest } from './request.js';
import { redactSecrets } from './secrets.js';
import { CassetteStore, type EntryFormat, isObject } from './store.js';

export type { CallRequest } from './request.js';

/**
 * - `record`: every call goes live and its answer is recorded (replacing an older one).
 * - `replay`: every call is answered from the cassette; a call it lacks fails (`CassetteMissError`), and nothing goes
 *   live: the judge's `strict`, for hermetic CI.
 * - `auto`: answered from the cassette when it has the call, otherwise live and recorded: the judge's `record`.
 * - `off`: no cassette; every call goes live.
 */
export type CallCassetteMode = 'record' | 'replay' | 'auto' | 'off';

export const CALL_CASSETTE_MODES: readonly CallCassetteMode[] = ['record', 'replay', 'auto', 'off'];

/**
 * One recorded call: the request its key was hashed from, and what it returned (with the codec that encoded it, so the
 * value's shape is checked when the cassette loads) or the error it raised.
 */
export interface CallEntry {
  request: CallRequest;
  response: { value: unknown; codec?: string } | { error: string };
}

/**
 * How a value is kept in the cassette: `encode` to JSON data when recorded, `decode` back when replayed. A codec with
 * a `name` made by `defineCallCodec` also checks a recorded value's shape (`check`) when a cassette loads, so a
 * hand-edited or truncated entry is a one-line error naming the file and the entry, not a crash inside an SDK.
 */
export interface CallCodec<T> {
  name?: string;
  encode?(value: T): unknown;
  decode?(json: unknown): T;
  /** What is wrong with a recorded value (`"usage.inputTokens.total is not a number"`), or `undefined`. */
  check?(json: unknown): string | undefined;
}

/** Codecs by name, registered when a harness module defines them, for checking entries when a cassette loads. */
const CODECS = new Map<string, CallCodec<never>>();

/** A named codec, registered so that every cassette opened from now on checks the values it recorded. */
export function defineCallCodec<T>(codec: CallCodec<T> & { name: string }): CallCodec<T> {
  CODECS.set(codec.name, codec as CallCodec<never>);
  return codec;
}

const CALLS: EntryFormat<CallEntry> = {
  isEntry: (value): value is CallEntry =>
    isObject(value) &&
    isObject(value.request) &&
    (value.request.kind === 'tool' || value.request.kind === 'model') &&
    typeof value.request.name === 'string' &&
    isObject(value.response) &&
    ('value' in value.response || typeof value.response.error === 'string'),
  expected:
    'recorded calls (each needs request.kind "tool" or "model", request.name, and response.value or .error)',
  problem: (entry) => {
    const { request, response } = entry;
    const what = `${request.kind} call ${request.name}${request.trial !== undefined ? `, trial ${request.trial}` : ''}`;
    const trial = request.trial as unknown;
    if (trial !== undefined && !(Number.isInteger(trial) && (trial as number) >= 1)) {
      return { what, problem: `request.trial is ${JSON.stringify(trial)}; expected a whole number from 1` };
    }
    if (!('value' in response) || response.codec === undefined) return undefined;
    if (typeof response.codec !== 'string') return { what, problem: 'response.codec is not a string' };
    const problem = CODECS.get(response.codec)?.check?.(response.value);
    return problem === undefined
      ? undefined
      : { what, problem: `${problem} (expected ${response.codec}; record it again)` };
  },
};

/** A call the replay cassette lacks: the test fails, naming the call and how it differs from the nearest recorded. */
export class CassetteMissError extends Error {
  override readonly name = 'CassetteMissError';
  constructor(
    readonly request: CallRequest,
    readonly nearest: CallRequest | undefined,
    readonly file: string,
  ) {
    super(missMessage(request, nearest, file));
  }
}

function missMessage(request: CallRequest, nearest: CallRequest | undefined, file: string): string {
  const trial = (r: CallRequest) => (r.trial === undefined ? '' : ` (trial ${r.trial})`);
  let text = `no recorded ${describeCall(request)}${trial(request)} in ${file} (replay mode never calls live)`;
  if (!nearest) text += `; the cassette has no ${request.kind} call`;
  else {
    const difference = firstDifference(
      { name: nearest.name, args: nearest.args },
      { name: request.name, args: request.args },
    );
    text += `; the nearest recorded one is ${describeCall(nearest)}${trial(nearest)}`;
    text += difference
      ? `, which differs first at ${difference}`
      : `, the same call recorded for another trial (this cassette holds no recording of trial ${request.trial})`;
  }
  return `${text}. Record it with NEEDLEWORK_CASSETTE=record (or auto).`;
}

/** How one run (a trial) used its cassette: its calls answered from the cassette, and those that went live. */
export interface CassetteUse {
  /** The cassette file. */
  file: string;
  mode: CallCassetteMode;
  /** Calls answered from the cassette. */
  replayed: number;
  /** Calls that went live (and were recorded, unless the mode is `off`). */
  live: number;
  /**
   * Where the replayed answers came from: `per-trial` (recorded for this trial), `shared` (at least one from a
   * recording made without trials, which every trial reads: such trials are one recording replayed, not independent
   * runs), or `none` (nothing was replayed).
   */
  recording: 'per-trial' | 'shared' | 'none';
}

/**
 * Tool calls and model responses of live runs, recorded once against real services and replayed offline, in the
 * judge's cassette format and store (`CassetteStore`): keyed by the SHA-256 of the canonical request (`kind`, `name`,
 * the arguments as JSON data with keys sorted and secrets redacted, and the trial), so a call with the same arguments
 * replays whatever the key order or the credentials of the run, and each trial of a task replays as it was recorded.
 * A request recorded without a trial (by a cassette opened with no `trial`) answers that request in every trial.
 */
export class CallCassette {
  private replayed = 0;
  private live = 0;
  private shared = false;
  private readonly store: CassetteStore<CallEntry> | undefined;
  /** Replay misses so far, shared by every trial's view: a tool's miss is caught by the SDK as a tool error. */
  readonly misses: CassetteMissError[];

  private constructor(
    private readonly writes: Writes,
    readonly mode: CallCassetteMode,
    readonly file: string,
    /** The trial this view records and replays, or `undefined` for calls made outside trials. */
    readonly trial: number | undefined,
  ) {
    this.store = writes.store;
    this.misses = writes.misses;
  }

  /** Opens the cassette; `replay` needs the file to exist (a wrong path is a `UserError`). */
  static async open(options: {
    file: string;
    mode: CallCassetteMode;
    trial?: number;
  }): Promise<CallCassette> {
    const { file, mode } = options;
    if (!CALL_CASSETTE_MODES.includes(mode)) {
      throw new UserError({
        file,
        message: `unknown cassette mode "${mode}"; expected one of: ${CALL_CASSETTE_MODES.join(', ')}`,
      });
    }
    const store =
      mode === 'off' ? undefined : await CassetteStore.open(file, CALLS, { mustExist: mode === 'replay' });
    return new CallCassette(new Writes(store), mode, file, checkTrial(options.trial));
  }

  /** The same cassette for the calls of one trial (from 1): recorded under that trial, replayed as it recorded them. */
  forTrial(trial: number): CallCassette {
    return new CallCassette(this.writes, this.mode, this.file, checkTrial(trial));
  }

  /** How this view's calls were answered so far (see `CassetteUse`). */
  use(): CassetteUse {
    return {
      file: this.file,
      mode: this.mode,
      replayed: this.replayed,
      live: this.live,
      recording: this.replayed === 0 ? 'none' : this.shared ? 'shared' : 'per-trial',
    };
  }

  /**
   * Answers one call: from the cassette, or by running `live` (and recording what it returned, or the error a tool
   * raised: a model's failure is not recorded, so the next recording run asks again).
   */
  async call<T>(
    kind: CallRequest['kind'],
    name: string,
    args: unknown,
    live: () => T | Promise<T>,
    codec: CallCodec<T> = {},
  ): Promise<T> {
    const store = this.store;
    if (!store) {
      this.live++;
      return live();
    }
    const data = plain(args);
    // The key needs only the canonical text of the redacted arguments; the redacted request itself is made only when
    // it is recorded or named in a miss.
    const canonical = redactedStableJson(data);
    const hash = requestHash(kind, name, canonical, this.trial);
    const request = (): CallRequest => {
      const made: CallRequest = { kind, name, args: redactSecrets(data) };
      if (this.trial !== undefined) made.trial = this.trial;
      return made;
    };
    if (this.mode !== 'record') {
      let entry = store.get(hash);
      if (!entry && this.trial !== undefined && this.writes.untrialed(store)) {
        entry = store.get(requestHash(kind, name, canonical, undefined));
        if (entry) this.shared = true;
      }
      if (entry) {
        this.replayed++;
        return replayed(entry, codec, this.file, hash);
      }
    }
    if (this.mode === 'replay') {
      const missing = request();
      const miss = new CassetteMissError(missing, nearestCall(missing, store.values()), this.file);
      this.misses.push(miss);
      throw miss;
    }
    this.live++;
    if (this.trial === undefined) this.writes.recordedUntrialed();
    let value: T;
    try {
      value = await live();
    } catch (error) {
      if (kind === 'tool') {
        store.set(hash, {
          request: request(),
          response: { error: error instanceof Error ? error.message : String(error) },
        });
        this.writes.soon();
      }
      throw error;
    }
    const json = plain(codec.encode ? codec.encode(value) : value);
    store.set(hash, {
      request: request(),
      response: codec.name !== undefined ? { value: json, codec: codec.name } : { value: json },
    });
    this.writes.soon();
    return value;
  }

  /**
   * `fn` with each call answered from, and recorded to, this cassette as a call of the tool `name`, keyed by its first
   * argument (the tool's input; the rest, such as an SDK's run context, pass through to `fn` untouched). A tool's
   * error is recorded and raised again on replay, so the SDK handles it as it did live. For any SDK:
   * `tool({ name: 'search', parameters, execute: cassette.tool('search', search) })`.
   */
  tool<A, R, Rest extends unknown[]>(
    name: string,
    fn: (input: A, ...rest: Rest) => R | Promise<R>,
  ): (input: A, ...rest: Rest) => Promise<Awaited<R>> {
    return (input, ...rest) =>
      this.call('tool', name, input, () => fn(input, ...rest) as Awaited<R> | Promise<Awaited<R>>);
  }

  /** Throws the first replay miss, if any (for runners, after a run whose SDK swallowed it as a tool error). */
  assertNoMisses(): void {
    const miss = this.misses[0];
    if (miss) throw miss;
  }

  /** Writes what is recorded now and waits for every pending write; rejects with a write's `UserError`. */
  flush(): Promise<void> {
    return this.writes.flush();
  }
}

/** Milliseconds a recorded call waits to be written, so the calls of one agent step share one rewrite of the file. */
const SAVE_DELAY_MS = 100;

/**
 * The writes of one open cassette, shared by its trial views: a recorded call asks for a write within
 * `SAVE_DELAY_MS` (the file is rewritten whole, so a write per call would cost each call the whole cassette), and
 * `flush` writes at once. A pending write keeps the process alive until it is done.
 */
class Writes {
  readonly misses: CassetteMissError[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Whether the cassette holds requests recorded without a trial (counted once, when first asked). */
  private anyUntrialed: boolean | undefined;

  constructor(readonly store: CassetteStore<CallEntry> | undefined) {}

  soon(): void {
    if (this.timer || !this.store) return;
    this.timer = setTimeout(() => this.write(), SAVE_DELAY_MS);
  }

  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.write();
    }
    return this.store?.flush() ?? Promise.resolve();
  }

  recordedUntrialed(): void {
    this.anyUntrialed = true;
  }

  untrialed(store: CassetteStore<CallEntry>): boolean {
    this.anyUntrialed ??= [...store.values()].some((entry) => entry.request.trial === undefined);
    return this.anyUntrialed;
  }

  private write(): void {
    this.timer = undefined;
    // A failed write rejects `flush()`, where runners see it.
    void this.store?.persist().catch(() => undefined);
  }
}

/**
 * The key of a request: the SHA-256 of `stableJson({ kind, name, args, trial })` (its keys in that sorted order;
 * `args` and `trial` left out when absent), written from the arguments' canonical text without building the object.
 */
function requestHash(
  kind: string,
  name: string,
  canonicalArgs: string | undefined,
  trial: number | undefined,
): string {
  const text =
    `{${canonicalArgs === undefined ? '' : `"args":${canonicalArgs},`}"kind":${stableJson(kind)},` +
    `"name":${stableJson(name)}${trial === undefined ? '' : `,"trial":${trial}`}}`;
  return createHash('sha256').update(text).digest('hex');
}

function checkTrial(trial: number | undefined): number | undefined {
  if (trial !== undefined && !(Number.isInteger(trial) && trial >= 1)) {
    throw new TypeError(`a cassette's trial must be a whole number from 1, got ${trial}`);
  }
  return trial;
}

/** A recorded answer: its value decoded (checked first when its codec can check), or its error raised again. */
function replayed<T>(entry: CallEntry, codec: CallCodec<T>, file: string, hash: string): T {
  const response = entry.response;
  if ('error' in response) throw new Error(response.error);
  const problem = codec.check?.(response.value);
  if (problem !== undefined) {
    throw new UserError({
      file,
      message: `entry "${hash.slice(0, 12)}" (${describeCall(entry.request)}): ${problem}; record it again`,
    });
  }
  return codec.decode ? codec.decode(response.value) : (response.value as T);
}
