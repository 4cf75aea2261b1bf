import { createHash } from 'node:crypto';
import { UserError } from '../../errors/index.js';
import type { EntailmentPair, EntailmentVerifier } from '../../model/entailment.js';
import { ScoreCache } from '../cache/score-cache.js';
import { FEEDABLE_INPUTS, groupRows, padBatch, type TensorClass } from './batch.js';
import { type EncodedSequence, PairEncoder } from './encode.js';
import { type ExportFolder, readExportFolder } from './export-folder.js';
import { entailmentProbability, probabilities, type ScoreHead, scoreHead } from './head.js';
import { loadNliPeers } from './peers.js';
import { type InferenceSession, loadSession, modelHash, sha256File } from './session.js';

export interface OnnxNliOptions {
  /** Load `onnx/model_quantized.onnx` instead of the full-precision graph. @default false */
  quantized?: boolean;
  /** Rows per `session.run`. Larger batches amortise the call; rows are sorted by length so padding stays small. @default 16 */
  batchSize?: number;
  /** Threads one inference may use. @default onnxruntime's choice (the core count) */
  threads?: number;
  /** Longest row in tokens, special tokens included. @default model_max_length / max_position_embeddings */
  maxLength?: number;
  /** Tokens shared by consecutive windows of a long premise. @default a quarter of the window */
  windowOverlap?: number;
  /**
   * The prompt a consistency model was trained on, with `{premise}` and `{hypothesis}` (HHEM-2.1-Open needs its
   * own; see the README). @default none: the texts are a tokenizer pair, premise first, as NLI cross-encoders take them
   */
  prompt?: string;
  /** Keep scores on disk across runs. @default true */
  cache?: boolean;
  /** The cache's root folder; scores go under `<root>/entailment/`. @default '.needlework/cache' */
  cacheRoot?: string;
}

/** What a verifier has done so far: lets tests and benchmarks see cache hits and model calls. */
export interface VerifierStats {
  /** Pairs asked for. */
  pairs: number;
  /** Pairs answered from the disk cache. */
  cacheHits: number;
  /** Pairs with an empty premise or hypothesis, scored 0 without the model. */
  empty: number;
  /** Rows (pair windows) run through the model. */
  rows: number;
  /** Calls to `InferenceSession.run`. */
  sessionRuns: number;
  /** Cache writes that failed (a read-only or full disk); the scores were returned all the same. */
  cacheWriteErrors: number;
}

/** Every label's probability for one pair (the best window by entailment), for a human reading the model's view. */
export interface LabelScores {
  entailment: number;
  labels: Record<string, number>;
}

interface Loaded {
  folder: ExportFolder;
  session: InferenceSession;
  encoder: PairEncoder;
  /** onnxruntime's Tensor class, from the optional peer the session was loaded with. */
  tensor: TensorClass;
  head: ScoreHead;
  inputs: string[];
  output: string;
  fingerprint: string;
}

/**
 * The shipped `EntailmentVerifier`: a cross-encoder NLI model (or a single-score consistency model) in the Hugging
 * Face ONNX export layout, run by onnxruntime-node on the CPU. Loading is lazy (the first `score` call, or `load()`
 * to fail early), and the session is shared with every other verifier of the same model file in the process.
 */
export class OnnxNliVerifier implements EntailmentVerifier {
  readonly dir: string;
  readonly stats: VerifierStats = {
    pairs: 0,
    cacheHits: 0,
    empty: 0,
    rows: 0,
    sessionRuns: 0,
    cacheWriteErrors: 0,
  };
  private readonly options: OnnxNliOptions;
  private readonly cache: ScoreCache | undefined;
  private loaded: Promise<Loaded> | undefined;

  constructor(dir: string, options: OnnxNliOptions = {}) {
    this.dir = dir;
    this.options = options;
    const batchSize = options.batchSize ?? 16;
    if (!Number.isInteger(batchSize) || batchSize < 1) {
      throw new TypeError(`OnnxNliVerifier: batchSize must be a positive integer, got ${batchSize}`);
    }
    this.cache = options.cache === false ? undefined : new ScoreCache(options.cacheRoot);
  }

  /** Loads the model now (instead of on the first `score`), so a bad export fails before any test runs. */
  static async load(dir: string, options: OnnxNliOptions = {}): Promise<OnnxNliVerifier> {
    const verifier = new OnnxNliVerifier(dir, options);
    await verifier.ready();
    return verifier;
  }

