import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSession } from '../../src/entailment/onnx/session.js';
import { OnnxNliVerifier } from '../../src/entailment/onnx/verifier.js';
import { UserError } from '../../src/errors/index.js';
import { useTmpDir } from '../helpers/tmp.js';
import { writeTinyModel } from './helpers/tiny-model.mjs';

const tmp = useTmpDir();

const softmax = (logits: number[]) => {
  const exps = logits.map((l) => Math.exp(l));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
};
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

// The tiny model's logits are the mean over the row of each token's vector ("yes" = [-8, 0, 8], other words 0) plus,
// when the graph has token_type_ids, 0.25 on the first logit for every second-segment token. For premise "yes" and
// hypothesis "cat" the row is [CLS] yes [SEP] cat [SEP] with types 0 0 0 1 1: logits [(-8 + 0.5) / 5, 0, 8 / 5].
const YES_CAT_TYPED = [-7.5 / 5, 0, 8 / 5];
const YES_CAT_UNTYPED = [-8 / 5, 0, 8 / 5];

async function verifier(options: Parameters<typeof writeTinyModel>[1] = {}, extra = {}) {
  const dir = await writeTinyModel(join(await tmp(), 'model'), options);
  return new OnnxNliVerifier(dir, { cache: false, ...extra });
}

async function userError(promise: Promise<unknown>): Promise<UserError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UserError);
  return error as UserError;
}

describe('OnnxNliVerifier: reading the model', () => {
  it('takes the softmax probability of the label config.json names entailment', async () => {
    const v = await verifier();
    const [score] = await v.score([{ premise: 'yes', hypothesis: 'cat' }]);
    expect(score).toBeCloseTo(softmax(YES_CAT_TYPED)[2]!, 6);
  });

  it('follows the label order of config.json: swapping id2label moves the score to the other logit', async () => {
    const v = await verifier({ id2label: { 0: 'ENTAILMENT', 1: 'NEUTRAL', 2: 'CONTRADICTION' } });
    const [score] = await v.score([{ premise: 'yes', hypothesis: 'cat' }]);
    expect(score).toBeCloseTo(softmax(YES_CAT_TYPED)[0]!, 6);
    expect(score).toBeLessThan(0.1);
  });

  it('feeds no token_type_ids to a graph that does not declare them (DistilBERT-like)', async () => {
    const v = await verifier({ tokenTypeIds: false });
    const [score] = await v.score([{ premise: 'yes', hypothesis: 'cat' }]);
    expect(score).toBeCloseTo(softmax(YES_CAT_UNTYPED)[2]!, 6);
  });

  it('reads a single-logit model as a consistency score through the sigmoid (HHEM, MiniCheck)', async () => {
    const v = await verifier({ labels: 1, tokenTypeIds: false });
    const [yes, no] = await v.score([
      { premise: 'yes', hypothesis: 'cat' },
      { premise: 'no', hypothesis: 'cat' },
    ]);
    expect(yes).toBeCloseTo(sigmoid(8 / 5), 6);
    expect(no).toBeCloseTo(sigmoid(-8 / 5), 6);
    expect((await v.head()).kind).toBe('sigmoid');
  });

  it('reads a two-label entailment / not_entailment model by name, not by the substring "entailment"', async () => {
    const v = await verifier({ labels: 2, tokenTypeIds: false });
    const [score] = await v.score([{ premise: 'yes', hypothesis: 'cat' }]);
    expect(score).toBeCloseTo(softmax([-8 / 5, 8 / 5])[1]!, 6);
  });

  it('finds onnx/model.onnx, and onnx/model_quantized.onnx when asked for the quantized graph', async () => {
    const dir = await writeTinyModel(join(await tmp(), 'model'), { layout: 'onnx', quantized: true });
    const full = new OnnxNliVerifier(dir, { cache: false });
    const quantized = new OnnxNliVerifier(dir, { cache: false, quantized: true });
    expect(await full.modelPath()).toBe(join(dir, 'onnx', 'model.onnx'));
    expect(await quantized.modelPath()).toBe(join(dir, 'onnx', 'model_quantized.onnx'));
    // The helper writes the quantized file as a single-logit variant, so the scores tell the files apart.
    expect((await quantized.head()).kind).toBe('sigmoid');
    expect((await full.head()).kind).toBe('softmax');
  });

  it('fills a prompt as one sequence when the model was trained on one (HHEM-style)', async () => {
    // [CLS] maybe yes cat [SEP], one segment: logits ([0, 8, 0] + [-8, 0, 8]) / 5.
    const v = await verifier({}, { prompt: '{premise} yes {hypothesis}' });
    const [score] = await v.score([{ premise: 'maybe', hypothesis: 'cat' }]);
    expect(score).toBeCloseTo(softmax([-8 / 5, 8 / 5, 8 / 5])[2]!, 6);
  });

  it('keeps the prompt in every window of a long premise', async () => {
    // maxLength 16: [CLS] no <premise window> cat [SEP] leaves 12 premise tokens per window.
    const v = await verifier({ maxLength: 16 }, { prompt: 'no {premise} {hypothesis}' });
    const filler = Array.from({ length: 40 }, () => 'filler').join(' ');
    const [long, window] = await v.score([
      { premise: `${filler} yes`, hypothesis: 'cat' },
      { premise: `${Array.from({ length: 11 }, () => 'filler').join(' ')} yes`, hypothesis: 'cat' },
    ]);
    expect(long).toBeCloseTo(window!, 6);
    expect(v.stats.rows).toBeGreaterThan(3);
  });

  it('rejects a prompt without both places', async () => {
    const v = await verifier({}, { prompt: 'Premise: {premise}' });
    await expect(v.ready()).rejects.toThrow(
      new TypeError('prompt must hold {premise} and {hypothesis} once each, got "Premise: {premise}"'),
    );
  });

  it('shares one session among all verifiers of a model file', async () => {
    const dir = await writeTinyModel(join(await tmp(), 'model'));
    const a = new OnnxNliVerifier(dir, { cache: false });
    const b = new OnnxNliVerifier(dir, { cache: false, batchSize: 4 });
    await Promise.all([a.ready(), b.ready()]);
    const path = await a.modelPath();
    expect(await loadSession(path)).toBe(await loadSession(path));
    expect(await loadSession(path, { threads: 1 })).not.toBe(await loadSession(path));
  });

  it('gives all label probabilities through scoreLabels', async () => {
    const v = await verifier();
    const [result] = await v.scoreLabels([{ premise: 'yes', hypothesis: 'cat' }]);
    const expected = softmax(YES_CAT_TYPED);
    expect(Object.keys(result!.labels)).toEqual(['contradiction', 'neutral', 'entailment']);
    expect(result!.labels.contradiction).toBeCloseTo(expected[0]!, 6);
    expect(result!.labels.neutral).toBeCloseTo(expected[1]!, 6);
    expect(result!.entailment).toBeCloseTo(expected[2]!, 6);
  });
});

