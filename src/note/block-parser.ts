import {
  ATX_OPEN,
  completeTag,
  FENCE_OPEN,
  HTML_CLOSE,
  HTML_OPEN,
  listMarker,
  matchAt,
  SETEXT_UNDERLINE,
  thematicBreak,
} from './block-starts.js';
import type { NoteBlock, TextRun } from './blocks.js';
import { DefinitionReader } from './definitions.js';
import { inlineRuns, inlineText, lineEndRuns } from './inline.js';
import type { InlineSource } from './inline-source.js';

/**
 * The block structure of CommonMark 0.31 (sections 4 and 5), read line by line with one record per open block, as the
 * spec's appendix "A parsing strategy" describes it: each line first continues the open containers it can (block
 * quotes 5.1, list items 5.2, and the open leaf: a paragraph, fenced or indented code, an HTML block), then opens new
 * blocks, then is added to the deepest open block or continues a paragraph lazily. Every step looks at a line once
 * from a moving offset (tabs read as tab stops of 4 columns, a tab partly consumed by a container kept as its columns
 * left, section 2.2), and nothing is ever re-read, so the time is linear in the note; the open blocks are an explicit
 * stack (bounded by `MAX_NESTING` before this runs), never recursion.
 *
 * Link reference definitions (section 4.7) are read where micromark reads them, at the start of a paragraph's content
 * (`definitions.ts`); as a definition may follow the links that use it, a note holding `]:` has the inline content
 * of its paragraphs and headings with a `]` read once the blocks are done, against all its definitions.
 *
 * It gives exactly the blocks that mdast-util-from-markdown (micromark 4) gives, walked as
 * `test/reference/mdast-blocks.ts` walks them, for any note: where micromark reads the spec its own way, this reads it
 * as micromark does (each place says so).
 */

const DOCUMENT = 0;
const QUOTE = 1;
const ITEM = 2;
const PARAGRAPH = 3;
const FENCE = 4;
const INDENTED = 5;
const HTML = 6;

interface Open {
  kind: number;
  // ITEM: the columns from the parent's content to the marker, and from the marker to the item's content (5.2).
  markerOffset: number;
  padding: number;
  /** ITEM: whether a block was opened in it (an item that starts blank ends at a second blank line). */
  hasChildren: boolean;
  /** ITEM: the bullet its paragraphs make. */
  bullet: { kind: 'bullet'; paragraphs: TextRun[][] } | undefined;
  // FENCE: its character, length and indent; HTML: its kind (1-7).
  fence: number;
  fenceLength: number;
  fenceIndent: number;
  htmlKind: number;
  /**
   * INDENTED: opened on a line that ended containers and opened none, where micromark ends it at the line's end: the
   * next line finds no open code (so a list item there does not interrupt), and an indented line opens new code.
   */
  oneLine: boolean;
  // PARAGRAPH: how many lines it has (their places are the parser's `starts`, `ends`, `nexts` and `flows`: only one
  // paragraph is open at a time, the deepest block), and the slot of `blocks` it fills.
  lines: number;
  /** PARAGRAPH: whether a line ends with white space (a hard break, or white space to drop). */
  trailing: boolean;
  slot: number;
  /** PARAGRAPH: how many of its lines the definitions it opens with take, once read (-1 before). */
  defined: number;
}

function open(kind: number): Open {
  return {
    kind,
    markerOffset: 0,
    padding: 0,
    hasChildren: false,
    bullet: undefined,
    fence: 0,
    fenceLength: 0,
    fenceIndent: 0,
    htmlKind: 0,
    oneLine: false,
    trailing: false,
    lines: 0,
    slot: -1,
    defined: -1,
  };
}

/**
 * Inline markup (character references included), read by `inlineRuns`; with none and no white space at a line's end,
 * a paragraph is its source (white space at a line's end is seen by `addLine`, so that this need not try every space).
 * A `][` is markup for where micromark stops reading its label, which may move the end of a hard break (`Tokenized`).
 */