  /** The model's labels in logit order, and how they become a score. */
  async head(): Promise<ScoreHead> {
    return (await this.model()).head;
  }

  /** The model file in use (after resolving `model.onnx` against `onnx/model*.onnx`). */
  async modelPath(): Promise<string> {
    return (await this.model()).folder.modelPath;
  }

  /** Resolves once the model is loaded and checked; rejects with the `UserError` a bad export raises. */
  async ready(): Promise<void> {
    await this.model();
  }

  private model(): Promise<Loaded> {
    if (!this.loaded) {
      this.loaded = load(this.dir, this.options);
      this.loaded.catch(() => {
        this.loaded = undefined;
      });
    }
    return this.loaded;
  }

  async score(pairs: readonly EntailmentPair[]): Promise<number[]> {
    this.stats.pairs += pairs.length;
    const scores = new Array<number>(pairs.length).fill(0);
    const todo: number[] = [];
    for (const [i, pair] of pairs.entries()) {
      // Nothing entails an empty claim, and an empty source supports nothing.
      if (pair.premise.trim() === '' || pair.hypothesis.trim() === '') this.stats.empty++;
      else todo.push(i);
    }
    if (todo.length === 0) return scores;
    const model = await this.model();

    const keys = new Map<number, string>();
    let missing = todo;
    if (this.cache) {
      const cache = this.cache;
      for (const i of todo)
        keys.set(i, ScoreCache.key(model.fingerprint, pairs[i]!.premise, pairs[i]!.hypothesis));
      cache.refresh();
      missing = [];
      for (const i of todo) {
        const hit = cache.get(keys.get(i)!);
        if (hit === undefined) missing.push(i);
        else {
          scores[i] = hit;
          this.stats.cacheHits++;
        }
      }
    }
    if (missing.length === 0) return scores;

    // The same pair asked twice in one call is run once.
    const unique = new Map<string, number[]>();
    for (const i of missing) {
      const id = `${pairs[i]!.premise.length}:${pairs[i]!.premise}\u0000${pairs[i]!.hypothesis}`;
      const group = unique.get(id);
      if (group) group.push(i);
      else unique.set(id, [i]);
    }
    const groups = [...unique.values()];
    const best = await this.run(
      model,
      groups.map((g) => pairs[g[0]!]!),
    );
    const fresh: Array<[string, number]> = [];
    for (const [g, group] of groups.entries()) {
      const value = best[g]!.score;
      for (const i of group) scores[i] = value;
      if (this.cache) fresh.push([keys.get(group[0]!)!, value]);
    }
    try {
      this.cache?.add(fresh);
    } catch {
      // The cache only saves time: a read-only or full disk must not fail the scoring it would have sped up.
      this.stats.cacheWriteErrors++;
    }
    return scores;
  }

  /**
   * Every label's probability per pair, uncached (for the `entail` command and for debugging a score). For a
   * windowed premise, the window with the highest entailment probability is reported.
   */
  async scoreLabels(pairs: readonly EntailmentPair[]): Promise<LabelScores[]> {
    const model = await this.model();
    const names = model.head.kind === 'sigmoid' ? ['entailment'] : model.head.labels;
    const results: LabelScores[] = pairs.map(() => ({
      entailment: 0,
      labels: Object.fromEntries(names.map((n) => [n, 0])),
    }));
    const todo = pairs.flatMap((p, i) => (p.premise.trim() === '' || p.hypothesis.trim() === '' ? [] : [i]));
    const best = await this.run(
      model,
      todo.map((i) => pairs[i]!),
    );
    for (const [n, i] of todo.entries()) {
      const probs = best[n]!.probs;
      results[i] = {
        entailment: best[n]!.score,
        labels: Object.fromEntries(names.map((name, k) => [name, probs[k] ?? 0])),
      };
    }
    return results;
  }

