// Builds tiny ONNX models with the Hugging Face sequence-classification I/O contract (input_ids, attention_mask,
// optionally token_type_ids -> logits), plus the tokenizer and config files of an export folder. Plain ESM so the
// benchmark (bench/entailment.bench.mjs) can build the same models as the tests without a TypeScript step.
//
// The graph: input_ids -> Gather(embedding) [+ Gather(type embedding)] -> optional hidden layers (MatMul) ->
// masked mean over the sequence (Mul by attention_mask, ReduceSum, Div by the mask's sum, so padding cannot change the
// result) -> MatMul(head) -> logits [batch, labels].
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import protobuf from 'protobufjs';

// The subset of onnx.proto (proto2, field numbers as upstream) needed to write a model.
const ONNX_PROTO = `
syntax = "proto2";
package onnx;
message AttributeProto {
  optional string name = 1;
  optional float f = 2;
  optional int64 i = 3;
  optional bytes s = 4;
  optional TensorProto t = 5;
  repeated float floats = 7;
  repeated int64 ints = 8;
  optional int32 type = 20;
}
message ValueInfoProto {
  optional string name = 1;
  optional TypeProto type = 2;
}
message NodeProto {
  repeated string input = 1;
  repeated string output = 2;
  optional string name = 3;
  optional string op_type = 4;
  repeated AttributeProto attribute = 5;
  optional string domain = 7;
}
message ModelProto {
  optional int64 ir_version = 1;
  optional string producer_name = 2;
  optional GraphProto graph = 7;
  repeated OperatorSetIdProto opset_import = 8;
}
message GraphProto {
  repeated NodeProto node = 1;
  optional string name = 2;
  repeated TensorProto initializer = 5;
  repeated ValueInfoProto input = 11;
  repeated ValueInfoProto output = 12;
}
message TensorProto {
  repeated int64 dims = 1;
  optional int32 data_type = 2;
  repeated int64 int64_data = 7 [packed = true];
  optional string name = 8;
  optional bytes raw_data = 9;
}
message TensorShapeProto {
  message Dimension {
    oneof value {
      int64 dim_value = 1;
      string dim_param = 2;
    }
  }
  repeated Dimension dim = 1;
}
message TypeProto {
  message Tensor {
    optional int32 elem_type = 1;
    optional TensorShapeProto shape = 2;
  }
  optional Tensor tensor_type = 1;
}
message OperatorSetIdProto {
  optional string domain = 1;
  optional int64 version = 2;
}
`;

const FLOAT = 1;
const INT32 = 6;
const INT64 = 7;
const ATTR_INT = 2;
const { root } = protobuf.parse(ONNX_PROTO, { keepCase: true });
const ModelProto = root.lookupType('onnx.ModelProto');

/** Special tokens first, then the words the tests use. Words not listed here tokenize to [UNK]. */
export const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]'];
export const WORDS = [
  'the',
  'a',
  'is',
  'of',
  'in',
  'at',
  'and',
  'to',
  'on',
  'cat',
  'dog',
  'sat',
  'mat',
  'ran',
  'park',
  'halberd',
  'wren',
  'ash',
  'cell',
  'member',
  'compound',
  'alpha',
  'co',
  'located',
  'site',
  'filler',
  'word',
  'it',
  'share',
  'access',
  'kestrel',
  'group',
  'owns',
  'facility',
  'yes',
  'no',
  'maybe',
  '.',
  ',',
  '-',
];

/**
 * The per-word contribution to the logits in the model's canonical output order [contradiction, neutral, entailment]
 * (a single-logit model uses only the entailment component): "yes" pushes towards entailment, "no" towards
 * contradiction, "maybe" towards neutral; every other token is neutral ground (zero).
 */
const WORD_LOGITS = { yes: [-8, 0, 8], no: [8, 0, -8], maybe: [0, 8, 0] };

export function vocabulary() {
  return [...SPECIAL_TOKENS, ...WORDS];
}

function dims(shape) {
  return { dim: shape.map((d) => (typeof d === 'number' ? { dim_value: d } : { dim_param: d })) };
}

function valueInfo(name, elemType, shape) {
  return { name, type: { tensor_type: { elem_type: elemType, shape: dims(shape) } } };
}

function floatTensor(name, shape, values) {
  const data = Float32Array.from(values);
  return { name, dims: shape, data_type: FLOAT, raw_data: new Uint8Array(data.buffer) };
}

