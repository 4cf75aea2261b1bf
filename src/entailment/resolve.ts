import { homedir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_HF_ENDPOINT, downloadHubModel, parseHubRef } from './hub/hub.js';
import type { ProgressStream } from './hub/progress.js';

/** The environment variable that names the NLI model when no `--nli-model` is given. */
export const MODEL_ENV = 'NEEDLEWORK_NLI_MODEL';

/** How to name a model, for the message of every command and test that needs one and has none. */
export const NLI_MODEL_HINT = `give --nli-model <dir|hf:owner/name> or set ${MODEL_ENV}`;

export interface ResolveModelOptions {
  /** Where `NEEDLEWORK_NLI_MODEL`, `HF_ENDPOINT` and `XDG_CACHE_HOME` are read. @default process.env */
  env?: Record<string, string | undefined>;
  /** The folder Hub downloads go under. @default $XDG_CACHE_HOME/needlework/models or ~/.cache/needlework/models */
  cacheDir?: string;
  /** Download the quantized graph of a Hub model. @default false */
  quantized?: boolean;
  /** Where the download progress bar draws (only when it is a terminal). @default process.stderr */
  progress?: ProgressStream;
  /** Further attempts after a broken connection. @default 3 */
  retries?: number;
  fetch?: typeof fetch;
}

/** The user cache folder Hub models are downloaded into. */
export function modelCacheDir(env: Record<string, string | undefined> = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg && xdg !== '' ? xdg : join(homedir(), '.cache'), 'needlework', 'models');
}

/**
 * The local folder of the NLI model to use: `spec` (a folder, or `hf:<owner>/<name>[@revision]`, downloaded from
 * `HF_ENDPOINT` into the user cache folder), else `NEEDLEWORK_NLI_MODEL` (either form), else undefined: no model is
 * configured and entailment checks are off, which is the default.
 */
export async function resolveModel(
  spec?: string,
  options: ResolveModelOptions = {},
): Promise<string | undefined> {
  const env = options.env ?? process.env;
  const chosen = spec !== undefined && spec !== '' ? spec : env[MODEL_ENV];
  if (chosen === undefined || chosen === '') return undefined;
  if (!chosen.startsWith('hf:')) return chosen;
  const ref = parseHubRef(chosen);
  const [owner, name] = ref.repo.split('/') as [string, string];
  const dest = join(
    options.cacheDir ?? modelCacheDir(env),
    owner,
    name,
    ref.revision.replace(/[^\w.-]/g, '_'),
  );
  return downloadHubModel(ref, {
    endpoint: env.HF_ENDPOINT && env.HF_ENDPOINT !== '' ? env.HF_ENDPOINT : DEFAULT_HF_ENDPOINT,
    dest,
    quantized: options.quantized === true,
    progress: options.progress ?? process.stderr,
    ...(options.retries !== undefined ? { retries: options.retries } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