  /** Encodes, batches and runs the pairs; each pair gets its best window's score and label probabilities. */
  private async run(
    model: Loaded,
    pairs: readonly EntailmentPair[],
  ): Promise<Array<{ score: number; probs: number[] }>> {
    const best = pairs.map(() => ({ score: -1, probs: [] as number[] }));
    const rows: EncodedSequence[] = [];
    for (const [i, pair] of pairs.entries())
      rows.push(...model.encoder.encodePair(i, pair.premise, pair.hypothesis));
    const width = model.head.kind === 'sigmoid' ? 1 : model.head.labels.length;
    // Tensors are built one batch at a time: a whole run's would hold every padded row in memory at once.
    for (const group of groupRows(rows, this.options.batchSize ?? 16)) {
      const batch = { rows: group, feeds: padBatch(group, model.inputs, model.encoder.padId, model.tensor) };
      this.stats.sessionRuns++;
      this.stats.rows += batch.rows.length;
      const out = await model.session.run(batch.feeds);
      const logits = out[model.output]!;
      const data = logits.data as Float32Array;
      const rowWidth = logits.dims[logits.dims.length - 1];
      if (rowWidth !== width || data.length !== batch.rows.length * width) {
        throw new UserError({
          file: model.folder.modelPath,
          message: `output "${model.output}" has shape [${logits.dims.join(', ')}]; expected [${batch.rows.length}, ${width}] as config.json's id2label implies`,
        });
      }
      for (const [r, row] of batch.rows.entries()) {
        const score = entailmentProbability(model.head, data, r * width);
        const slot = best[row.pair]!;
        if (score > slot.score) {
          slot.score = score;
          slot.probs = probabilities(model.head, data, r * width);
        }
      }
    }
    return best;
  }
}

async function load(dir: string, options: OnnxNliOptions): Promise<Loaded> {
  const folder = await readExportFolder(dir, { quantized: options.quantized === true });
  const encoder = await PairEncoder.create(folder, {
    ...(options.maxLength !== undefined ? { maxLength: options.maxLength } : {}),
    ...(options.windowOverlap !== undefined ? { windowOverlap: options.windowOverlap } : {}),
    ...(options.prompt !== undefined ? { prompt: options.prompt } : {}),
  });
  const session = await loadSession(
    folder.modelPath,
    options.threads !== undefined ? { threads: options.threads } : {},
  );
  const unknown = session.inputNames.filter((name) => !(FEEDABLE_INPUTS as readonly string[]).includes(name));
  if (unknown.length > 0 || !session.inputNames.includes('input_ids')) {
    const what =
      unknown.length > 0
        ? `graph input${unknown.length === 1 ? '' : 's'} ${unknown.map((n) => `"${n}"`).join(', ')} cannot be fed`
        : 'the graph has no "input_ids" input';
    throw new UserError({
      file: folder.modelPath,
      message: `${what}: needlework feeds only ${FEEDABLE_INPUTS.join(', ')} (a sequence-classification export)`,
    });
  }
  for (const meta of session.inputMetadata) {
    if (meta.isTensor && meta.type !== 'int64') {
      throw new UserError({
        file: folder.modelPath,
        message: `graph input "${meta.name}" is ${meta.type}: needlework feeds int64 token ids and masks, as Hugging Face exports declare them`,
      });
    }
  }
  const output = session.outputNames.includes('logits')
    ? 'logits'
    : session.outputNames.length === 1
      ? session.outputNames[0]!
      : undefined;
  if (output === undefined) {
    throw new UserError({
      file: folder.modelPath,
      message: `no "logits" output (found ${session.outputNames.join(', ')}): expected a sequence-classification export`,
    });
  }
  const meta = session.outputMetadata.find((m) => m.name === output);
  const last = meta?.isTensor ? meta.shape[meta.shape.length - 1] : undefined;
  const head = scoreHead(folder.config, folder.configPath, typeof last === 'number' ? last : undefined);
  const [modelSha, tokenizerSha] = await Promise.all([
    modelHash(folder.modelPath),
    sha256File(folder.tokenizerPath),
  ]);
  // Everything that changes a score for the same text: weights, tokenizer, label reading, windowing and prompt.
  const fingerprint = createHash('sha256')
    .update(
      JSON.stringify({
        model: modelSha,
        tokenizer: tokenizerSha,
        head,
        maxLength: encoder.maxLength,
        overlap: options.windowOverlap ?? null,
        prompt: options.prompt ?? null,
      }),
    )
    .digest('hex');
  const { ort } = await loadNliPeers();
  return {
    folder,
    session,
    encoder,
    tensor: ort.Tensor,
    head,
    inputs: [...session.inputNames],
    output,
    fingerprint,
  };
}