describe('OnnxNliVerifier: batching and windows', () => {
  it('scores a pair the same alone and inside a padded batch of longer pairs', async () => {
    const v = await verifier({}, { batchSize: 8 });
    const pair = { premise: 'yes', hypothesis: 'cat' };
    const [alone] = await v.score([pair]);
    const long = 'the dog ran in the park and the cat sat on the mat';
    const batch = await v.score([
      { premise: long, hypothesis: 'no' },
      pair,
      { premise: `${long} ${long}`, hypothesis: 'maybe' },
      { premise: 'no', hypothesis: long },
    ]);
    expect(v.stats.sessionRuns).toBe(2);
    expect(batch[1]).toBeCloseTo(alone!, 6);
    expect(batch[0]).toBeLessThan(0.2);
  });

  it('gives the same scores whatever the batch size and the order of the pairs', async () => {
    const pairs = ['yes', 'no', 'maybe', 'the cat sat yes', 'no no yes', 'a dog'].map((premise, i) => ({
      premise,
      hypothesis: ['cat', 'the mat', 'yes'][i % 3]!,
    }));
    const one = await (await verifier({}, { batchSize: 1 })).score(pairs);
    const all = await (await verifier({}, { batchSize: 32 })).score([...pairs].reverse());
    for (const [i, score] of one.entries()) expect(all[pairs.length - 1 - i]).toBeCloseTo(score, 6);
  });

  it('cuts a premise longer than the model limit into windows and keeps the best one', async () => {
    // model_max_length 32: [CLS] premise [SEP] cat [SEP] leaves 28 premise tokens per window.
    const v = await verifier({ maxLength: 32 });
    const filler = (n: number) => Array.from({ length: n }, () => 'filler').join(' ');
    const [long, plain, lastWindow] = await v.score([
      { premise: `${filler(200)} yes`, hypothesis: 'cat' },
      { premise: filler(201), hypothesis: 'cat' },
      { premise: `${filler(27)} yes`, hypothesis: 'cat' },
    ]);
    // The supporting word is in the last window only; that window is scored exactly as the same text alone.
    expect(long).toBeCloseTo(lastWindow!, 6);
    expect(long).toBeGreaterThan(0.4);
    expect(plain).toBeCloseTo(1 / 3, 2);
    expect(v.stats.rows).toBeGreaterThan(10);
  });

  it('scores an empty claim or an empty source as unsupported without running the model', async () => {
    const v = await verifier();
    const scores = await v.score([
      { premise: '', hypothesis: 'cat' },
      { premise: 'yes', hypothesis: '   ' },
    ]);
    expect(scores).toEqual([0, 0]);
    expect(v.stats).toMatchObject({ empty: 2, sessionRuns: 0 });
  });

  it('rejects a batch size that is not a positive integer', () => {
    expect(() => new OnnxNliVerifier('x', { batchSize: 0 })).toThrow(
      'OnnxNliVerifier: batchSize must be a positive integer, got 0',
    );
  });
});

