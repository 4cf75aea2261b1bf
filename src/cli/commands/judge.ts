import { formatDiagnostic, UsageError, UserError } from '../../errors/index.js';
import {
  type CassetteMode,
  createJudgeFromSpec,
  DEFAULT_JUDGE_MODEL,
  formatJudgeError,
  type ModelPrice,
} from '../../judge/index.js';
import type { RubricSpec } from '../../model/spec.js';
import { scoreRubric } from '../../rubric/score.js';
import type { CriterionScore, RubricScore, UsageTotals } from '../../rubric/types.js';
import { loadSpec } from '../../specs/load.js';
import { loadWorkups } from '../../workup/load.js';
import { colors, type Io } from '../io.js';

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
  /** Sampling temperature. @default 0 */
  temperature?: number;
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

  if (options.json) io.out(JSON.stringify(results, null, 2));
  else for (const result of results) printResult(result, spec, io);
  const c = colors(io);
  for (const failure of loaded.failures) {
    for (const diagnostic of failure.diagnostics) io.err(`${c.red('✗')} ${formatDiagnostic(diagnostic)}`);
  }
  return loaded.failures.length === 0 && results.length > 0 && results.every((r) => r.verdict === 'pass')
    ? 0
    : 1;
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
    ...(flags.model !== undefined && { model: String(flags.model) }),
    ...(flags.samples !== undefined && { samples: whole(flags.samples, '--samples', 1) }),
    ...(flags.temperature !== undefined && { temperature: number(flags.temperature, '--temperature') }),
    ...(typeof flags.cassette === 'string' && { cassette: flags.cassette }),
    ...(mode !== undefined && { mode }),
    ...(flags.timeout !== undefined && { timeoutMs: whole(flags.timeout, '--timeout', 1) }),
    ...(flags.concurrency !== undefined && { concurrency: whole(flags.concurrency, '--concurrency', 1) }),
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

function whole(value: unknown, flag: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new UsageError(`${flag} expects a whole number of at least ${min}, got ${String(value)}`);
  return n;
}

function number(value: unknown, flag: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0)
    throw new UsageError(`${flag} expects a non-negative number, got ${String(value)}`);
  return n;
}

function printResult(result: RubricScore, spec: RubricSpec, io: Io): void {
  const c = colors(io);
  const model = result.model !== undefined ? `model ${result.model}, ` : '';
  io.out(
    c.bold(`${spec.id} on ${result.workup}`) + c.dim(` (${model}${result.samples} samples per criterion)`),
  );
  const width = Math.max(...result.criteria.map((r) => r.criterion.length));
  for (const criterion of result.criteria) printCriterion(criterion, width, io);
  const total = result.total === null ? 'no total' : `total ${format(result.total)}`;
  const verdict =
    result.verdict === 'pass'
      ? c.green('pass')
      : result.verdict === 'fail'
        ? c.red('fail')
        : c.red('incomplete');
  io.out(`  ${total} against threshold ${format(result.threshold)}: ${verdict}`);
  io.out(c.dim(`  ${usageLine(result.usage)}`));
  io.out('');
}

function printCriterion(criterion: CriterionScore, width: number, io: Io): void {
  const c = colors(io);
  const name = criterion.criterion.padEnd(width);
  if (criterion.score === null) {
    io.out(`  ${c.red('!')} ${name}  ${c.red('no score')}`);
    if (criterion.error) io.out(indent(formatJudgeError(criterion.error), 6));
    return;
  }
  const mark = criterion.verdict === 'pass' ? c.green('✓') : c.red('✗');
  const agreement = criterion.agreement!;
  const valid =
    criterion.samplesValid < criterion.samplesRequested
      ? `, ${criterion.samplesValid} of ${criterion.samplesRequested} samples answered`
      : '';
  const detail = `agreement ${Math.round(agreement.agreement * 100)}%, spread ${format(agreement.spread)} [${agreement.scores.join(' ')}]${valid}`;
  io.out(
    `  ${mark} ${name}  ${format(criterion.score)} / 5 ${c.dim(`(threshold ${format(criterion.threshold)}; ${detail})`)}`,
  );
  if (criterion.rationale) io.out(c.dim(indent(criterion.rationale, 6)));
  for (const sample of criterion.samples) {
    if (!sample.ok) io.out(c.yellow(indent(`sample ${sample.sample + 1}: ${sample.error.message}`, 6)));
  }
}

/** `12 judgements (4 cached), 12 calls, 10200 input + 600 output tokens, $0.0042`. */
export function usageLine(usage: UsageTotals): string {
  const parts = [`${usage.requests} judgements${usage.cached > 0 ? ` (${usage.cached} cached)` : ''}`];
  parts.push(`${usage.calls} calls`);
  parts.push(
    usage.tokens ? `${usage.tokens.input} input + ${usage.tokens.output} output tokens` : 'tokens unknown',
  );
  parts.push(usage.costUsd !== undefined ? `$${usage.costUsd.toFixed(4)}` : 'cost unknown');
  return parts.join(', ');
}

function format(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(2);
}

function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  return text
    .split('\n')
    .map((line) => pad + line)
    .join('\n');
}
