import { describe, expect, it } from 'vitest';
import { maxLengthOf, PairEncoder } from '../../src/entailment/onnx/encode.js';
import type { ExportFolder } from '../../src/entailment/onnx/export-folder.js';
import { tokenizerJson, vocabulary } from './helpers/tiny-model.mjs';

const id = (token: string) => vocabulary().indexOf(token);

function folder(
  overrides: { tokenizer?: Record<string, unknown>; tokenizerConfig?: object; config?: object } = {},
) {
  return {
    dir: '/m',
    modelPath: '/m/model.onnx',
    tokenizerPath: '/m/tokenizer.json',
    tokenizerJson: { ...tokenizerJson(), ...overrides.tokenizer },
    tokenizerConfigPath: '/m/tokenizer_config.json',
    tokenizerConfig: { model_max_length: 512, pad_token: '[PAD]', ...overrides.tokenizerConfig },
    configPath: '/m/config.json',
    config: { ...overrides.config },
  } as ExportFolder;
}

describe('PairEncoder', () => {
  it('lays out a pair as the tokenizer post-processor does: [CLS] A [SEP] B [SEP], B with type 1', async () => {
    const [row] = (await PairEncoder.create(folder())).encodePair(0, 'the cat', 'a dog');
    expect(row!.ids).toEqual([
      id('[CLS]'),
      id('the'),
      id('cat'),
      id('[SEP]'),
      id('a'),
      id('dog'),
      id('[SEP]'),
    ]);
    expect(row!.typeIds).toEqual([0, 0, 0, 0, 1, 1, 1]);
  });

  it('follows a RoBERTa post-processor: <s> A </s></s> B </s>', async () => {
    const roberta = { type: 'RobertaProcessing', sep: ['[SEP]', 3], cls: ['[CLS]', 2] };
    const [row] = (await PairEncoder.create(folder({ tokenizer: { post_processor: roberta } }))).encodePair(
      0,
      'cat',
      'dog',
    );
    expect(row!.ids).toEqual([id('[CLS]'), id('cat'), id('[SEP]'), id('[SEP]'), id('dog'), id('[SEP]')]);
  });

  it('joins the two texts bare when the tokenizer has no post-processor', async () => {
    const [row] = (await PairEncoder.create(folder({ tokenizer: { post_processor: null } }))).encodePair(
      0,
      'cat',
      'dog',
    );
    expect(row!.ids).toEqual([id('cat'), id('dog')]);
  });

  it('cuts a long premise into overlapping windows that cover it to the end, each with the whole hypothesis', async () => {
    // Limit 10: 3 special tokens and a 1-token hypothesis leave windows of 6, overlapping by 2.
    const encoder = await PairEncoder.create(folder({ tokenizerConfig: { model_max_length: 10 } }), {
      windowOverlap: 2,
    });
    const premise = 'the cat sat on the mat and the dog ran in the park';
    const rows = encoder.encodePair(3, premise, 'yes');
    const premiseIds = encoder.tokenize(premise);
    const windows = rows.map((row) => row.ids.slice(1, row.ids.indexOf(id('[SEP]'))));
    expect(windows).toEqual([premiseIds.slice(0, 6), premiseIds.slice(4, 10), premiseIds.slice(7, 13)]);
    for (const row of rows) {
      expect(row.pair).toBe(3);
      expect(row.ids.length).toBeLessThanOrEqual(10);
      expect(row.ids.slice(-2)).toEqual([id('yes'), id('[SEP]')]);
    }
  });

  it('truncates a hypothesis that would take more than half the room', async () => {
    const encoder = await PairEncoder.create(folder({ tokenizerConfig: { model_max_length: 13 } }));
    const [row] = encoder.encodePair(0, 'cat', 'the cat sat on the mat and the dog ran');
    // Room 10: the hypothesis keeps 5 tokens.
    expect(row!.ids).toEqual([
      id('[CLS]'),
      id('cat'),
      id('[SEP]'),
      ...['the', 'cat', 'sat', 'on', 'the'].map(id),
      id('[SEP]'),
    ]);
  });
});

describe('maxLengthOf', () => {
  it('takes the smaller of model_max_length and max_position_embeddings', () => {
    expect(
      maxLengthOf(
        folder({ tokenizerConfig: { model_max_length: 256 }, config: { max_position_embeddings: 512 } }),
      ),
    ).toBe(256);
  });

  it('ignores the "no limit" sentinel tokenizer configs write, and keeps RoBERTa padding positions out', () => {
    expect(
      maxLengthOf(
        folder({
          tokenizerConfig: { model_max_length: 1e30 },
          config: { model_type: 'xlm-roberta', max_position_embeddings: 514 },
        }),
      ),
    ).toBe(512);
  });

  it('is 512 when neither file says', () => {
    expect(maxLengthOf(folder({ tokenizerConfig: { model_max_length: undefined } }))).toBe(512);
  });
});
