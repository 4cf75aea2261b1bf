import type { NoteBlock, TextRun } from './blocks.js';

/**
 * Inline text the scanner cannot read exactly as CommonMark does: escapes, code spans, `*` emphasis, HTML and
 * autolinks (`<`), control characters (tabs, CR, NUL), a byte-order mark, inline links and images (`](`),
 * character references, trailing white space (hard breaks), and a `_` that is not between two ASCII letters or digits
 * (only there can it never open or close emphasis).
 */
const UNSAFE_INLINE =
  /[\\`*<\0-\x09\x0b-\x1f\uFEFF]|\]\(|&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{0,31});|\s$|(?:^|[^A-Za-z0-9_])_|_(?:[^A-Za-z0-9_]|$)/;

/**
 * The start of a line's content (after its indent, or after a list marker) that could open a block other than a
 * paragraph, a heading or a `-`/`*`/`+` bullet read here: a block quote, a fence, a thematic break or setext
 * underline, an ordered list, an empty item or a blank line of spaces, emphasis, HTML or indented code.
 */
const UNSAFE_START = /^(?:[>=_~\-*+` <]|\d{1,9}[.)](?: |$)|$)/;

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
  // The open paragraph: its lines' content (leading spaces dropped, as CommonMark does), and where it goes.
  let lines: string[] = [];
  let start = 0;
  let end = 0;
  let owner: OpenItem | undefined;

  const closeParagraph = (): void => {
    if (lines.length === 0) return;
    const run: TextRun = { text: lines.length === 1 ? lines[0]! : lines.join('\n'), start, end };
    // An item's first paragraph makes its list at its length: `push` would leave room for 17.
    if (owner && owner.block.paragraphs.length === 0) owner.block.paragraphs = [[run]];
    else if (owner) owner.block.paragraphs.push([run]);
    else blocks.push({ kind: 'paragraph', paragraphs: [[run]] });
    lines = [];
  };
  const openParagraph = (content: string, at: number, item: OpenItem | undefined): void => {
    lines = [content];
    start = at;
    end = at + content.length;
    owner = item;
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
      closeParagraph();
      continue;
    }
    let indent = 0;
    while (source.charCodeAt(at + indent) === 32) indent++;
    const rest = source.slice(at + indent, lineEnd);

    const depth = headingDepth(rest);
    if (depth > 0) {
      const content = rest.slice(depth).replace(/^ +/, '');
      if (indent > 0 || content.endsWith('#') || UNSAFE_INLINE.test(content)) return undefined;
      closeParagraph();
      openCount = 0;
      blocks.push({ kind: 'heading', depth, title: content, offset: at });
      continue;
    }

    if (BULLET.test(rest)) {
      const content = rest.slice(2);
      const parent = parentAt(indent);
      if (parent === undefined || !safeStart(content) || UNSAFE_INLINE.test(content)) return undefined;
      if (mayDefine && content.startsWith('[')) return undefined;
      closeParagraph();
      openCount = parent + 1;
      const item: OpenItem = { contentIndent: indent + 2, block: { kind: 'bullet', paragraphs: [] } };
      blocks.push(item.block);
      open[openCount++] = item;
      openParagraph(content, at + indent + 2, item);
      continue;
    }

    if (!safeStart(rest) || UNSAFE_INLINE.test(rest)) return undefined;
    if (lines.length > 0) {
      // A paragraph continuation line, lazy or not: its indent is dropped.
      lines.push(rest);
      end = lineEnd;
      continue;
    }
    const parent = parentAt(indent);
    if (parent === undefined || (mayDefine && rest.startsWith('['))) return undefined;
    openCount = parent + 1;
    openParagraph(rest, at + indent, parent === -1 ? undefined : open[parent]);
  }
  closeParagraph();
  return blocks;
}

/** The depth of the ATX heading a line's content opens (one to six `#` followed by a space or the end), or 0. */
function headingDepth(content: string): number {
  let depth = 0;
  while (content.charCodeAt(depth) === 35) depth++;
  return depth <= 6 && (depth === content.length || content.charCodeAt(depth) === 32) ? depth : 0;
}

/** Whether a line's content opens nothing but a paragraph (a `#` not followed by a space or the end is text). */
function safeStart(content: string): boolean {
  return !UNSAFE_START.test(content) && headingDepth(content) === 0;
}
