import { UserError } from '../errors/index.js';
import { sequenceRatio } from '../metrics/difflib.js';
import { plain } from '../recorder/plain.js';
import { hashOf, stableJson } from './canonical.js';
import { redactSecrets } from './secrets.js';
import { CassetteStore, type EntryFormat, isObject } from './store.js';

/**
 * - `record`: every call goes live and its answer is recorded (replacing an older one).
 * - `replay`: every call is answered from the cassette; a call it lacks fails (`CassetteMissError`), and nothing goes
 *   live: the judge's `strict`, for hermetic CI.
 * - `auto`: answered from the cassette when it has the call, otherwise live and recorded: the judge's `record`.
 * - `off`: no cassette; every call goes live.
 */
export type CallCassetteMode = 'record' | 'replay' | 'auto' | 'off';

export const CALL_CASSETTE_MODES: readonly CallCassetteMode[] = ['record', 'replay', 'auto', 'off'];

/** What a recorded call was: a tool's or a model's, its name, and its canonical arguments (secrets redacted). */
export interface CallRequest {
  kind: 'tool' | 'model';
  name: string;
  args: unknown;
}

/** One recorded call: the request its key was hashed from, and what it returned or the error it raised. */
export interface CallEntry {
  request: CallRequest;
  response: { value: unknown } | { error: string };
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
};

/** A call the replay cassette lacks: the test fails, naming the call and the nearest one recorded. */
export class CassetteMissError extends Error {
  override readonly name = 'CassetteMissError';
  constructor(
    readonly request: CallRequest,
    readonly nearest: CallRequest | undefined,
    readonly file: string,
  ) {
    super(
      `no recorded ${request.kind} call ${describeCall(request)} in ${file} (replay mode never calls live)` +
        (nearest
          ? `; the nearest recorded one is ${describeCall(nearest)}`
          : '; the cassette has no call of this kind') +
        '. Record it with NEEDLEWORK_CASSETTE=record (or auto).',
    );
  }
}

/** How a value is kept in the cassette: `encode` to JSON data when recorded, `decode` back when replayed. */
export interface CallCodec<T> {
  encode?(value: T): unknown;
  decode?(json: unknown): T;
}

/**
 * Tool calls and model responses of live runs, recorded once against real services and replayed offline, in the
 * judge's cassette format and store (`CassetteStore`): keyed by the SHA-256 of the canonical request (`kind`, `name`,
 * and the arguments as JSON data with keys sorted and secrets redacted), so a call with the same arguments replays
 * whatever the key order or the credentials of the run.
 */
export class CallCassette {
  /** Replay misses so far: a tool's miss is caught by the SDK as a tool error, so runners check these too. */
  readonly misses: CassetteMissError[] = [];

  private constructor(
    private readonly store: CassetteStore<CallEntry> | undefined,
    readonly mode: CallCassetteMode,
    readonly file: string,
  ) {}

  /** Opens the cassette; `replay` needs the file to exist (a wrong path is a `UserError`). */
  static async open(options: { file: string; mode: CallCassetteMode }): Promise<CallCassette> {
    const { file, mode } = options;
    if (!CALL_CASSETTE_MODES.includes(mode)) {
      throw new UserError({
        file,
        message: `unknown cassette mode "${mode}"; expected one of: ${CALL_CASSETTE_MODES.join(', ')}`,
      });
    }
    const store =
      mode === 'off' ? undefined : await CassetteStore.open(file, CALLS, { mustExist: mode === 'replay' });
    return new CallCassette(store, mode, file);
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
    if (!this.store) return live();
    const request: CallRequest = { kind, name, args: redactSecrets(plain(args)) };
    const hash = hashOf(request);
    const entry = this.mode === 'record' ? undefined : this.store.get(hash);
    if (entry) {
      if ('error' in entry.response) throw new Error(entry.response.error);
      const value = entry.response.value;
      return codec.decode ? codec.decode(value) : (value as T);
    }
    if (this.mode === 'replay') {
      const miss = new CassetteMissError(request, this.nearest(request), this.file);
      this.misses.push(miss);
      throw miss;
    }
    let value: T;
    try {
      value = await live();
    } catch (error) {
      if (kind === 'tool') {
        this.store.set(hash, {
          request,
          response: { error: error instanceof Error ? error.message : String(error) },
        });
        await this.store.persist();
      }
      throw error;
    }
    this.store.set(hash, { request, response: { value: plain(codec.encode ? codec.encode(value) : value) } });
    await this.store.persist();
    return value;
  }

  /** Throws the first replay miss, if any (for runners, after a run whose SDK swallowed it as a tool error). */
  assertNoMisses(): void {
    const miss = this.misses[0];
    if (miss) throw miss;
  }

  /** Waits for every pending write; rejects with the write's `UserError` if one failed. */
  flush(): Promise<void> {
    return this.store?.flush() ?? Promise.resolve();
  }

  /** The recorded call most like `request`: of its kind, the same name first, then the most similar arguments. */
  private nearest(request: CallRequest): CallRequest | undefined {
    const text = [...stableJson(request.args).slice(0, NEAREST_CHARS)];
    let best: { request: CallRequest; score: number } | undefined;
    for (const entry of this.store!.values()) {
      if (entry.request.kind !== request.kind) continue;
      const other = [...stableJson(entry.request.args).slice(0, NEAREST_CHARS)];
      const score = (entry.request.name === request.name ? 1 : 0) + sequenceRatio(text, other);
      if (!best || score > best.score) best = { request: entry.request, score };
    }
    return best?.request;
  }
}

/** Characters of arguments compared when looking for the nearest recorded call (the comparison is quadratic). */
const NEAREST_CHARS = 2000;
/** Characters of arguments shown in a message. */
const SHOWN_CHARS = 200;

function describeCall(request: CallRequest): string {
  const args = stableJson(request.args) ?? '';
  return `${request.name}(${args.length > SHOWN_CHARS ? `${args.slice(0, SHOWN_CHARS)}…` : args})`;
}
