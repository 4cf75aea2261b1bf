import { UserError } from '../errors/index.js';
import { CassetteJudge, type CassetteMode } from './cassette-judge.js';
import { OpenAICompatibleJudge, type OpenAICompatibleJudgeOptions } from './openai.js';
import type { Judge } from './types.js';

export interface JudgeSpecOptions extends Omit<OpenAICompatibleJudgeOptions, 'baseUrl'> {
  /** A cassette to record to or replay from, beside a live judge. */
  cassette?: string;
  /** How the cassette is used with a live judge. @default 'replay' when `cassette` is given */
  mode?: CassetteMode;
}

/**
 * Builds a judge from a command-line or config spec:
 * - `http://...` or `https://...`: an `OpenAICompatibleJudge` at that base URL (model and key from the options or
 *   the environment), wrapped in a `CassetteJudge` when `options.cassette` is given;
 * - `replay:<file>`: a replay-only judge over that cassette that never touches the network (a request it lacks
 *   fails with a message naming the criterion);
 * - `''` or undefined: an `OpenAICompatibleJudge` configured wholly from the environment (`OPENAI_BASE_URL`, ...).
 * Anything else is a `UserError`.
 */
export async function createJudgeFromSpec(
  spec: string | undefined,
  options: JudgeSpecOptions = {},
): Promise<Judge> {
  const { cassette, mode, ...live } = options;
  const trimmed = spec?.trim() ?? '';
  if (trimmed.startsWith('replay:')) {
    const file = trimmed.slice('replay:'.length);
    if (file === '')
      throw new UserError({
        file: '--judge',
        message: 'replay: needs a cassette file, as replay:judge.cassette.json',
      });
    return CassetteJudge.open({
      file,
      mode: 'replay',
      ...(live.model !== undefined && { model: live.model }),
    });
  }
  if (trimmed !== '' && !/^https?:\/\//i.test(trimmed)) {
    throw new UserError({
      file: '--judge',
      message: `expected an http(s):// URL or replay:<cassette>, got "${trimmed}"`,
    });
  }
  const judge = new OpenAICompatibleJudge({ ...live, ...(trimmed !== '' && { baseUrl: trimmed }) });
  if (cassette === undefined || mode === 'off') return judge;
  return CassetteJudge.open({ file: cassette, mode: mode ?? 'replay', judge });
}
