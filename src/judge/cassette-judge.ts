import { UserError } from '../errors/index.js';
import { terminalSafe } from '../io/terminal.js';
import { canonicalRequest, requestHash } from './canonical.js';
import { Cassette, type RecordedVerdict } from './cassette.js';
import { describeContext } from './describe.js';
import type { Judge, JudgeFailure, JudgeRequest, JudgeResponse, JudgeVerdict } from './types.js';

/**
 * - `record`: answer from the cassette when it has the request, otherwise ask the live judge and record its verdict.
 * - `replay`: answer from the cassette; a request it lacks goes to the live judge unrecorded, or, with no live
 *   judge, fails.
 * - `strict`: answer from the cassette only; a request it lacks fails and the network is never used (hermetic CI).
 * - `off`: no cassette; every request goes to the live judge.
 */
export type CassetteMode = 'record' | 'replay' | 'off' | 'strict';

export const CASSETTE_MODES: readonly CassetteMode[] = ['record', 'replay', 'off', 'strict'];

export interface CassetteJudgeOptions {
  /** The cassette file (JSON). */
  file: string;
  mode: CassetteMode;
  /** The live judge; required for `record` and `off`, absent for a replay-only judge. */
  judge?: Judge;
  /**
   * The model the cassette keys are hashed with. @default the live judge's model, else the one model the cassette
   * holds
   */
  model?: string;
}

/**
 * A judge that records verdicts to a cassette and replays them, so CI reruns are hermetic and free. A replayed
 * verdict is marked `cached` and costs 0 (it was billed when recorded); its recorded tokens are kept. Only verdicts
 * are recorded: a failure (timeout, malformed answer) is asked again on the next recording run.
 */
export class CassetteJudge implements Judge {
  readonly model: string;
  private constructor(
    private readonly cassette: Cassette | undefined,
    private readonly mode: CassetteMode,
    private readonly live: Judge | undefined,
    model: string,
  ) {
    this.model = model;
  }

  /** Opens the cassette. `replay` and `strict` need the file to exist (a wrong path is a `UserError`). */
  static async open(options: CassetteJudgeOptions): Promise<CassetteJudge> {
    const { file, mode, judge } = options;
    if (!CASSETTE_MODES.includes(mode)) {
      throw new UserError({
        file,
        message: `unknown cassette mode "${mode}"; expected one of: ${CASSETTE_MODES.join(', ')}`,
      });
    }
    if ((mode === 'record' || mode === 'off') && !judge) {
      throw new UserError({ file, message: `cassette mode "${mode}" needs a live judge to ask` });
    }
    const cassette =
      mode === 'off'
        ? undefined
        : await Cassette.load(file, { mustExist: mode === 'replay' || mode === 'strict' });
    const model = options.model ?? judge?.model ?? onlyModel(cassette, file);
    return new CassetteJudge(cassette, mode, judge, model);
  }

  async judge(request: JudgeRequest): Promise<JudgeResponse> {
    if (!this.cassette) return this.ask(request);
    const hash = requestHash(request, this.model);
    const entry = this.cassette.get(hash);
    if (entry) return replayed(entry.response);
    if (this.mode === 'strict' || !this.live) return this.miss(request);
    const response = await this.ask(request);
    if (this.mode === 'record' && response.ok) {
      this.cassette.set(hash, {
        ...(request.context && { context: request.context }),
        request: canonicalRequest(request, this.model),
        response: {
          score: response.score,
          rationale: response.rationale,
          raw: response.raw,
          model: response.model,
          ...(response.usage.tokens && { tokens: response.usage.tokens }),
          ...(response.usage.costUsd !== undefined && { costUsd: response.usage.costUsd }),
        },
      });
      await this.cassette.persist();
    }
    return response;
  }

  /** Waits for every pending cassette write; rejects with the write's `UserError` if one failed. */
  flush(): Promise<void> {
    return this.cassette?.flush() ?? Promise.resolve();
  }

  private ask(request: JudgeRequest): Promise<JudgeResponse> {
    return this.live!.judge(request);
  }

  private miss(request: JudgeRequest): JudgeFailure {
    const why =
      this.mode === 'strict'
        ? 'strict mode never calls the judge'
        : 'this judge only replays and never calls the network';
    return {
      ok: false,
      error: {
        kind: 'cassette-miss',
        message: `no recorded verdict for ${describeContext(request.context)} in ${this.cassette!.file} (${why}); record it with --record`,
      },
      model: this.model,
      usage: { cached: false, calls: 0 },
    };
  }
}

function replayed(recorded: RecordedVerdict): JudgeVerdict {
  return {
    ok: true,
    score: recorded.score,
    // Recorded by any version, from any server: printed on terminals, so its control characters are escaped.
    rationale: terminalSafe(recorded.rationale),
    raw: recorded.raw,
    model: recorded.model,
    usage: { ...(recorded.tokens && { tokens: { ...recorded.tokens } }), costUsd: 0, cached: true, calls: 0 },
  };
}

/** The model a replay-only judge hashes with: the one the cassette was recorded against. */
function onlyModel(cassette: Cassette | undefined, file: string): string {
  const models = cassette?.models() ?? [];
  if (models.length > 1) {
    throw new UserError({
      file,
      message: `the cassette holds verdicts from ${models.length} models (${models.join(', ')}); name one with --judge-model`,
    });
  }
  return models[0] ?? 'unknown';
}
