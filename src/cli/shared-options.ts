import type { OptionSpec } from './command.js';
import { numberOption } from './options.js';

// Options more than one command takes, declared once.

export const STORE: OptionSpec = {
  flags: '--store <dir|url>',
  description:
    'The results store: a folder or postgres:// URL (default: NEEDLEWORK_STORE, else .needlework/store)',
};

export const NLI_MODEL: OptionSpec = {
  flags: '--nli-model, --model <dir|hf:owner/name>',
  description:
    'The NLI model: an ONNX export folder or a Hub model (default: NEEDLEWORK_NLI_MODEL; --model is its old name)',
};

export const NO_CACHE: OptionSpec = {
  flags: '--no-cache',
  description: 'Score entailment without reading or writing the cache (.needlework/cache/entailment)',
};

export const ENTAIL: OptionSpec = {
  flags: '--entail',
  description: 'Check citation precision with a local NLI model',
};

export const JUDGE: OptionSpec = {
  flags: '--judge <url|replay:file>',
  description:
    'The LLM judge: an OpenAI-compatible base URL, or replay:<cassette> (default: OPENAI_BASE_URL)',
};

export const JUDGE_TIMEOUT: OptionSpec = {
  flags: '--timeout <ms>',
  description: 'Time allowed per judge request, each of its retries waited for (default 60000)',
};

export const JSON_OUTPUT: OptionSpec = { flags: '--json', description: 'Print the results as JSON' };

export const SAMPLES: OptionSpec = {
  flags: '--samples <n>',
  description: 'Judge samples per rubric criterion; the median is the score (default 3)',
};

/** The regression gate's options, the same for `run` and `trend`. */
export const GATE: readonly OptionSpec[] = [
  {
    flags: '--baseline <store|file>',
    description:
      'Compare with the latest run of the same scope in this store or trend.json instead of the own baseline',
  },
  {
    flags: '--fail-on-regression',
    description: 'Exit 1 when something got worse than the baseline (failures the baseline had too pass)',
  },
  {
    flags: '--level <p>',
    description: 'The significance level of the exact test with repeated trials (default 0.05)',
  },
  {
    flags: '--tolerance <x>',
    description: 'How far a [0, 1] score may move (default 0.02); given, a score that fell past it regresses',
  },
  {
    flags: '--relative-tolerance <x>',
    description:
      'How far a metric with a unit may move, as a fraction (default 0.1); given, a worse move past it regresses',
  },
];

/** The gate's numbers as given, each checked as a number (its range is checked by the gate). */
export function gateNumbers(options: Record<string, unknown>) {
  const level = numberOption(options, 'level');
  const tolerance = numberOption(options, 'tolerance');
  const relativeTolerance = numberOption(options, 'relativeTolerance');
  return {
    ...(level !== undefined && { level }),
    ...(tolerance !== undefined && { tolerance }),
    ...(relativeTolerance !== undefined && { relativeTolerance }),
  };
}

/** The values of a repeatable option (cac gives one value as itself, several as an array), as strings. */
export function many(value: unknown): string[] {
  return (Array.isArray(value) ? value : value === undefined ? [] : [value]).map(String);
}

/** The entailment settings of `--entail`, `--nli-model` and `--no-cache`, or undefined without `--entail`. */
export function entailSettings(
  options: Record<string, unknown>,
): { model?: string; cache: boolean } | undefined {
  if (options['entail'] !== true) return undefined;
  return {
    ...(typeof options['nliModel'] === 'string' && { model: options['nliModel'] }),
    cache: options['cache'] !== false,
  };
}
