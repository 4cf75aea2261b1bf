import type { Tensor } from 'onnxruntime-node';
import type { EncodedSequence } from './encode.js';

/** The inputs a Hugging Face sequence-classification export may declare; needlework feeds exactly these. */
export const FEEDABLE_INPUTS = ['input_ids', 'attention_mask', 'token_type_ids'] as const;
export type FeedableInput = (typeof FEEDABLE_INPUTS)[number];

/** onnxruntime's `Tensor` class, passed in because onnxruntime is an optional peer imported only when a model runs. */
export type TensorClass = typeof import('onnxruntime-node').Tensor;

/** A group of rows padded to one length, ready to run. */
export interface Batch {
  rows: EncodedSequence[];
  feeds: Record<string, Tensor>;
}

/**
 * Groups rows into batches of at most `size`, sorted by length so each batch pads to nearly its own rows' length
 * (padding is compute spent on nothing). Rows keep their `pair` index, so the order of the batches is free.
 */
export function groupRows(rows: readonly EncodedSequence[], size: number): EncodedSequence[][] {
  const sorted = [...rows].sort((a, b) => a.ids.length - b.ids.length);
  const groups: EncodedSequence[][] = [];
  for (let start = 0; start < sorted.length; start += size) groups.push(sorted.slice(start, start + size));
  return groups;
}

/** `groupRows` with every batch's tensors built (for callers that run the batches themselves, as the benchmark). */
export function makeBatches(
  rows: readonly EncodedSequence[],
  size: number,
  inputs: readonly string[],
  padId: number,
  tensor: TensorClass,
): Batch[] {
  return groupRows(rows, size).map((group) => ({
    rows: group,
    feeds: padBatch(group, inputs, padId, tensor),
  }));
}

/** int64 [batch, length] tensors for the declared inputs only (a DistilBERT export rejects `token_type_ids`). */
export function padBatch(
  rows: readonly EncodedSequence[],
  inputs: readonly string[],
  padId: number,
  tensor: TensorClass,
): Record<string, Tensor> {
  const length = rows.reduce((max, row) => Math.max(max, row.ids.length), 0);
  const dims = [rows.length, length];
  const ids = new BigInt64Array(rows.length * length).fill(BigInt(padId));
  const mask = new BigInt64Array(rows.length * length);
  const types = new BigInt64Array(rows.length * length);
  for (const [r, row] of rows.entries()) {
    const base = r * length;
    for (let i = 0; i < row.ids.length; i++) {
      ids[base + i] = BigInt(row.ids[i]!);
      mask[base + i] = 1n;
      types[base + i] = BigInt(row.typeIds[i]!);
    }
  }
  const all: Record<FeedableInput, BigInt64Array> = {
    input_ids: ids,
    attention_mask: mask,
    token_type_ids: types,
  };
  const feeds: Record<string, Tensor> = {};
  for (const name of inputs) feeds[name] = new tensor('int64', all[name as FeedableInput], dims);
  return feeds;
}
