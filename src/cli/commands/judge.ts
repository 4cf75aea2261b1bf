import { criterionVerdict, rubricVerdict } from '../../checks/rubric.js';
import { formatDiagnostic, UsageError, UserError } from '../../errors/index.js';
import {
  type CassetteMode,
  createJudgeFromSpec,
  DEFAULT_JUDGE_MODEL,
  type ModelPrice,
} from '../../judge/index.js';
import { formatRubricScore } from '../../rubric/format.js';
import { scoreRubric } from '../../rubric/score.js';
import { loadSpec } from '../../specs/load.js';
import { loadWorkups } from '../../workup/load.js';
import { colors, type Io } from '../io.js';
import { numberOption, wholeNumber } from '../options.js';

export interface JudgeCommandOptions {
  /** Workup folders or files, folders holding them, or globs. */
  workups: string[];
  /** The `*.rubric.yaml` to score. */
  rubric: string;
  /** `http(s)://...` or `replay:<cassette>`; the environment's judge when absent. */
  judge?: string;
  /** The judge model. @default NEEDLEWORK_JUDGE_MODEL, else gpt-4o-mini */
  model?: string;
  /** Judgements per criterion. @default 3 */
  samples?: number;
  /** Sampling temperature; `null` sends none (for models that accept only their default). @default 0 */
  temperature?: number | null;
  /** A cassette to replay from (and, with `mode: 'record'`, record to). */
  cassette?: string;
  /** @default 'replay' when `cassette` is given */
  mode?: CassetteMode;
  /** Per-attempt timeout in ms. */
  timeoutMs?: number;
  /** Requests in flight at once. */
  concurrency?: number;
  /** The judge model's price, USD per 1M input and output tokens; without it the cost is reported as unknown. */
  price?: ModelPrice;
  /** Print the results as JSON (an array of `RubricScore`) instead of text. */
  json?: boolean;
  /** Where the judge's defaults are read from. @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * `needlework judge`: scores workups on a rubric with an LLM judge and prints each criterion's median score, the
 * samples' agreement, the rationale, and what the run cost. Returns 0 when every rubric passed, 1 when one failed or
 * could not be scored (or a workup did not load).
 */
export async function runJudge(options: JudgeCommandOptions, io: Io): Promise<number> {
  const spec = await loadSpec(options.rubric);
  if (spec.kind !== 'rubric') {
    throw new UserError({
      file: options.rubric,
      message: 'expected a rubric spec (*.rubric.yaml), got a needle',
    });
  }
  const loaded = await loadWorkups(options.workups);
  const judge = await createJudgeFromSpec(options.judge, {
    ...(options.model !== undefined && { model: options.model }),
    ...(options.cassette !== undefined && { cassette: options.cassette }),
    ...(options.mode !== undefined && { mode: options.mode }),
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    ...(options.concurrency !== undefined && { concurrency: options.concurrency }),
    ...(options.price !== undefined && { prices: { [judgeModel(options)]: options.price } }),
    ...(options.env !== undefined && { env: options.env }),
  });
  const results = await Promise.all(
    loaded.workups.map((workup) =>
      scoreRubric(workup, spec, {
        judge,
        ...(options.samples !== undefined && { samples: options.samples }),
        ...(options.temperature !== undefined && { temperature: options.temperature }),
      }),
    ),
  );
  await judge.flush?.();

  const c = colors(io);
  // Each verdict is the checks' (src/checks/rubric.ts), as in `needlework run`: rendered here, never decided.
  const verdicts = results.map((result) => rubricVerdict(result));
  if (options.json)
    io.out(
      JSON.stringify(
        results.map((result, i) => ({
          ...result,
          criteria: result.criteria.map((criterion) => ({
            ...criterion,
            verdict: criterionVerdict(criterion),
          })),
          verdict: verdicts[i],
        })),
        null,
        2,
      ),
    );
  else
    results.forEach((result, i) => {
      for (const line of formatRubricScore(result, { total: verdicts[i]!, criterion: criterionVerdict }, c))
        io.out(line);
    });
  for (const failure of loaded.failures) {
    for (const diagnostic of failure.diagnostics) io.err(`${c.red('✗')} ${formatDiagnostic(diagnostic)}`);
  }
  return loaded.failures.length === 0 && results.length > 0 && verdicts.every((v) => v === 'pass') ? 0 : 1;
}

/** The model a live judge will ask, resolved as `OpenAICompatibleJudge` does, to key `--price`. */
function judgeModel(options: JudgeCommandOptions): string {
  const fromEnv = (options.env ?? process.env).NEEDLEWORK_JUDGE_MODEL?.trim();
  return options.model ?? (fromEnv ? fromEnv : DEFAULT_JUDGE_MODEL);
}

/**
 * The options of `needlework judge` from cac's parsed flags; a flag that cannot be used as written is a
 * `UsageError` (exit 2).
 */
export function judgeOptions(workups: string[], flags: Record<string, unknown>): JudgeCommandOptions {
  if (workups.length === 0) throw new UsageError('missing <workup>: the workup folders or files to score');
  if (typeof flags.rubric !== 'string' || flags.rubric === '') {
    throw new UsageError('missing --rubric <spec>: the rubric to score, as needles/icd-203.rubric.yaml');
  }
  if (flags.record === true && flags.strict === true)
    throw new UsageError('--record and --strict exclude each other');
  if ((flags.record === true || flags.strict === true) && typeof flags.cassette !== 'string') {
    throw new UsageError(`--${flags.record === true ? 'record' : 'strict'} needs --cassette <file>`);
  }
  const mode: CassetteMode | undefined =
    flags.record === true ? 'record' : flags.strict === true ? 'strict' : undefined;
  return {
    workups,
    rubric: flags.rubric,
    ...(typeof flags.judge === 'string' && { judge: flags.judge }),
    ...(flags.judgeModel !== undefined && { model: String(flags.judgeModel) }),
    ...(flags.samples !== undefined && { samples: wholeNumber(flags, 'samples')! }),
    ...(flags.temperature !== undefined && {
      temperature: flags.temperature === 'none' ? null : numberOption(flags, 'temperature')!,
    }),
    ...(typeof flags.cassette === 'string' && { cassette: flags.cassette }),
    ...(mode !== undefined && { mode }),
    ...(flags.timeout !== undefined && { timeoutMs: wholeNumber(flags, 'timeout')! }),
    ...(flags.concurrency !== undefined && { concurrency: wholeNumber(flags, 'concurrency')! }),
    ...(flags.price !== undefined && { price: price(flags.price) }),
    ...(flags.json === true && { json: true }),
  };
}

function price(value: unknown): ModelPrice {
  const parts = String(value).split(',').map(Number);
  if (parts.length !== 2 || parts.some((n) => !Number.isFinite(n) || n < 0)) {
    throw new UsageError(
      `--price expects <input>,<output> in USD per 1M tokens, as 0.15,0.6; got ${String(value)}`,
    );
  }
  return { input: parts[0]!, output: parts[1]! };
}