function int64Tensor(name, values) {
  return { name, dims: [values.length], data_type: INT64, int64_data: values };
}

function node(op_type, input, output, attribute = []) {
  return { op_type, input, output, name: output[0], attribute };
}

/**
 * The bytes of a tiny sequence-classification model.
 * @param {object} [options]
 * @param {1 | 2 | 3} [options.labels] number of output logits (3: [contradiction, neutral, entailment]; 1: a
 *   consistency score; 2: [not entailment, entailment])
 * @param {boolean} [options.tokenTypeIds] whether the graph declares token_type_ids (BERT-like) or not (DistilBERT-like)
 * @param {string[]} [options.extraInputs] further int64 [batch, sequence] inputs the graph declares and uses
 * @param {boolean} [options.int32Mask] declare attention_mask as int32 (exports declare int64)
 * @param {number} [options.hidden] width of the hidden layers (default: the number of labels, no hidden layers)
 * @param {number} [options.layers] hidden MatMul layers applied to every token (for benchmark-sized compute)
 * @returns {Uint8Array}
 */
export function buildModelBytes(options = {}) {
  const labels = options.labels ?? 3;
  const tokenTypeIds = options.tokenTypeIds ?? true;
  const extraInputs = options.extraInputs ?? [];
  const maskType = options.int32Mask ? INT32 : INT64;
  const layers = options.layers ?? 0;
  const hidden = layers > 0 ? (options.hidden ?? 64) : labels;
  const vocab = vocabulary();

  // Token vectors live in the first `labels` components of a `hidden`-wide embedding; the hidden layers keep that
  // block as an identity so the toy semantics survive any depth.
  const canonical = (row) => (labels === 1 ? [row[2]] : labels === 2 ? [row[0], row[2]] : row);
  const embedding = [];
  for (const token of vocab) {
    const row = canonical(WORD_LOGITS[token] ?? [0, 0, 0]);
    for (let j = 0; j < hidden; j++)
      embedding.push(j < labels ? row[j] : 0.01 * (((j * 7 + token.length) % 5) - 2));
  }
  const initializer = [floatTensor('embedding', [vocab.length, hidden], embedding)];
  const inputs = [
    valueInfo('input_ids', INT64, ['batch_size', 'sequence_length']),
    valueInfo('attention_mask', maskType, ['batch_size', 'sequence_length']),
  ];
  const nodes = [node('Gather', ['embedding', 'input_ids'], ['tokens'])];
  let current = 'tokens';
  if (tokenTypeIds) {
    inputs.push(valueInfo('token_type_ids', INT64, ['batch_size', 'sequence_length']));
    // A small shift for the second segment: the model really reads the input, so a wrong feed would show.
    const types = [];
    for (let t = 0; t < 2; t++) for (let j = 0; j < hidden; j++) types.push(t === 1 && j === 0 ? 0.25 : 0);
    initializer.push(floatTensor('type_embedding', [2, hidden], types));
    nodes.push(node('Gather', ['type_embedding', 'token_type_ids'], ['types']));
    nodes.push(node('Add', [current, 'types'], ['typed']));
    current = 'typed';
  }
  for (const [k, name] of extraInputs.entries()) {
    inputs.push(valueInfo(name, INT64, ['batch_size', 'sequence_length']));
    initializer.push(floatTensor(`extra_${k}`, [1024, hidden], new Array(1024 * hidden).fill(0)));
    nodes.push(node('Gather', [`extra_${k}`, name], [`extra_${k}_vec`]));
    nodes.push(node('Add', [current, `extra_${k}_vec`], [`with_extra_${k}`]));
    current = `with_extra_${k}`;
  }
  for (let layer = 0; layer < layers; layer++) {
    const weights = [];
    for (let i = 0; i < hidden; i++) {
      for (let j = 0; j < hidden; j++) weights.push(i === j ? 1 : i >= labels && j >= labels ? 0.001 : 0);
    }
    initializer.push(floatTensor(`w${layer}`, [hidden, hidden], weights));
    nodes.push(node('MatMul', [current, `w${layer}`], [`h${layer}`]));
    current = `h${layer}`;
  }
  // Masked mean over the sequence.
  initializer.push(int64Tensor('axis_seq', [1]), int64Tensor('axis_last', [2]));
  nodes.push(
    node('Cast', ['attention_mask'], ['mask_f'], [{ name: 'to', type: ATTR_INT, i: FLOAT }]),
    node('Unsqueeze', ['mask_f', 'axis_last'], ['mask_3d']),
    node('Mul', [current, 'mask_3d'], ['masked']),
    node('ReduceSum', ['masked', 'axis_seq'], ['summed'], [{ name: 'keepdims', type: ATTR_INT, i: 0 }]),
    node('ReduceSum', ['mask_3d', 'axis_seq'], ['count'], [{ name: 'keepdims', type: ATTR_INT, i: 0 }]),
    node('Div', ['summed', 'count'], ['pooled']),
  );
  const head = [];
  for (let i = 0; i < hidden; i++) for (let j = 0; j < labels; j++) head.push(i === j ? 1 : 0);
  initializer.push(floatTensor('head', [hidden, labels], head));
  nodes.push(node('MatMul', ['pooled', 'head'], ['logits']));

  const model = {
    ir_version: 8,
    producer_name: 'needlework-tests',
    opset_import: [{ domain: '', version: 13 }],
    graph: {
      name: 'tiny-nli',
      node: nodes,
      initializer,
      input: inputs,
      output: [valueInfo('logits', FLOAT, ['batch_size', labels])],
    },
  };
  return ModelProto.encode(ModelProto.fromObject(model)).finish();
}

