import type { Tokenizer } from '@huggingface/tokenizers';
import { UserError } from '../../errors/index.js';
import type { ExportFolder } from './export-folder.js';
import { loadNliPeers } from './peers.js';

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
  /**
   * A prompt the model was trained on, with `{premise}` and `{hypothesis}` where the texts go (HHEM-2.1-Open:
   * `"<pad> Determine if the hypothesis is true given the premise?\n\nPremise: {premise}\n\nHypothesis: {hypothesis}"`).
   * The filled prompt is one sequence; without a prompt the texts are a tokenizer pair (premise first).
   */
  prompt?: string;
}

/** A row's layout: fixed tokens (special tokens, prompt text) and the places of the premise and the hypothesis. */
type Part =
  | { kind: 'fixed'; ids: number[]; types: number[] }
  | { kind: 'premise' | 'hypothesis'; type: number };

/** Texts whose token ids are remembered; past it the memo starts over (cheaper than tracking recency). */
const MEMO_SIZE = 1024;

const MARK_A = '\u0000needlework:A\u0000';
const MARK_B = '\u0000needlework:B\u0000';

/**
 * Turns (premise, hypothesis) pairs into model rows. `@huggingface/tokenizers` has no truncation, so each side is
 * tokenized alone and joined here with the special tokens the tokenizer's own post-processor places (read once from
 * a marker pass, so BERT, RoBERTa, DeBERTa and T5 templates all come out right), inside a prompt when the model was
 * trained on one. A premise longer than the model's limit is cut into overlapping windows, one row each; the caller
 * keeps the best window's score.
 */
export class PairEncoder {
  readonly maxLength: number;
  readonly padId: number;
  private readonly tokenizer: Tokenizer;
  private readonly parts: Part[];
  private readonly overlap: number | undefined;
  private readonly memo = new Map<string, number[]>();

  /** An encoder for the export's tokenizer (imports @huggingface/tokenizers, an optional peer, on first use). */
  static async create(folder: ExportFolder, options: PairEncoderOptions = {}): Promise<PairEncoder> {
    const { Tokenizer } = await loadNliPeers();
    let tokenizer: Tokenizer;
    try {
      tokenizer = new Tokenizer(folder.tokenizerJson, folder.tokenizerConfig);
    } catch (error) {
      throw new UserError({
        file: folder.tokenizerPath,
        message: `not a tokenizer the tokenizers library can load (${(error as Error).message})`,
      });
    }
    return new PairEncoder(folder, tokenizer, options);
  }

  /** Use `PairEncoder.create`, which loads the tokenizer library and reports a bad tokenizer file. */
  private constructor(folder: ExportFolder, tokenizer: Tokenizer, options: PairEncoderOptions) {
    this.tokenizer = tokenizer;
    this.maxLength = options.maxLength ?? maxLengthOf(folder);
    this.overlap = options.windowOverlap;
    this.parts = options.prompt === undefined ? this.pairLayout() : this.promptLayout(options.prompt);
    this.padId = this.padTokenId(folder);
    const special = this.specialCount();
    if (this.maxLength - special < 4) {
      throw new UserError({
        file: folder.tokenizerConfigPath,
        message: `model_max_length ${this.maxLength} leaves no room for text after ${special} special and prompt tokens`,
      });
    }
  }

  /**
   * Token ids of a text without special tokens. Remembered for the last texts seen: ALCE scoring asks about the same
   * claim in up to three rounds and about the same source for every claim citing it, and tokenizing is most of what
   * a small model's scoring costs.
   */
  tokenize(text: string): number[] {
    const known = this.memo.get(text);
    if (known) return known;
    const ids = this.tokenizer.encode(text, { add_special_tokens: false }).ids;
    if (this.memo.size >= MEMO_SIZE) this.memo.clear();
    this.memo.set(text, ids);
    return ids;
  }

  /** Fixed tokens (special tokens and prompt text) a row carries besides the two texts. */
  specialCount(): number {
    return this.parts.reduce((n, part) => n + (part.kind === 'fixed' ? part.ids.length : 0), 0);
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

  private join(pair: number, premise: number[], hypothesis: number[]): EncodedSequence {
    const ids: number[] = [];
    const typeIds: number[] = [];
    for (const part of this.parts) {
      if (part.kind === 'fixed') {
        ids.push(...part.ids);
        typeIds.push(...part.types);
      } else {
        const text = part.kind === 'premise' ? premise : hypothesis;
        ids.push(...text);
        for (let i = 0; i < text.length; i++) typeIds.push(part.type);
      }
    }
    return { pair, ids, typeIds };
  }

  /** The tokenizer's own pair layout, read from its post-processor with marker tokens. */
  private pairLayout(): Part[] {
    const { tokens, types } = this.postProcess([MARK_A], [MARK_B]);
    const a = tokens.indexOf(MARK_A);
    const b = tokens.indexOf(MARK_B);
    return [
      this.fixed(tokens, types, 0, a),
      { kind: 'premise', type: types[a] ?? 0 },
      this.fixed(tokens, types, a + 1, b),
      { kind: 'hypothesis', type: types[b] ?? 0 },
      this.fixed(tokens, types, b + 1, tokens.length),
    ];
  }

  /** The prompt's text pieces, tokenized once, inside the tokenizer's single-sequence layout. */
  private promptLayout(prompt: string): Part[] {
    const pieces = prompt.split(/(\{premise\}|\{hypothesis\})/);
    const holes = pieces.filter((p) => p === '{premise}' || p === '{hypothesis}');
    if (holes.length !== 2 || holes[0] === holes[1]) {
      throw new TypeError(
        `prompt must hold {premise} and {hypothesis} once each, got ${JSON.stringify(prompt)}`,
      );
    }
    const { tokens, types } = this.postProcess([MARK_A], null);
    const a = tokens.indexOf(MARK_A);
    const type = types[a] ?? 0;
    const inner: Part[] = pieces.flatMap((piece): Part[] => {
      if (piece === '{premise}') return [{ kind: 'premise', type }];
      if (piece === '{hypothesis}') return [{ kind: 'hypothesis', type }];
      if (piece === '') return [];
      const ids = this.tokenize(piece);
      return [{ kind: 'fixed', ids, types: ids.map(() => type) }];
    });
    return [this.fixed(tokens, types, 0, a), ...inner, this.fixed(tokens, types, a + 1, tokens.length)];
  }

  private postProcess(a: string[], b: string[] | null): { tokens: string[]; types: number[] } {
    const processor = this.tokenizer.post_processor;
    if (!processor) {
      const tokens = [...a, ...(b ?? [])];
      return { tokens, types: tokens.map(() => 0) };
    }
    const out = processor.post_process(a, b, true);
    // A bare ByteLevel post-processor hands the pair back unjoined.
    const tokens = [...out.tokens, ...(out.tokens_pair ?? [])];
    return { tokens, types: out.token_type_ids ?? tokens.map(() => 0) };
  }

  private fixed(tokens: string[], types: number[], from: number, to: number): Part {
    return {
      kind: 'fixed',
      ids: tokens.slice(from, to).map((token) => this.idOf(token)),
      types: types.slice(from, to),
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
