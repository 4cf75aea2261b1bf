import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../../errors/index.js';

/** The files of a Hugging Face ONNX export, read and checked. */
export interface ExportFolder {
  dir: string;
  /** The ONNX graph to load: `model.onnx`, `onnx/model.onnx`, or `onnx/model_quantized.onnx` on request. */
  modelPath: string;
  tokenizerPath: string;
  tokenizerJson: Record<string, unknown>;
  tokenizerConfigPath: string;
  tokenizerConfig: Record<string, unknown>;
  configPath: string;
  config: Record<string, unknown>;
}

export interface ExportFolderOptions {
  /** Load `onnx/model_quantized.onnx` (int8, about 4x smaller and faster on CPU, slightly less accurate). */
  quantized?: boolean;
}

/**
 * Where the graph of an export stands. Optimum and Transformers.js exports put it under `onnx/`, older ones at the
 * top; the quantized variant only exists under `onnx/`.
 */
export function modelCandidates(quantized: boolean): string[] {
  return quantized
    ? ['onnx/model_quantized.onnx', 'model_quantized.onnx']
    : ['model.onnx', 'onnx/model.onnx'];
}

/**
 * Reads an export folder. Every file it needs must be there; a missing or unreadable one is a `UserError` naming the
 * file and what it should hold, so a half-copied export is caught before any model is loaded.
 */
export async function readExportFolder(
  dir: string,
  options: ExportFolderOptions = {},
): Promise<ExportFolder> {
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new UserError({
      file: dir,
      message:
        'no such model folder (expected a Hugging Face ONNX export: model.onnx or onnx/model.onnx, tokenizer.json, tokenizer_config.json, config.json)',
    });
  }
  const candidates = modelCandidates(options.quantized === true);
  let modelPath: string | undefined;
  for (const candidate of candidates) {
    const found = await stat(join(dir, candidate)).catch(() => undefined);
    if (found?.isFile()) {
      modelPath = join(dir, candidate);
      break;
    }
  }
  if (!modelPath) {
    throw new UserError({
      file: join(dir, candidates[0]!),
      message: `missing ONNX model (looked for ${candidates.join(' and ')})`,
    });
  }
  const tokenizerPath = join(dir, 'tokenizer.json');
  const tokenizerConfigPath = join(dir, 'tokenizer_config.json');
  const configPath = join(dir, 'config.json');
  const [tokenizerJson, tokenizerConfig, config] = await Promise.all([
    readJsonObject(tokenizerPath, 'the tokenizer (a tokenizers library tokenizer.json)'),
    readJsonObject(tokenizerConfigPath, 'the tokenizer settings (special tokens, model_max_length)'),
    readJsonObject(configPath, 'the model config (id2label)'),
  ]);
  return {
    dir,
    modelPath,
    tokenizerPath,
    tokenizerJson,
    tokenizerConfigPath,
    tokenizerConfig,
    configPath,
    config,
  };
}

/**
 * A JSON object from disk. Plain `JSON.parse`, not the project's lossless parser: tokenizer files run to megabytes of
 * float scores, and nothing in them needs integers past 2^53.
 */
async function readJsonObject(file: string, holds: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new UserError({ file, message: `missing file: expected ${holds}` });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UserError({ file, message: `not valid JSON (${(error as Error).message}): expected ${holds}` });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new UserError({ file, message: `expected a JSON object holding ${holds}` });
  }
  return value as Record<string, unknown>;
}
