import type { NoteBlock, TextRun } from './blocks.js';
import { inlineRuns, inlineText } from './inline.js';

/**
 * What a line may not hold for the scanner to read it: control characters (tabs, CR, NUL), a byte-order mark,
 * character references (the entity table is the full parser's), and trailing white space (a hard break or nothing).
 */
const UNSAFE_LINE =
  /[\0-\x09\x0b-\x1f\uFEFF]|&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{0,31});|\s$/;

/** Inline markup, read by `inlineRuns`: without any, a paragraph is one run of text, its source verbatim. */
const MARKUP = /[\\`*_<]|\]\(/;

/**
 * The start of a line's content (after its indent, or after a list marker) that could open a block other than a
 * paragraph, a heading or a `-`/`*`/`+` bullet read here: a block quote, a fence, a thematic break or setext
 * underline, an ordered list, an empty item or a blank line of spaces, HTML or indented code.
 */
const UNSAFE_START = /^(?:[>=~\-+ <]|\*(?: |$)|```|\d{1,9}[.)](?: |$)|$)/;
/** A thematic break of `*` or `_` (one of `-` is an unsafe start already). */
const THEMATIC_BREAK = /^([*_])(?: *\1){2,} *$/;

const BULLET = /^[-*+] /;

interface OpenItem {
  /** Column where the item's content starts: a line indented exactly this much continues the item. */
  contentIndent: number;
  block: { kind: 'bullet'; paragraphs: TextRun[][] };
}

/**
 * A note's blocks read by a line scanner that knows exactly the markdown an agent's note is written in: ATX
 * headings, paragraphs, and `-`/`*`/`+` bullet lists nested by their content indent, with plain inline text (any
 * characters but those `UNSAFE_INLINE` names; `[cite:…]` markers and other brackets are text). It gives the same
 * blocks as `mdastBlocks`, or `undefined` as soon as a line holds anything else, so that the caller parses the whole
 * note with the full parser instead.
 */
export function scanBlocks(source: string): NoteBlock[] | undefined {
  // A link definition (`[label]: url`, which makes every `[label]` a link) can only open a paragraph, and needs `]:`.
  const mayDefine = source.includes(']:');
  const blocks: NoteBlock[] = [];
  // The items open at this line, outermost first: the first `openCount` of `open` (filled by index, since setting
  // `length` calls into the runtime and drops the array's room).
  const open: OpenItem[] = [];
  let openCount = 0;
  // The open paragraph: its lines' content (leading spaces dropped, as CommonMark does), where each starts in the
  // source, and where it goes.
  let lines: string[] = [];
  let starts: number[] = [];
  let end = 0;
  let owner: OpenItem | undefined;
  let markup = false;

  /** Closes the open paragraph; false when its inline markup is left to the full parser. */
  const closeParagraph = (): boolean => {
    if (lines.length === 0) return true;
    const text = lines.length === 1 ? lines[0]! : lines.join('\n');
    let runs: TextRun[] | undefined;
    if (markup) {
      const joined = new Array<number>(lines.length);
      let at = 0;
      for (let k = 0; k < lines.length; k++) {
        joined[k] = at;
        at += lines[k]!.length + 1;
      }
      runs = inlineRuns({ text, joined, source: starts });
      if (!runs) return false;
    } else {
      runs = [{ text, start: starts[0]!, end }];
    }
    // An item's first paragraph makes its list at its length: `push` would leave room for 17.
    if (owner && owner.block.paragraphs.length === 0) owner.block.paragraphs = [runs];
    else if (owner) owner.block.paragraphs.push(runs);
    else blocks.push({ kind: 'paragraph', paragraphs: [runs] });
    lines = [];
    return true;
  };
  const openParagraph = (content: string, at: number, item: OpenItem | undefined): void => {
    lines = [content];
    starts = [at];
    end = at + content.length;
    owner = item;
    markup = MARKUP.test(content);
  };
  /** The open item whose content starts at `indent` (the new block's parent), or -1 at the top level. */
  const parentAt = (indent: number): number | undefined => {
    if (indent === 0) return -1;
    for (let k = openCount - 1; k >= 0; k--) if (open[k]!.contentIndent === indent) return k;
    return undefined;
  };

  let lineStart = 0;
  while (lineStart <= source.length) {
    let lineEnd = source.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = source.length;
    const at = lineStart;
    lineStart = lineEnd + 1;
    if (lineEnd === at) {
      if (!closeParagraph()) return undefined;
      continue;
    }
    let indent = 0;
    while (source.charCodeAt(at + indent) === 32) indent++;
    const rest = source.slice(at + indent, lineEnd);

    if (UNSAFE_LINE.test(rest)) return undefined;
    const depth = headingDepth(rest);
    if (depth > 0) {
      const content = rest.slice(depth).replace(/^ +/, '');
      if (indent > 0 || content.endsWith('#')) return undefined;
      const title = MARKUP.test(content) ? inlineText(content) : content;
      if (title === undefined || !closeParagraph()) return undefined;
      openCount = 0;
      blocks.push({ kind: 'heading', depth, title, offset: at });
      continue;
    }

    if (BULLET.test(rest)) {
      const content = rest.slice(2);
      const parent = parentAt(indent);
      if (parent === undefined || !safeStart(content)) return undefined;
      if (mayDefine && content.startsWith('[')) return undefined;
      if (!closeParagraph()) return undefined;
      openCount = parent + 1;
      const item: OpenItem = { contentIndent: indent + 2, block: { kind: 'bullet', paragraphs: [] } };
      blocks.push(item.block);
      open[openCount++] = item;
      openParagraph(content, at + indent + 2, item);
      continue;
    }

    if (!safeStart(rest)) return undefined;
    if (lines.length > 0) {
      // A paragraph continuation line, lazy or not: its indent is dropped.
      lines.push(rest);
      starts.push(at + indent);
      end = lineEnd;
      if (!markup) markup = MARKUP.test(rest);
      continue;
    }
    const parent = parentAt(indent);
    if (parent === undefined || (mayDefine && rest.startsWith('['))) return undefined;
    openCount = parent + 1;
    openParagraph(rest, at + indent, parent === -1 ? undefined : open[parent]);
  }
  return closeParagraph() ? blocks : undefined;
}

/** The depth of the ATX heading a line's content opens (one to six `#` followed by a space or the end), or 0. */
function headingDepth(content: string): number {
  let depth = 0;
  while (content.charCodeAt(depth) === 35) depth++;
  return depth <= 6 && (depth === content.length || content.charCodeAt(depth) === 32) ? depth : 0;
}

/** Whether a line's content opens nothing but a paragraph (a `#` not followed by a space or the end is text). */
function safeStart(content: string): boolean {
  return !UNSAFE_START.test(content) && headingDepth(content) === 0 && !THEMATIC_BREAK.test(content);
}