/** A WordPiece `tokenizer.json` over `vocabulary()`, BERT-style: lower-cased, [CLS] A [SEP] B [SEP]. */
export function tokenizerJson() {
  const vocab = Object.fromEntries(vocabulary().map((token, id) => [token, id]));
  const special = (content, id) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  const cls = { SpecialToken: { id: '[CLS]', type_id: 0 } };
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((t, i) => special(t, i)),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [cls, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [
        cls,
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab,
    },
  };
}

export const NLI_LABELS = { 0: 'contradiction', 1: 'neutral', 2: 'entailment' };

/**
 * Writes a Hugging Face export folder with a tiny model.
 * @param {string} dir the folder to create
 * @param {object} [options] buildModelBytes options, plus:
 * @param {'root' | 'onnx'} [options.layout] `model.onnx` at the top (default) or `onnx/model.onnx`
 * @param {boolean} [options.quantized] also write `onnx/model_quantized.onnx` (a single-logit variant, so a test can
 *   tell which file was loaded)
 * @param {Record<string, string> | null} [options.id2label] written to config.json (null leaves it out)
 * @param {number} [options.maxLength] tokenizer_config.json model_max_length
 * @returns {Promise<string>} dir
 */
export async function writeTinyModel(dir, options = {}) {
  const labels = options.labels ?? 3;
  await mkdir(join(dir, 'onnx'), { recursive: true });
  const bytes = buildModelBytes(options);
  const modelPath = options.layout === 'onnx' ? join(dir, 'onnx', 'model.onnx') : join(dir, 'model.onnx');
  await writeFile(modelPath, bytes);
  if (options.quantized) {
    await writeFile(join(dir, 'onnx', 'model_quantized.onnx'), buildModelBytes({ ...options, labels: 1 }));
  }
  const id2label =
    options.id2label !== undefined
      ? options.id2label
      : labels === 3
        ? NLI_LABELS
        : labels === 2
          ? { 0: 'not_entailment', 1: 'entailment' }
          : { 0: 'consistent' };
  const config = {
    model_type: 'bert',
    architectures: ['BertForSequenceClassification'],
    max_position_embeddings: 512,
    pad_token_id: 0,
    ...(id2label === null
      ? {}
      : {
          id2label,
          label2id: Object.fromEntries(Object.entries(id2label).map(([k, v]) => [v, Number(k)])),
        }),
  };
  await writeFile(join(dir, 'config.json'), JSON.stringify(config, null, 2));
  await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson()));
  await writeFile(
    join(dir, 'tokenizer_config.json'),
    JSON.stringify({
      tokenizer_class: 'BertTokenizer',
      do_lower_case: true,
      model_max_length: options.maxLength ?? 512,
      cls_token: '[CLS]',
      sep_token: '[SEP]',
      pad_token: '[PAD]',
      unk_token: '[UNK]',
      mask_token: '[UNK]',
    }),
  );
  return dir;
}
