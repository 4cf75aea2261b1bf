import { createVerifierFromOptions } from '../../entailment/create.js';
import { NLI_MODEL_HINT } from '../../entailment/resolve.js';
import { UsageError } from '../../errors/index.js';
import { colors, type Io } from '../io.js';

export interface EntailOptions {
  premise: string;
  hypothesis: string;
  /** A model folder or `hf:<owner>/<name>[@revision]`; `NEEDLEWORK_NLI_MODEL` when left out. */
  model?: string;
  /** False bypasses the score cache. */
  cache?: boolean;
  threads?: number;
  quantized?: boolean;
  /** The prompt a consistency model was trained on, with `{premise}` and `{hypothesis}`. */
  prompt?: string;
  env?: Record<string, string | undefined>;
  /** The score cache's root folder. @default '.needlework/cache' */
  cacheRoot?: string;
}

/** Reads the command line's flags into `EntailOptions`; a malformed number is a usage error. */
export function entailOptions(
  premise: string,
  hypothesis: string,
  flags: Record<string, unknown>,
): EntailOptions {
  const threads = flags.threads === undefined ? undefined : Number(flags.threads);
  if (threads !== undefined && !(Number.isInteger(threads) && threads > 0)) {
    throw new UsageError(`--threads expects a positive integer, got "${String(flags.threads)}"`);
  }
  const prompt = flags.prompt === undefined ? undefined : String(flags.prompt);
  if (prompt !== undefined && !(prompt.includes('{premise}') && prompt.includes('{hypothesis}'))) {
    throw new UsageError(`--prompt must hold {premise} and {hypothesis}, got "${prompt}"`);
  }
  return {
    premise,
    hypothesis,
    ...(typeof flags.nliModel === 'string' ? { model: flags.nliModel } : {}),
    ...(prompt !== undefined ? { prompt } : {}),
    cache: flags.cache !== false,
    ...(threads !== undefined ? { threads } : {}),
    quantized: flags.quantized === true,
  };
}

/**
 * Scores one (premise, hypothesis) pair and prints the entailment probability, then every label's probability for
 * a multi-label model, so a user can see what the model makes of a citation before trusting it in CI.
 */
export async function runEntail(options: EntailOptions, io: Io): Promise<number> {
  const c = colors(io);
  const verifier = await createVerifierFromOptions({
    ...(options.model !== undefined ? { model: options.model } : {}),
    cache: options.cache !== false,
    ...(options.threads !== undefined ? { threads: options.threads } : {}),
    quantized: options.quantized === true,
    ...(options.prompt !== undefined ? { prompt: options.prompt } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.cacheRoot !== undefined ? { cacheRoot: options.cacheRoot } : {}),
  });
  if (!verifier) {
    throw new UsageError(`no model: ${NLI_MODEL_HINT}`);
  }
  const pair = { premise: options.premise, hypothesis: options.hypothesis };
  const [score] = await verifier.score([pair]);
  io.out(`${c.bold('entailment')} ${score!.toFixed(4)}`);
  const head = await verifier.head();
  if (head.kind === 'softmax') {
    const [labels] = await verifier.scoreLabels([pair]);
    const width = Math.max(...head.labels.map((l) => l.length));
    for (const label of head.labels) io.out(`  ${label.padEnd(width)} ${labels!.labels[label]!.toFixed(4)}`);
  } else {
    io.out(c.dim('  (a consistency model: one logit, read through a sigmoid)'));
  }
  io.out(
    c.dim(`model ${await verifier.modelPath()}${verifier.stats.cacheHits > 0 ? ' (score from cache)' : ''}`),
  );
  return 0;
}
