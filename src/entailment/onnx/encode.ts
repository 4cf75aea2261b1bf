import { Tokenizer } from '@huggingface/tokenizers';
import { UserError } from '../../errors/index.js';
import type { ExportFolder } from './export-folder.js';

/** One model input row: a premise window joined to its hypothesis with the tokenizer's special tokens. */
export interface EncodedSequence {
  /** The index of the pair (in the caller's list) this row belongs to. */
  pair: number;
  ids: number[];
  typeIds: number[];
}

export interface PairEncoderOptions {
  /** Longest row the model accepts, special tokens included. Default: read from the export (see `maxLengthOf`). */
  maxLength?: number;
  /** Tokens shared by consecutive premise windows, so a sentence cut at one window's edge is whole in the next. */
  windowOverlap?: number;
}

/** Where the premise (A) and hypothesis (B) go among the special tokens, as the tokenizer's post-processor lays them. */
interface Template {
  before: { ids: number[]; types: number[] };
  between: { ids: number[]; types: number[] };
  after: { ids: number[]; types: number[] };
  typeA: number;
  typeB: number;
}

const MARK_A = '\u0000needlework:A\u0000';
const MARK_B = '\u0000needlework:B\u0000';

/**
 * Turns (premise, hypothesis) pairs into model rows. `@huggingface/tokenizers` has no truncation, so each side is
 * tokenized alone and joined here with the special tokens the tokenizer's own post-processor places (read once from
 * a marker pass, so BERT, RoBERTa, DeBERTa and T5 templates all come out right). A premise longer than the model's
 * limit is cut into overlapping windows, one row each; the caller keeps the best window's score.
 */
export class PairEncoder {
  readonly maxLength: number;
  readonly padId: number;
  private readonly tokenizer: Tokenizer;
  private readonly template: Template;
  private readonly overlap: number | undefined;

  constructor(folder: ExportFolder, options: PairEncoderOptions = {}) {
    try {
      this.tokenizer = new Tokenizer(folder.tokenizerJson, folder.tokenizerConfig);
    } catch (error) {
      throw new UserError({
        file: folder.tokenizerPath,
        message: `not a tokenizer the tokenizers library can load (${(error as Error).message})`,
      });
    }
    this.maxLength = options.maxLength ?? maxLengthOf(folder);
    this.overlap = options.windowOverlap;
    this.template = this.readTemplate();
    this.padId = this.padTokenId(folder);
    const special = this.specialCount();
    if (this.maxLength - special < 4) {
      throw new UserError({
        file: folder.tokenizerConfigPath,
        message: `model_max_length ${this.maxLength} leaves no room for text after ${special} special tokens`,
      });
    }
  }

  /** Token ids of a text without special tokens. */
  tokenize(text: string): number[] {
    return this.tokenizer.encode(text, { add_special_tokens: false }).ids;
  }

  /** Special tokens a joined pair carries. */
  specialCount(): number {
    const t = this.template;
    return t.before.ids.length + t.between.ids.length + t.after.ids.length;
  }

  /**
   * The rows for one pair: one when the premise fits, else one per window. The hypothesis is kept whole unless it
   * alone would take more than half the room; the premise windows share the rest.
   */
  encodePair(pair: number, premise: string, hypothesis: string): EncodedSequence[] {
    const room = this.maxLength - this.specialCount();
    let hyp = this.tokenize(hypothesis);
    if (hyp.length > Math.floor(room / 2)) hyp = hyp.slice(0, Math.floor(room / 2));
    const prem = this.tokenize(premise);
    const width = room - hyp.length;
    if (prem.length <= width) return [this.join(pair, prem, hyp)];
    const overlap = Math.min(this.overlap ?? Math.floor(width / 4), width - 1);
    const step = width - overlap;
    const rows: EncodedSequence[] = [];
    for (let start = 0; ; start += step) {
      // The last window is aligned to the end, so the premise's final tokens are always seen with full context.
      const from = Math.min(start, prem.length - width);
      rows.push(this.join(pair, prem.slice(from, from + width), hyp));
      if (from + width >= prem.length) break;
    }
    return rows;
  }

  private join(pair: number, a: number[], b: number[]): EncodedSequence {
    const t = this.template;
    const ids = [...t.before.ids, ...a, ...t.between.ids, ...b, ...t.after.ids];
    const typeIds = [
      ...t.before.types,
      ...new Array<number>(a.length).fill(t.typeA),
      ...t.between.types,
      ...new Array<number>(b.length).fill(t.typeB),
      ...t.after.types,
    ];
    return { pair, ids, typeIds };
  }

  private readTemplate(): Template {
    const processor = this.tokenizer.post_processor;
    let tokens: string[] = [MARK_A, MARK_B];
    let types: number[] = [0, 0];
    if (processor) {
      const out = processor.post_process([MARK_A], [MARK_B], true);
      // A bare ByteLevel post-processor hands the pair back unjoined.
      tokens = [...out.tokens, ...(out.tokens_pair ?? [])];
      types = out.token_type_ids ?? new Array<number>(tokens.length).fill(0);
    }
    const a = tokens.indexOf(MARK_A);
    const b = tokens.indexOf(MARK_B);
    const part = (from: number, to: number) => ({
      ids: tokens.slice(from, to).map((token) => this.idOf(token)),
      types: types.slice(from, to),
    });
    return {
      before: part(0, a),
      between: part(a + 1, b),
      after: part(b + 1, tokens.length),
      typeA: types[a] ?? 0,
      typeB: types[b] ?? 0,
    };
  }

  private idOf(token: string): number {
    return this.tokenizer.token_to_id(token) ?? this.tokenizer.model?.unk_token_id ?? 0;
  }

  private padTokenId(folder: ExportFolder): number {
    const pad = folder.tokenizerConfig.pad_token;
    const name = typeof pad === 'string' ? pad : isContent(pad) ? pad.content : undefined;
    const byName = name === undefined ? undefined : this.tokenizer.token_to_id(name);
    if (byName !== undefined) return byName;
    const fromConfig = folder.config.pad_token_id;
    return typeof fromConfig === 'number' ? fromConfig : 0;
  }
}

function isContent(value: unknown): value is { content: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { content?: unknown }).content === 'string'
  );
}

/** Tokenizer configs write this sentinel (1e30) when they set no limit. */
const NO_LIMIT = 1_000_000;

/**
 * The longest row the model takes: the smaller of the tokenizer's `model_max_length` and the model's
 * `max_position_embeddings` (less the two positions RoBERTa-family models reserve for padding), 512 when neither
 * says.
 */
export function maxLengthOf(folder: ExportFolder): number {
  const limits: number[] = [];
  const fromTokenizer = folder.tokenizerConfig.model_max_length;
  if (typeof fromTokenizer === 'number' && fromTokenizer > 0 && fromTokenizer < NO_LIMIT)
    limits.push(fromTokenizer);
  const positions = folder.config.max_position_embeddings;
  if (typeof positions === 'number' && positions > 0) {
    const type = String(folder.config.model_type ?? '');
    limits.push(/roberta|camembert|longformer/.test(type) ? positions - 2 : positions);
  }
  return limits.length > 0 ? Math.min(...limits) : 512;
}