describe('OnnxNliVerifier: the score cache', () => {
  it('answers a second run from disk with no session call, and --no-cache runs the model again', async () => {
    const root = await tmp();
    const dir = await writeTinyModel(join(root, 'model'));
    const pairs = [
      { premise: 'yes', hypothesis: 'cat' },
      { premise: 'no', hypothesis: 'the mat' },
      { premise: 'the cat sat', hypothesis: 'maybe' },
    ];
    const cold = new OnnxNliVerifier(dir, { cacheRoot: join(root, 'cache') });
    const first = await cold.score(pairs);
    expect(cold.stats.sessionRuns).toBeGreaterThan(0);

    const warm = new OnnxNliVerifier(dir, { cacheRoot: join(root, 'cache') });
    expect(await warm.score(pairs)).toEqual(first);
    expect(warm.stats).toMatchObject({ sessionRuns: 0, cacheHits: 3 });

    const bypass = new OnnxNliVerifier(dir, { cacheRoot: join(root, 'cache'), cache: false });
    await bypass.score(pairs);
    expect(bypass.stats).toMatchObject({ sessionRuns: 1, cacheHits: 0 });
  });

  it('never serves one model the scores of another that reads its labels differently', async () => {
    const root = await tmp();
    const cacheRoot = join(root, 'cache');
    const normal = await writeTinyModel(join(root, 'a'));
    const swapped = await writeTinyModel(join(root, 'b'), {
      id2label: { 0: 'entailment', 1: 'neutral', 2: 'contradiction' },
    });
    const pair = [{ premise: 'yes', hypothesis: 'cat' }];
    const [a] = await new OnnxNliVerifier(normal, { cacheRoot }).score(pair);
    const other = new OnnxNliVerifier(swapped, { cacheRoot });
    const [b] = await other.score(pair);
    expect(other.stats.cacheHits).toBe(0);
    expect(b).not.toBeCloseTo(a!, 2);
  });

  it('still returns scores when the cache cannot be written', async () => {
    const root = await tmp();
    const dir = await writeTinyModel(join(root, 'model'));
    // A file where the cache folder should be: every write fails.
    await writeFile(join(root, 'blocked'), '');
    const v = new OnnxNliVerifier(dir, { cacheRoot: join(root, 'blocked') });
    const [score] = await v.score([{ premise: 'yes', hypothesis: 'cat' }]);
    expect(score).toBeCloseTo(softmax(YES_CAT_TYPED)[2]!, 6);
    expect(v.stats.cacheWriteErrors).toBe(1);
  });

  it('recomputes a damaged cache entry instead of trusting it', async () => {
    const root = await tmp();
    const dir = await writeTinyModel(join(root, 'model'));
    const cacheRoot = join(root, 'cache');
    const pair = [{ premise: 'yes', hypothesis: 'cat' }];
    const [score] = await new OnnxNliVerifier(dir, { cacheRoot }).score(pair);
    const { readdir } = await import('node:fs/promises');
    const pack = (await readdir(join(cacheRoot, 'entailment')))[0]!;
    await writeFile(join(cacheRoot, 'entailment', pack), `${'0'.repeat(64)}\t0.`);
    const again = new OnnxNliVerifier(dir, { cacheRoot });
    expect(await again.score(pair)).toEqual([score]);
    expect(again.stats.sessionRuns).toBe(1);
  });
});