const MARKUP = /[\\`*_<&]|\][([]/;

/**
 * Inline content read once the blocks are done (see `BlockParser.pending`): a paragraph's runs, filled in place, or
 * a heading whose title is set.
 */
interface Pending {
  input: InlineSource;
  /** Whether the text holds markup or white space at a line's end (else it is one run, when nothing is defined). */
  markup: boolean;
  runs: TextRun[] | undefined;
  heading: { title: string } | undefined;
}

/**
 * The note's blocks, as the CommonMark parser mdast-util-from-markdown (micromark 4) gives them, walked as
 * `test/reference/mdast-blocks.ts` walks its tree.
 */
export function parseBlocks(source: string): NoteBlock[] {
  // micromark drops a leading byte-order mark, and counts its offsets from the text after it.
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  // micromark reads a NUL as U+FFFD, one code unit for one: every offset stays the source's.
  return text.includes('\0') ? PARSER.parse(text.replaceAll('\0', '\uFFFD'), text) : PARSER.parse(text);
}

// The open paragraph's line lists, shared by every parse (one runs at a time, to its end): a note's paragraphs reuse
// their room rather than allocate five lists each.
const STARTS: number[] = [];
const ENDS: number[] = [];
const NEXTS: number[] = [];
const FLOWS: number[] = [];
const FLOW_COLUMNS: number[] = [];

/**
 * The parser, one for every parse (each runs to its end before the next starts, and `parse` resets it). One
 * long-lived instance, rather than one per note, also keeps V8's optimized code for it: code compiled for a parser
 * that a garbage collection then frees is thrown away ("weak objects"), which cost the note bench a recompilation of
 * every method after each collection.
 */
class BlockParser {
  private source = '';
  /** The note as written, when it holds a NUL (`InlineSource.written`). */
  private written: string | undefined;
  private mayDefine = false;
  private hasCR = false;
  /** The note's definitions (section 4.7), read as its paragraphs close; a new reader for each note that may define. */
  private definitions = new DefinitionReader();
  /** With `mayDefine`, the inline content holding a `]` (a reference link, maybe), read at the end against them all. */
  private pending: Pending[] = [];
  /** The blocks in document order; a paragraph's slot is null until it closes (and when it makes no block). */
  private blocks: Array<NoteBlock | null> = [];
  /** The open blocks, the document first: `stack[0 .. depth)`. */
  private readonly stack: Open[] = [open(DOCUMENT)];
  private depth = 1;
  /** How many of the open blocks the current line continues (or opened). */
  private matched = 1;

  // The current line: its start, its end (line ending excluded), where the next one starts.
  private lineEnd = 0;
  private next = 0;
  // Where reading stands on it (section 2.2's tab stops): an offset, its column, and whether the tab at the offset
  // is partly consumed.
  private offset = 0;
  private column = 0;
  private partialTab = false;
  // The first character that is not a space or tab from the offset, its column, the columns between, and whether
  // the line is blank from there.
  private nextNonspace = 0;
  private nextNonspaceColumn = 0;
  private indent = 0;
  private blank = false;
  /** Whether a list item opened on this line interrupts (see `line`). */
  private interrupt = false;
  /** Whether a blank line since the last line that was not blank closed an item that began blank (see `line`). */
  private closedByBlank = false;
  // The open paragraph's lines: where each one's content starts, where it ends (line ending excluded), where the next
  // line starts, and where it starts after its containers' prefixes (see `InlineSource.flow`); filled by index.
  private readonly starts = STARTS;
  private readonly ends = ENDS;
  private readonly nexts = NEXTS;
  private readonly flows = FLOWS;
  private readonly flowColumns = FLOW_COLUMNS;
  /**
   * Where the line starts after the prefixes of the containers it continues, as micromark places it: past a tab that
   * a prefix took in part, whose other columns `flowColumn` (inside that tab) then tells.
   */
  private flowStart = 0;
  private flowColumn = 0;

  /** Parses `source`; `written` is the note as written when `source` reads its NULs as U+FFFD. */
  parse(source: string, written?: string): NoteBlock[] {
    this.source = source;
    this.written = written;
    this.mayDefine = source.includes(']:');
    if (this.mayDefine) this.definitions = new DefinitionReader();
    this.pending = [];
    this.hasCR = source.includes('\r');
    this.blocks = [];
    this.stack[0] = open(DOCUMENT);
    this.depth = 1;
    this.matched = 1;
    this.closedByBlank = false;
    let lineStart = 0;
    for (;;) {
      this.findLineEnd(lineStart);
      this.line(lineStart);
      if (this.next > source.length) break;
      lineStart = this.next;
      // A final line ending opens no line (micromark reads no blank line after it).
      if (lineStart === source.length) break;
    }
    while (this.depth > 1) this.close();
    if (this.pending.length > 0) this.readPending();
    const out: NoteBlock[] = [];
    for (const block of this.blocks)
      if (block && (block.kind !== 'bullet' || block.paragraphs.length > 0)) out.push(block);
    return out;
  }

  private findLineEnd(from: number): void {
    const { source } = this;
    if (!this.hasCR) {
      const end = source.indexOf('\n', from);
      this.lineEnd = end === -1 ? source.length : end;
      this.next = end === -1 ? source.length + 1 : end + 1;
      return;
    }
    let i = from;
    for (; i < source.length; i++) {
      const c = source.charCodeAt(i);
      if (c === 10 || c === 13) break;
    }
    this.lineEnd = i;
    if (i === source.length) this.next = i + 1;
    else this.next = source.charCodeAt(i) === 13 && source.charCodeAt(i + 1) === 10 ? i + 2 : i + 1;
  }

  private code(at: number): number {
    return at < this.lineEnd ? this.source.charCodeAt(at) : -1;
  }

  private findNextNonspace(): void {
    let i = this.offset;
    let cols = this.column;
    for (;;) {
      const c = this.code(i);
      if (c === 32) {
        i++;
        cols++;
      } else if (c === 9) {
        i++;
        cols += 4 - (cols % 4);
      } else break;
    }
    this.blank = i >= this.lineEnd;
    this.nextNonspace = i;
    this.nextNonspaceColumn = cols;
    this.indent = cols - this.column;
  }

  private advanceNextNonspace(): void {
    this.offset = this.nextNonspace;
    this.column = this.nextNonspaceColumn;
    this.partialTab = false;
  }

  /** Moves on `count` characters, or `count` columns when `columns` (a tab then may be consumed in part). */
  private advanceOffset(count: number, columns: boolean): void {
    let left = count;
    while (left > 0 && this.offset < this.lineEnd) {
      if (this.source.charCodeAt(this.offset) === 9) {
        const toTab = 4 - (this.column % 4);
        if (columns) {
          this.partialTab = toTab > left;
          const step = toTab > left ? left : toTab;
          this.column += step;
          if (!this.partialTab) this.offset++;
          left -= step;
        } else {
          this.partialTab = false;
          this.column += toTab;
          this.offset++;
          left--;
        }
      } else {
        this.partialTab = false;
        this.offset++;
        this.column++;
        left--;
      }
    }
  }

  private get tip(): Open {
    return this.stack[this.depth - 1]!;
  }

  private line(lineStart: number): void {
    this.offset = lineStart;
    this.column = 0;
    this.partialTab = false;
    const { source, stack } = this;
    if (this.tip.kind === INDENTED && this.tip.oneLine) this.close();

    // 1. The open blocks the line continues.
    let matched = 1;
    for (; matched < this.depth; matched++) {
      const block = stack[matched]!;
      this.findNextNonspace();
      let ok = false;
      switch (block.kind) {
        case QUOTE: // 5.1: `>` and one optional space, after at most 3 columns of indent
          if (this.indent < 4 && this.code(this.nextNonspace) === 62) {
            this.advanceNextNonspace();
            this.advanceOffset(1, false);
            const c = this.code(this.offset);
            if (c === 32 || c === 9) this.advanceOffset(1, true);
            ok = true;
          }
          break;
        case ITEM: // 5.2: indented to the item's content, or blank (unless the item began blank and holds nothing)
          if (this.blank) {
            if (block.hasChildren) {
              this.advanceNextNonspace();
              ok = true;
            }
          } else if (this.indent >= block.markerOffset + block.padding) {
            this.advanceOffset(block.markerOffset + block.padding, true);
            ok = true;
          }
          break;
        case FENCE: {
          // 4.5: a closing fence of the same character, at least as long, with nothing after it, ends the block.
          if (this.indent < 4 && this.code(this.nextNonspace) === block.fence) {
            let end = this.nextNonspace;
            while (this.code(end) === block.fence) end++;
            let rest = end;
            while (this.code(rest) === 32 || this.code(rest) === 9) rest++;
            if (end - this.nextNonspace >= block.fenceLength && rest === this.lineEnd) {
              this.matched = matched + 1;
              this.closeUnmatched();
              this.close();
              return;
            }
          }
          ok = true;
          break;
        }
        case INDENTED: // 4.4
          if (this.indent >= 4) {
            this.advanceOffset(4, true);
            ok = true;
          } else if (this.blank) {
            this.advanceNextNonspace();
            ok = true;
          }
          break;
        case HTML: // 4.6: kinds 6 and 7 end at a blank line
          ok = !(this.blank && block.htmlKind >= 6);
          break;
        case PARAGRAPH:
          ok = !this.blank;
          break;
      }
      if (!ok) break;
    }
    this.matched = matched;
    this.flowStart = this.partialTab ? this.offset + 1 : this.offset;
    this.flowColumn = this.column;
    const allClosed = matched === this.depth;
    // A blank line ends an item that began blank here; micromark ends it at the next line that is not blank, so that
    // line is one that closed containers (see `Open.oneLine`). A block quote it ends at the blank line, as here, and
    // with it what the block quote holds.
    const closedByBlank = this.closedByBlank;
    // (Whether the line is blank is known here only if a block was open to continue.)
    if (this.depth === 1) this.findNextNonspace();
    if (!this.blank) this.closedByBlank = false;
    else if (matched < this.depth && stack[matched]!.kind === ITEM) this.closedByBlank = true;
    let container = stack[matched - 1]!;
    // Whether new list items interrupt (micromark's `interrupt`, set for the whole line): when every open container
    // continues and a paragraph or indented code is open. Then an item may not be empty, and an ordered one must be
    // `1.` or `1)` (section 5.2; micromark also reads this after indented code and inside containers the line opens).
    const tipKind = this.tip.kind;
    const leafOpen = tipKind === PARAGRAPH || tipKind === INDENTED || tipKind === FENCE || tipKind === HTML;
    this.interrupt =
      (tipKind === PARAGRAPH || tipKind === INDENTED) && matched >= this.depth - (leafOpen ? 1 : 0);

    // 2. New blocks the line opens.
    const continued = container;
    const leaf = container.kind === FENCE || container.kind === INDENTED || container.kind === HTML;
    while (!leaf) {
      this.findNextNonspace();
      const at = this.nextNonspace;
      const c = this.code(at);
      const indented = this.indent >= 4;
      if (!indented && !maybeSpecial(c)) {
        this.advanceNextNonspace();
        break;
      }
      if (!indented && c === 62) {
        // 5.1 block quote
        this.advanceNextNonspace();
        this.advanceOffset(1, false);
        const d = this.code(this.offset);
        if (d === 32 || d === 9) this.advanceOffset(1, true);
        container = this.addChild(open(QUOTE));
        continue;
      }
      let length = indented || c !== 35 ? -1 : matchAt(ATX_OPEN, source, at);
      if (length > 0) {
        // 4.2 ATX heading
        this.heading(length, at);
        return;
      }
      length = indented || (c !== 96 && c !== 126) ? -1 : matchAt(FENCE_OPEN, source, at);
      if (length > 0) {
        const fence = open(FENCE);
        fence.fence = c;
        fence.fenceLength = length;
        fence.fenceIndent = this.indent;
        this.addChild(fence);
        return;
      }
      if (!indented && c === 60) {
        const lazy = this.matched < this.depth && this.tip.kind === PARAGRAPH;
        // Kind 7 may not interrupt a paragraph; micromark lets it start on a lazy line, which ends the paragraph.
        for (let kind = 1; kind <= 7; kind++) {
          if (
            kind === 7
              ? container.kind === PARAGRAPH || !completeTag(source, at, this.lineEnd)
              : matchAt(HTML_OPEN[kind]!, source, at) < 0
          )
            continue;
          // On a lazy line, micromark lets kind 7 end the paragraph and opens it in the deepest container, as if the
          // line went on every one (the containers it does not go on close at the next line that does not either);
          // kinds 1-6 interrupt the paragraph as the spec reads it.
          if (lazy && kind === 7) this.matched = this.depth - 1;
          const html = open(HTML);
          html.htmlKind = kind;
          this.addChild(html);
          this.addLine(html);
          return;
        }
      }
      if (
        !indented &&
        (c === 61 || c === 45) &&
        container.kind === PARAGRAPH &&
        matchAt(SETEXT_UNDERLINE, source, at) > 0
      ) {
        // 4.3 setext heading: the paragraph becomes its content (what follows its definitions, section 4.7).
        this.closeUnmatched();
        const paragraph = this.tip;
        if (this.definedLines(paragraph) < paragraph.lines) {
          this.closeParagraph(paragraph, c === 61 ? 1 : 2);
          this.depth--;
          return;
        }
        // Definitions alone are no paragraph to underline: micromark ends their content at the underline (which may
        // interrupt it), and the line is a thematic break or opens a paragraph (never a list item, which could not
        // interrupt).
        this.close();
        if (thematicBreak(source, at, this.lineEnd)) {
          this.addChild(undefined);
          return;
        }
        this.advanceNextNonspace();
        break;
      }
      if (!indented && thematicBreak(source, at, this.lineEnd)) {
        // 4.1 thematic break
        this.addChild(undefined);
        return;
      }
      if (!indented && (c === 42 || c === 43 || c === 45 || (c >= 48 && c <= 57))) {
        const item = this.listItem();
        if (item) {
          container = item;
          continue;
        }
      }
      if (indented && this.tip.kind !== PARAGRAPH && !this.blank) {
        // 4.4 indented code
        this.advanceOffset(4, true);
        const code = open(INDENTED);
        // micromark's "lazy" line: one that ends containers and opens none (code-indented.js `furtherStart` ends
        // code at the end of a lazy line).
        code.oneLine = (!allClosed || closedByBlank) && container === continued;
        this.addChild(code);
        return;
      }
      this.advanceNextNonspace();
      break;
    }

    // 3. The line's content: a lazy paragraph continuation (5.1, 5.2), or a line of the deepest open block.
    if (!allClosed && this.matched < this.depth && !this.blank && this.tip.kind === PARAGRAPH) {
      this.addLine(this.tip);
      return;
    }
    this.closeUnmatched();
    const tip = this.tip;
    if (tip.kind === FENCE || tip.kind === INDENTED) return;
    if (tip.kind === HTML) {
      this.addLine(tip);
      return;
    }
    if (tip.kind === PARAGRAPH) {
      this.addLine(tip);
      return;
    }
    if (!this.blank) {
      const paragraph = open(PARAGRAPH);
      this.addChild(paragraph);
      paragraph.slot = this.blocks.length;
      this.blocks.push(null);
      this.addLine(paragraph);
    }
  }

  /** Adds the rest of the line (from its first non-space character) to a paragraph, or ends an HTML block. */
  private addLine(block: Open): void {
    if (block.kind === HTML) {
      const kind = block.htmlKind;
      if (kind <= 5) {
        const close = HTML_CLOSE[kind]!;
        const rest = this.source.slice(this.offset, this.lineEnd);
        if (close.test(rest)) {
          this.matched = this.depth;
          this.close();
        }
      }
      return;
    }
    const last = this.source.charCodeAt(this.lineEnd - 1);
    if (last === 32 || last === 9) block.trailing = true;
    const k = block.lines++;
    this.starts[k] = this.nextNonspace;
    this.ends[k] = this.lineEnd;
    this.nexts[k] = this.next;
    this.flows[k] = this.flowStart;
    this.flowColumns[k] = this.flowColumn;
  }

  /** 4.2: an ATX heading from the `#` run of `length` at `at`, its content without the closing sequence. */
  private heading(length: number, at: number): void {
    const { source } = this;
    let start = at + length;
    while (start < this.lineEnd && (source.charCodeAt(start) === 32 || source.charCodeAt(start) === 9))
      start++;
    let end = this.lineEnd;
    while (end > start && (source.charCodeAt(end - 1) === 32 || source.charCodeAt(end - 1) === 9)) end--;
    // A closing run of `#` is one preceded by a space or a tab, or the whole content.
    let hashes = end;
    while (hashes > start && source.charCodeAt(hashes - 1) === 35) hashes--;
    if (hashes < end) {
      if (hashes === start) end = start;
      else if (source.charCodeAt(hashes - 1) === 32 || source.charCodeAt(hashes - 1) === 9) {
        end = hashes;
        while (end > start && (source.charCodeAt(end - 1) === 32 || source.charCodeAt(end - 1) === 9)) end--;
      }
    }
    const content = source.slice(start, end);
    const block: NoteBlock & { kind: 'heading' } = {
      kind: 'heading',
      depth: length,
      title: content,
      offset: at,
    };
    if (this.mayDefine && content.includes(']'))
      this.pending.push({
        input: this.inlineSource(content, [0], [start]),
        markup: MARKUP.test(content),
        runs: undefined,
        heading: block,
      });
    else if (MARKUP.test(content)) {
      block.title = inlineText(this.inlineSource(content, [0], [start]));
    }
    this.addChild(undefined);
    this.blocks.push(block);
  }

  /** 5.2: a list item whose marker is at the next non-space character, opened, or undefined when none starts. */
  private listItem(): Open | undefined {
    const { source } = this;
    const at = this.nextNonspace;
    const length = listMarker(source, at, this.lineEnd);
    if (length < 0) return undefined;
    const ordered = length > 1;
    const after = this.code(at + length);
    if (after !== -1 && after !== 32 && after !== 9) return undefined;
    // Interrupting, an item must have content and an ordered one must be `1`.
    if (this.interrupt) {
      let k = at + length;
      while (this.code(k) === 32 || this.code(k) === 9) k++;
      if ((ordered && (length !== 2 || source.charCodeAt(at) !== 49)) || k >= this.lineEnd) {
        return undefined;
      }
    }
    const markerOffset = this.indent;
    this.advanceNextNonspace();
    this.advanceOffset(length, true);
    const spacesStartColumn = this.column;
    const spacesStartOffset = this.offset;
    const spacesStartPartial = this.partialTab;
    do {
      this.advanceOffset(1, true);
    } while (
      this.column - spacesStartColumn < 5 &&
      (this.code(this.offset) === 32 || this.code(this.offset) === 9)
    );
    const blankItem = this.offset >= this.lineEnd;
    const spaces = this.column - spacesStartColumn;
    let padding: number;
    if (spaces >= 5 || spaces < 1 || blankItem) {
      // Content indented 5+ columns is indented code: the item's content starts one column after the marker.
      padding = length + 1;
      this.column = spacesStartColumn;
      this.offset = spacesStartOffset;
      this.partialTab = spacesStartPartial;
      const c = this.code(this.offset);
      if (c === 32 || c === 9) this.advanceOffset(1, true);
    } else {
      padding = length + spaces;
    }
    const item = open(ITEM);
    item.markerOffset = markerOffset;
    item.padding = padding;
    item.bullet = { kind: 'bullet', paragraphs: [] };
    this.addChild(item);
    this.blocks.push(item.bullet);
    return item;
  }

  /** Closes what the line did not continue, ends an open paragraph the new block interrupts, and opens `block`. */
  private addChild(block: Open | undefined): Open {
    this.closeUnmatched();
    if (this.tip.kind === PARAGRAPH) this.close();
    const parent = this.tip;
    parent.hasChildren = true;
    if (!block) return parent;
    this.stack[this.depth++] = block;
    this.matched = this.depth;
    return block;
  }

  private closeUnmatched(): void {
    while (this.depth > this.matched) this.close();
  }

  private close(): void {
    const block = this.stack[--this.depth]!;
    if (block.kind === PARAGRAPH) this.closeParagraph(block, 0);
    if (this.matched > this.depth) this.matched = this.depth;
  }

  /**
   * How many of a paragraph's lines the link reference definitions it opens with take (section 4.7: only at the
   * start of a paragraph's content, so a definition never interrupts one), each definition's label kept; read once.
   */
  private definedLines(paragraph: Open): number {
    if (paragraph.defined !== -1) return paragraph.defined;
    let lines = 0;
    if (this.mayDefine && this.source.charCodeAt(this.starts[0]!) === 91) {
      const { text, joined } = this.joinLines(0, paragraph.lines - 1);
      const start = this.definitions.read(this.linesSource(text, joined, 0, paragraph.lines - 1));
      // A definition ends at its line's end, so its content starts on a line of its own.
      if (start === text.length) lines = paragraph.lines;
      else while (joined[lines]! < start) lines++;
    }
    paragraph.defined = lines;
    return lines;
  }

  /** The text of the open paragraph's lines `first` to `last` (each ending with its line ending but the last). */
  // `joined`: where each line starts in it.
  private joinLines(first: number, last: number): { text: string; joined: number[] } {
    const { source, starts, ends, nexts } = this;
    if (first === last) return { text: source.slice(starts[first]!, ends[first]!), joined: [0] };
    const joined = new Array<number>(last - first + 1);
    const parts = new Array<string>(last - first + 1);
    let at = 0;
    for (let k = first; k <= last; k++) {
      joined[k - first] = at;
      const part = source.slice(starts[k]!, k === last ? ends[k]! : nexts[k]!);
      parts[k - first] = part;
      at += part.length;
    }
    return { text: parts.join(''), joined };
  }

  /**
   * A paragraph's runs, or the heading it makes with a setext underline of `setext` (1 or 2): of its lines after the
   * definitions it opens with; none when it is only definitions.
   */
  private closeParagraph(paragraph: Open, setext: number): void {
    const { starts, ends } = this;
    const last = paragraph.lines - 1;
    const first = this.definedLines(paragraph);
    if (first > last) {
      this.blocks[paragraph.slot] = null;
      return;
    }
    const { text, joined } = this.joinLines(first, last);
    const markup = MARKUP.test(text);
    const later = this.mayDefine && text.includes(']');
    let runs: TextRun[] | undefined;
    let pending: Pending | undefined;
    if (markup || later || paragraph.trailing) {
      const input = this.linesSource(text, joined, first, last);
      if (later) {
        runs = [];
        pending = { input, markup: markup || paragraph.trailing, runs, heading: undefined };
        this.pending.push(pending);
      } else if (markup) runs = inlineRuns(input);
      else runs = lineEndRuns(input);
    } else {
      runs = [{ text, start: starts[first]!, end: ends[last]! }];
    }
    let block: NoteBlock | null = null;
    if (setext > 0) {
      let title = '';
      for (const run of runs) title += run.text;
      // A heading after definitions starts where their content does (micromark's setext resolver keeps its start).
      const heading = { kind: 'heading' as const, depth: setext, title, offset: starts[0]! };
      if (pending) {
        pending.runs = undefined;
        pending.heading = heading;
      }
      block = heading;
    } else {
      const parent = this.stack[this.depth - 1]!;
      if (parent.kind === ITEM) parent.bullet!.paragraphs.push(runs);
      else block = { kind: 'paragraph', paragraphs: [runs] };
    }
    this.blocks[paragraph.slot] = block;
  }

  /** The text of the open paragraph's lines `first` to `last` (`joinLines`), with their places, for `inlineRuns`. */
  private linesSource(text: string, joined: readonly number[], first: number, last: number): InlineSource {
    return this.inlineSource(
      text,
      joined,
      this.starts.slice(first, last + 1),
      this.flows.slice(first, last + 1),
      this.flowColumns.slice(first, last + 1),
    );
  }

  /** The inline content `text` of lines that start at `source` (and at `joined` in `text`), for `inlineRuns`. */
  private inlineSource(
    text: string,
    joined: readonly number[],
    source: readonly number[],
    flow?: readonly number[],
    flowColumn?: readonly number[],
  ): InlineSource {
    const input: InlineSource = { text, joined, source, note: this.source };
    if (flow && flowColumn) {
      input.flow = flow;
      input.flowColumn = flowColumn;
    }
    if (this.written !== undefined) input.written = this.written;
    return input;
  }

  /** The inline content left for the end, read against every definition of the note (section 6.3). */
  private readPending(): void {
    const labels = this.definitions.labels;
    for (const { input, markup, runs, heading } of this.pending) {
      let read: TextRun[];
      if (markup || labels.size > 0) read = inlineRuns(input, labels);
      else {
        const { text, source } = input;
        read = [
          {
            text,
            start: source[0]!,
            end: source[source.length - 1]! + (text.length - input.joined[input.joined.length - 1]!),
          },
        ];
      }
      if (heading) {
        let title = '';
        for (const run of read) title += run.text;
        heading.title = title;
      } else for (const run of read) runs!.push(run);
    }
  }
}

/** Whether a line's first non-space character may start a block other than a paragraph. */
function maybeSpecial(c: number): boolean {
  // # ` ~ * + _ = < > - and digits
  return (
    c === 35 ||
    c === 96 ||
    c === 126 ||
    c === 42 ||
    c === 43 ||
    c === 95 ||
    c === 61 ||
    c === 60 ||
    c === 62 ||
    c === 45 ||
    (c >= 48 && c <= 57)
  );
}

const PARSER = new BlockParser();
