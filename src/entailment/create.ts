import type { ProgressStream } from './hub/progress.js';
import { loadNliPeers } from './onnx/peers.js';
import { type OnnxNliOptions, OnnxNliVerifier } from './onnx/verifier.js';
import { resolveModel } from './resolve.js';

/** The entailment settings a command line or a config file gives (`--nli-model`, `--no-cache`, `--threads`). */
export interface VerifierOptions {
  /** A model folder or `hf:<owner>/<name>[@revision]`; `NEEDLEWORK_NLI_MODEL` when left out. */
  model?: string;
  /** False bypasses the score cache (`--no-cache`). @default true */
  cache?: boolean;
  /** Threads one inference may use. @default onnxruntime's choice */
  threads?: number;
  /** Use the quantized graph (`onnx/model_quantized.onnx`). @default false */
  quantized?: boolean;
  /** The prompt a consistency model was trained on, with `{premise}` and `{hypothesis}`. @default none */
  prompt?: string;
  /** Rows per inference call. @default 16 */
  batchSize?: number;
  /** The score cache's root folder. @default '.needlework/cache' */
  cacheRoot?: string;
  /** Where `NEEDLEWORK_NLI_MODEL`, `HF_ENDPOINT` and `XDG_CACHE_HOME` are read. @default process.env */
  env?: Record<string, string | undefined>;
  /** Where a Hub download draws its progress bar. @default process.stderr */
  progress?: ProgressStream;
}

/**
 * The verifier `run --entail`, `score --entail` and `entail` use: the model named by `options.model` or
 * `NEEDLEWORK_NLI_MODEL` (downloaded first when it is an `hf:` reference), loaded and checked now so a bad export
 * fails before any test runs; undefined when no model is configured anywhere, so entailment is off by default.
 */
export async function createVerifierFromOptions(
  options: VerifierOptions = {},
): Promise<OnnxNliVerifier | undefined> {
  // Before the model: a missing runtime should not cost the user a model download first.
  await loadNliPeers();
  const dir = await resolveModel(options.model, {
    ...(options.env ? { env: options.env } : {}),
    ...(options.progress ? { progress: options.progress } : {}),
    quantized: options.quantized === true,
  });
  if (dir === undefined) return undefined;
  const settings: OnnxNliOptions = {
    cache: options.cache !== false,
    quantized: options.quantized === true,
    ...(options.threads !== undefined ? { threads: options.threads } : {}),
    ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
    ...(options.prompt !== undefined ? { prompt: options.prompt } : {}),
    ...(options.cacheRoot !== undefined ? { cacheRoot: options.cacheRoot } : {}),
  };
  return OnnxNliVerifier.load(dir, settings);
}
