import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCli } from '../../src/cli/cli.js';
import { entailOptions, runEntail } from '../../src/cli/commands/entail.js';
import { createVerifierFromOptions } from '../../src/entailment/create.js';
import { UsageError, UserError } from '../../src/errors/index.js';
import { captureIo } from '../helpers/io.js';
import { useTmpDir } from '../helpers/tmp.js';
import { writeTinyModel } from './helpers/tiny-model.mjs';

const tmp = useTmpDir();

describe('needlework entail', () => {
  it('prints the entailment probability and every label probability of a three-label model', async () => {
    const root = await tmp();
    const dir = await writeTinyModel(join(root, 'model'));
    const io = captureIo();
    const code = await runEntail(
      { premise: 'yes', hypothesis: 'cat', model: dir, cache: false, env: {} },
      io,
    );
    expect(code).toBe(0);
    // logits [-1.5, 0, 1.6] (see onnx-verifier.test.ts): softmax 0.0361, 0.1619, 0.8020.
    expect(io.stdout()).toBe(
      [
        'entailment 0.8020',
        '  contradiction 0.0361',
        '  neutral       0.1619',
        '  entailment    0.8020',
        `model ${join(dir, 'model.onnx')}`,
      ].join('\n'),
    );
  });

  it('says when a single-logit model is read as a consistency score, and when the score came from the cache', async () => {
    const root = await tmp();
    const dir = await writeTinyModel(join(root, 'model'), { labels: 1, tokenTypeIds: false });
    const options = { premise: 'no', hypothesis: 'cat', model: dir, env: {}, cacheRoot: join(root, 'cache') };
    const first = captureIo();
    await runEntail(options, first);
    // sigmoid(-8 / 5)
    expect(first.stdout()).toBe(
      [
        'entailment 0.1680',
        '  (a consistency model: one logit, read through a sigmoid)',
        `model ${join(dir, 'model.onnx')}`,
      ].join('\n'),
    );
    const second = captureIo();
    await runEntail(options, second);
    expect(second.stdout().split('\n')[2]).toBe(`model ${join(dir, 'model.onnx')} (score from cache)`);
  });

  it('is a usage error without a model anywhere', async () => {
    await expect(runEntail({ premise: 'a', hypothesis: 'b', env: {} }, captureIo())).rejects.toThrow(
      new UsageError('no model: give --nli-model <dir|hf:owner/name> or set NEEDLEWORK_NLI_MODEL'),
    );
  });

  it('reports a model folder that does not exist as a user error', async () => {
    const dir = join(await tmp(), 'missing');
    await expect(
      runEntail({ premise: 'a', hypothesis: 'b', model: dir, env: {} }, captureIo()),
    ).rejects.toThrow(UserError);
  });

  it('parses its flags: --nli-model, --no-cache, --threads, --quantized', () => {
    const cli = createCli(captureIo());
    cli.parse(
      ['node', 'needlework', 'entail', 'p', 'h', '--nli-model', 'hf:a/b', '--no-cache', '--threads', '2'],
      {
        run: false,
      },
    );
    expect(cli.matchedCommandName).toBe('entail');
    expect(entailOptions('p', 'h', cli.options)).toEqual({
      premise: 'p',
      hypothesis: 'h',
      model: 'hf:a/b',
      cache: false,
      threads: 2,
      quantized: false,
    });
    // The flag's old name still works: `entail` has no other model.
    cli.parse(['node', 'needlework', 'entail', 'p', 'h', '--model', 'old/dir'], { run: false });
    expect(entailOptions('p', 'h', cli.options).model).toBe('old/dir');
    expect(entailOptions('p', 'h', { prompt: 'P: {premise} H: {hypothesis}' }).prompt).toBe(
      'P: {premise} H: {hypothesis}',
    );
    expect(() => entailOptions('p', 'h', { prompt: 'P: {premise}' })).toThrow(
      new UsageError('--prompt must hold {premise} and {hypothesis}, got "P: {premise}"'),
    );
    expect(() => entailOptions('p', 'h', { threads: 'many' })).toThrow(
      new UsageError('--threads expects a positive integer, got "many"'),
    );
  });
});

describe('createVerifierFromOptions', () => {
  it('is undefined when no model is configured, so entailment stays off by default', async () => {
    expect(await createVerifierFromOptions({ env: {} })).toBeUndefined();
  });

  it('loads the model NEEDLEWORK_NLI_MODEL names, with the cache under the given root', async () => {
    const root = await tmp();
    const dir = await writeTinyModel(join(root, 'model'));
    const cacheRoot = join(root, 'cache');
    const v = await createVerifierFromOptions({ env: { NEEDLEWORK_NLI_MODEL: dir }, cacheRoot, threads: 1 });
    await v!.score([{ premise: 'yes', hypothesis: 'cat' }]);
    const again = await createVerifierFromOptions({ model: dir, cacheRoot });
    await again!.score([{ premise: 'yes', hypothesis: 'cat' }]);
    expect(again!.stats).toMatchObject({ cacheHits: 1, sessionRuns: 0 });
    const uncached = await createVerifierFromOptions({ model: dir, cacheRoot, cache: false });
    await uncached!.score([{ premise: 'yes', hypothesis: 'cat' }]);
    expect(uncached!.stats).toMatchObject({ cacheHits: 0, sessionRuns: 1 });
  });
});