describe('OnnxNliVerifier: bad exports', () => {
  it('names a missing model folder', async () => {
    const dir = join(await tmp(), 'nowhere');
    const error = await userError(new OnnxNliVerifier(dir).score([{ premise: 'a', hypothesis: 'b' }]));
    expect(error.message).toBe(
      `${dir}: no such model folder (expected a Hugging Face ONNX export: model.onnx or onnx/model.onnx, tokenizer.json, tokenizer_config.json, config.json)`,
    );
  });

  it('names the missing model file', async () => {
    const dir = await writeTinyModel(join(await tmp(), 'model'));
    await rm(join(dir, 'model.onnx'));
    const error = await userError(OnnxNliVerifier.load(dir));
    expect(error.message).toBe(
      `${join(dir, 'model.onnx')}: missing ONNX model (looked for model.onnx and onnx/model.onnx)`,
    );
  });

  it('names a missing tokenizer.json', async () => {
    const dir = await writeTinyModel(join(await tmp(), 'model'));
    await rm(join(dir, 'tokenizer.json'));
    const error = await userError(OnnxNliVerifier.load(dir));
    expect(error.message).toBe(
      `${join(dir, 'tokenizer.json')}: missing file: expected the tokenizer (a tokenizers library tokenizer.json)`,
    );
  });

  it('names a graph input it cannot feed', async () => {
    const dir = await writeTinyModel(join(await tmp(), 'model'), { extraInputs: ['position_ids'] });
    const error = await userError(OnnxNliVerifier.load(dir));
    expect(error.message).toBe(
      `${join(dir, 'model.onnx')}: graph input "position_ids" cannot be fed: needlework feeds only input_ids, attention_mask, token_type_ids (a sequence-classification export)`,
    );
  });

  it('names a graph input declared with a type other than int64', async () => {
    const dir = await writeTinyModel(join(await tmp(), 'model'), { int32Mask: true });
    const error = await userError(OnnxNliVerifier.load(dir));
    expect(error.message).toBe(
      `${join(dir, 'model.onnx')}: graph input "attention_mask" is int32: needlework feeds int64 token ids and masks, as Hugging Face exports declare them`,
    );
  });

  it('names config.json when id2label has no entailment label', async () => {
    const dir = await writeTinyModel(join(await tmp(), 'model'), {
      id2label: { 0: 'LABEL_0', 1: 'LABEL_1', 2: 'not_entailment' },
    });
    const error = await userError(OnnxNliVerifier.load(dir));
    expect(error.message).toBe(
      `${join(dir, 'config.json')}: id2label has no entailment label (found "LABEL_0", "LABEL_1", "not_entailment"; expected one named "entailment")`,
    );
  });

  it('names config.json when a multi-logit model has no id2label at all', async () => {
    const dir = await writeTinyModel(join(await tmp(), 'model'), { id2label: null });
    const error = await userError(OnnxNliVerifier.load(dir));
    expect(error.message).toMatch(new RegExp(`^${escapeRegExp(join(dir, 'config.json'))}: missing id2label`));
  });

  it('names a corrupt model file', async () => {
    const dir = await writeTinyModel(join(await tmp(), 'model'));
    await writeFile(join(dir, 'model.onnx'), 'this is not protobuf');
    const error = await userError(OnnxNliVerifier.load(dir));
    expect(error.message).toMatch(
      new RegExp(`^${escapeRegExp(join(dir, 'model.onnx'))}: not a loadable ONNX model \\(`),
    );
  });

  it('names a tokenizer_config.json that is not JSON', async () => {
    const dir = await writeTinyModel(join(await tmp(), 'model'));
    await writeFile(join(dir, 'tokenizer_config.json'), '{ nope');
    const error = await userError(OnnxNliVerifier.load(dir));
    expect(error.message).toMatch(
      new RegExp(`^${escapeRegExp(join(dir, 'tokenizer_config.json'))}: not valid JSON`),
    );
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
