import { decodeNamedCharacterReference } from 'decode-named-character-reference';
import { decodeNumericCharacterReference } from 'micromark-util-decode-numeric-character-reference';
import { isAttributeNameCode, isAttributeNameStart, isTagNameCode } from './block-starts.js';
import type { TextRun } from './blocks.js';
import { angleDestinationEnd, normalizeLabel, skipWhitespace } from './definitions.js';
import { type InlineSource, insideSplitTab, lineAt, sourceAt, sourceEnd } from './inline-source.js';
import { labelEnd, labelStop } from './label.js';

/**
 * The inline content of one paragraph or heading, read as CommonMark does (micromark 4, as mdast-util-from-markdown
 * compiles it) into the text runs the note model keeps: each text node's value with its source range (adjacent text
 * merged as mdast merges it), a code span's value, a hard break as a space, an image's alt text. Code spans, backslash
 * escapes, hard breaks, `*` and `_` emphasis (the delimiter algorithm of the spec, section 6.2, with micromark's
 * rule of three on the runs' current lengths), inline links and images, reference links and images against the
 * note's definitions (section 6.3, full, collapsed and shortcut, as micromark's label-end.js tries them), autolinks
 * and inline HTML (tags, comments, CDATA sections, declarations, instructions, over lines too) are read here, with
 * micromark's own readings where it departs from the spec. Linear in the text: a closing backtick run is looked for once per length, each emphasis closer
 * searches no lower than where a closer of its kind last failed (the spec's `openers_bottom`), so no input walks
 * back over the same delimiters, and a link's text is normalized against the definitions only from the last bracket.
 */

const DATA = 0;
const DELIM = 1;
const CODE = 2;
const BREAK = 3;
const HTML = 4;
const AUTOLINK = 5;
const OPEN = 6; // `[` or `![`, a link's or image's start when `link` is set
const CLOSE = 7; // `]` and its resource, when a link or image ends there

/**
 * A token that only contributes text, or nothing (DATA, CODE, BREAK, HTML, AUTOLINK): four fields, where a `Token`
 * has seventeen. Most tokens are these, and a paragraph of a million of them (`a*` half a million times) spent half
 * its time collecting the garbage of the larger shape.
 */
interface Piece {
  kind: number;
  /** Offsets into the joined text, end exclusive. */
  start: number;
  end: number;
  /** DATA, CODE, AUTOLINK: the text it contributes. */
  value: string;
}

/**
 * A delimiter run or a bracket (DELIM, OPEN, CLOSE): what the emphasis and link algorithms keep of it. Tokens of these
 * kinds are only ever made by `token`, so a `Piece` of one of them is a `Token`.
 */
interface Token extends Piece {
  // DELIM: its marker, what is left of it, what it may do, and whether emphasis opened or closed at its ends.
  marker: number;
  left: number;
  canOpen: boolean;
  canClose: boolean;
  /** How many of its characters closed emphasis (from its start) and opened emphasis (from its end). */
  closed: number;
  opened: number;
  prev: Token | undefined;
  next: Token | undefined;
  index: number;
  // OPEN: whether it is an image, whether it still may open a link, and the CLOSE that ends it.
  image: boolean;
  active: boolean;
  match: Token | undefined;
  /** CLOSE: whether it ends a reference (section 6.3) rather than an inline resource. */
  reference: boolean;
}

function piece(kind: number, start: number, end: number, value: string): Piece {
  return { kind, start, end, value };
}

function token(kind: number, start: number, end: number, value: string): Token {
  return {
    kind,
    start,
    end,
    value,
    marker: 0,
    left: 0,
    canOpen: false,
    canClose: false,
    closed: 0,
    opened: 0,
    prev: undefined,
    next: undefined,
    index: 0,
    image: false,
    active: true,
    match: undefined,
    reference: false,
  };
}

/**
 * A paragraph's tokens, and the stretches of its text that micromark read twice: from a construct that it tried and
 * gave up on past a line ending, to where it gave up (a backtick run that opens no code span, or a comment that never
 * ends: the paragraph's end; a tag over lines: where it stops being one), as `[from, to)` pairs in order, merged.
 * micromark feeds a paragraph's text to its inline reader line by line, telling it where each line starts after its
 * containers' prefixes when it feeds that line; a line ending read again after that point ends a text node (before a
 * token other than text) not there but where the next line starts (`InlineSource.flow`). `flatten` does the same.
 */
interface Tokenized {
  tokens: Piece[];
  replayed: number[];
}

/**
 * The text runs of a paragraph; `labels` are the note's defined labels (normalized, see `definitions.ts`), none when
 * omitted.
 */
export function inlineRuns(input: InlineSource, labels?: ReadonlySet<string>): TextRun[] {
  return flatten(tokenize(input, labels), input);
}

/**
 * The text runs of a paragraph that holds no inline markup (nothing `inlineRuns` would read but white space before a
 * line ending), as `inlineRuns` reads it, without its tokens: two or more spaces and no tab before a line ending make
 * a hard break (a run of one space), other white space there and at the paragraph's end is dropped, and the text
 * between hard breaks is one run, its line endings kept. Agents end lines with two spaces to break them: this is most
 * paragraphs with white space at a line's end.
 */
export function lineEndRuns(input: InlineSource): TextRun[] {
  const { text } = input;
  const n = text.length;
  const runs: TextRun[] = [];
  let value = '';
  // The open run starts at `start`; the text from `from` on is not in `value` yet, and its next line starts at `line`.
  let start = 0;
  let from = 0;
  let line = 0;
  for (;;) {
    let ending = line;
    while (ending < n && text.charCodeAt(ending) !== 10 && text.charCodeAt(ending) !== 13) ending++;
    let space = ending;
    let tabs = false;
    while (space > line && (text.charCodeAt(space - 1) === 32 || text.charCodeAt(space - 1) === 9))
      if (text.charCodeAt(--space) === 9) tabs = true;
    value += text.slice(from, space);
    const hard = ending < n && !tabs && ending - space >= 2;
    if ((ending === n || hard) && value !== '')
      runs.push({ text: value, start: sourceAt(input, start), end: sourceEnd(input, space) });
    if (ending === n) return runs;
    line = text.charCodeAt(ending) === 13 && text.charCodeAt(ending + 1) === 10 ? ending + 2 : ending + 1;
    if (hard) {
      runs.push({ text: ' ', start: sourceAt(input, space), end: sourceEnd(input, line) });
      value = '';
      start = line;
      from = line;
    } else from = ending;
  }
}

/** A heading's inline text (its runs' text joined). */
export function inlineText(input: InlineSource): string {
  let out = '';
  for (const run of flatten(tokenize(input, undefined), input)) out += run.text;
  return out;
}

// Character classes, as micromark's classifyCharacter reads one UTF-16 code unit: 1 white space (start and end of the
// text too), 2 punctuation or symbol, 0 anything else.
const WHITE = /\s/;
const PUNCTUATION = /\p{P}|\p{S}/u;
function classify(text: string, at: number): number {
  if (at < 0 || at >= text.length) return 1;
  const code = text.charCodeAt(at);
  if (code < 128) return ASCII_CLASS[code]!;
  const c = text[at]!;
  return WHITE.test(c) ? 1 : PUNCTUATION.test(c) ? 2 : 0;
}
const ASCII_CLASS = Uint8Array.from({ length: 128 }, (_, code) => {
  const c = String.fromCharCode(code);
  return WHITE.test(c) ? 1 : PUNCTUATION.test(c) ? 2 : 0;
});
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const LINE_ENDING = /[\r\n]/;
// A character reference (section 2.5): a name of up to 31 alphanumerics, or up to 7 decimal or 6 hex digits.
const CHARACTER_REFERENCE = /&(?:#([0-9]{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{0,30}));/y;

const AUTOLINK_URI = /<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\0- <>\x7f]*)>/y;
// An address's local part as micromark reads it (its `asciiAtext`): the spec's characters but `!`.
const AUTOLINK_EMAIL =
  /<([A-Za-z0-9.#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)>/y;
// The parts of a tag on one line (CommonMark 0.31, section 6.6), as micromark reads them: a tag name, and an
// attribute's name and its whole `=` value, whose unquoted form ends at a `/` after its first character (`<b x=a/b>`
// is no tag to it).
const TAG_NAME = '[A-Za-z][A-Za-z0-9-]*';
const ATTRIBUTE_NAME = '[ \\t]+[A-Za-z_:][A-Za-z0-9_.:-]*';
const ATTRIBUTE = `${ATTRIBUTE_NAME}(?:[ \\t]*=[ \\t]*(?:[^ \\t\\r\\n"'=<>\`][^ \\t\\r\\n"'=<>\`/]*|'[^'\\r\\n]*'|"[^"\\r\\n]*"))?`;
// An open or closing tag on one line.
const OPEN_TAG = new RegExp(`<${TAG_NAME}(?:${ATTRIBUTE})*[ \\t]*/?>`, 'y');
const CLOSING_TAG = new RegExp(`</${TAG_NAME}[ \\t]*>`, 'y');
// The first line of a tag that goes on over a line ending (white space in a tag may hold one): an open tag's name,
// its whole attributes, then at most one more begun (its name, its `=`, an open quote), or a closing tag's name.
// When a `<` starts neither a tag on one line nor this, nothing of the kind starts there, and it is text; when it
// starts this, `tagOverLines` reads the rest.
const TAG_GOES_ON = new RegExp(
  `<(?:${TAG_NAME}(?:${ATTRIBUTE})*(?:${ATTRIBUTE_NAME}[ \\t]*(?:=[ \\t]*(?:'[^'\\r\\n]*|"[^"\\r\\n]*)?)?)?|/${TAG_NAME})[ \\t]*(?:\\r\\n|\\r|\\n)`,
  'y',
);

/**
 * The end of the open or closing tag at `i` that goes on over lines (its first line matched `TAG_GOES_ON`), read as
 * micromark's html-text reads one (CommonMark 0.31, section 6.6): white space may hold a line ending, and a quoted
 * value any. When it is no tag, `~at`, where micromark stops reading it.
 */
function tagOverLines(text: string, i: number): number {
  const n = text.length;
  const closing = text.charCodeAt(i + 1) === 47;
  let k = closing ? i + 3 : i + 2;
  while (k < n && isTagNameCode(text.charCodeAt(k))) k++;
  if (closing) {
    k = skipWhitespace(text, k);
    return text.charCodeAt(k) === 62 ? k + 1 : ~k;
  }
  for (;;) {
    // Between attributes (the name is followed by white space, `/` or `>`, as `TAG_GOES_ON` checked).
    k = skipWhitespace(text, k);
    let c = text.charCodeAt(k);
    if (c === 62) return k + 1;
    if (c === 47) return text.charCodeAt(k + 1) === 62 ? k + 2 : ~(k + 1);
    if (!isAttributeNameStart(c)) return ~k;
    k++;
    while (k < n && isAttributeNameCode(text.charCodeAt(k))) k++;
    const after = skipWhitespace(text, k);
    if (text.charCodeAt(after) !== 61) {
      k = after;
      continue;
    }
    k = skipWhitespace(text, after + 1);
    c = text.charCodeAt(k);
    if (c === 34 || c === 39) {
      const close = text.indexOf(c === 34 ? '"' : "'", k + 1);
      if (close === -1) return ~n;
      k = close + 1;
      c = text.charCodeAt(k);
      if (!(c === 47 || c === 62 || c === 32 || c === 9 || c === 10 || c === 13)) return ~k;
      continue;
    }
    if (k >= n || c === 60 || c === 61 || c === 62 || c === 96) return ~k;
    // An unquoted value: its first character, then up to white space, `/` or `>`.
    k++;
    for (; k < n; k++) {
      c = text.charCodeAt(k);
      if (c === 34 || c === 39 || c === 60 || c === 61 || c === 96) return ~k;
      if (c === 47 || c === 62 || c === 32 || c === 9 || c === 10 || c === 13) break;
    }
    if (k >= n) return ~n;
  }
}

/** `declarationEnd` of a construct that begins but never ends: the `<` is text. */
const UNCLOSED = -2;

/**
 * The end of the comment (`<!-- -->`, `<!-->`), CDATA section, declaration (`<!DOCTYPE x>`) or processing instruction
 * (`<? ?>`) that the `<` at `i` begins, as micromark's html-text reads them (CommonMark 0.31, section 6.6); -1 when
 * none begins there, `UNCLOSED` when one begins and never ends (either way that `<` is text). It may go on over line
 * endings, the next line's prefix and indent not in `text`, as micromark's paragraph content has them.
 */
function declarationEnd(text: string, i: number, find: CloserFinder): number {
  let end: number;
  if (text.charCodeAt(i + 1) === 63) end = find('?>', i + 2);
  else {
    const c = text.charCodeAt(i + 2);
    // A comment's opening dashes may be its closing ones: `<!-->` and `<!--->` are comments.
    if (c === 45) {
      if (text.charCodeAt(i + 3) !== 45) return -1;
      end = find('-->', i + 2);
    } else if (c === 91) {
      if (!text.startsWith('CDATA[', i + 3)) return -1;
      end = find(']]>', i + 9);
    } else if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) end = find('>', i + 3);
    else return -1;
  }
  return end === -1 ? UNCLOSED : end;
}

/** Where the first `closer` at or after `from` ends, or -1 when there is none. */
type CloserFinder = (closer: string, from: number) => number;

/**
 * A `CloserFinder` over `text` that keeps each closer's last answer and reuses it while it still holds, so that a
 * paragraph of 10,000 unclosed `<!--` is searched once, not once for each (the searches it makes cover disjoint
 * stretches of the text).
 */
function closerFinder(text: string): CloserFinder {
  const last = new Map<string, { from: number; at: number }>();
  return (closer, from) => {
    const seen = last.get(closer);
    let at: number;
    if (seen && seen.from <= from && (seen.at === -1 || seen.at >= from)) at = seen.at;
    else {
      at = text.indexOf(closer, from);
      last.set(closer, { from, at });
    }
    return at === -1 ? -1 : at + closer.length;
  };
}

/**
 * The text from `from` to `to` of a construct that goes on over lines, as micromark keeps it (mdast's `inlineCode`
 * value, an HTML node's value): each line ending as written, then the next line's indent from where its containers'
 * prefixes end (which a paragraph's text leaves out), less its first `drop` white space codes. micromark reads a tab
 * as one code and a virtual space for each further column it fills (a prefix may take some of them), and writes a tab
 * code as a tab, a virtual space after one as nothing, and any other as a space. A code span keeps the whole indent
 * (`drop` 0); an HTML construct takes up to 3 codes as the line's prefix (micromark-core-commonmark `html-text.js`,
 * `lineEndingAfter`: `factorySpace` up to `tabSize`, which takes one code fewer than its bound). A virtual space
 * written as a space is written as `virtual`.
 */
function overLines(input: InlineSource, from: number, to: number, drop: number, virtual = ' '): string {
  const { text, joined } = input;
  let line = lineAt(joined, from);
  let out = '';
  let at = from;
  while (line + 1 < joined.length && joined[line + 1]! <= to) {
    line++;
    out += text.slice(at, joined[line]) + indentKept(input, line, drop, virtual);
    at = joined[line]!;
  }
  return out + text.slice(at, to);
}

/** Line `line`'s indent, as `overLines` keeps it. */
function indentKept(input: InlineSource, line: number, drop: number, virtual: string): string {
  const { source, note } = input;
  // A line after the first is a paragraph's, which has these.
  const flow = input.flow!;
  const flowColumn = input.flowColumn!;
  let out = '';
  let left = drop;
  const code = (written: string): void => {
    if (left > 0) left--;
    else out += written;
  };
  let column = flowColumn[line]!;
  // A tab a prefix took in part (micromark's place is past it, its column inside it): a virtual space for each of
  // its other columns, after no tab code.
  if (insideSplitTab(note, flow[line]!, column)) for (; column % 4 !== 0; column++) code(virtual);
  for (let at = flow[line]!; at < source[line]!; at++) {
    if (note.charCodeAt(at) === 32) {
      code(' ');
      column++;
      continue;
    }
    const stop = column + 4 - (column % 4);
    const kept = left === 0;
    code('\t');
    // Its virtual spaces: nothing after the tab, a space each where the tab code was taken.
    for (column++; column < stop; column++) if (!kept) code(virtual);
  }
  return out;
}

/**
 * A code span's content without its padding (section 6.1): one space or line ending at each end, taken off when it
 * has both and something other than spaces and line endings between (a tab or a no-break space is content).
 */
function withoutPadding(content: string): string {
  const first = content.charCodeAt(0);
  const last = content.charCodeAt(content.length - 1);
  if (!(first === 32 || first === 10 || first === 13) || !(last === 32 || last === 10 || last === 13))
    return content;
  if (!CODE_DATA.test(content)) return content;
  const head = first === 13 && content.charCodeAt(1) === 10 ? 2 : 1;
  const tail = last === 10 && content.charCodeAt(content.length - 2) === 13 ? 2 : 1;
  return content.slice(head, content.length - tail);
}
const CODE_DATA = /[^ \r\n]/;

/**
 * The characters `tokenize` reads anything at (escapes, code spans, character references, emphasis, HTML, autolinks,
 * links and images, and white space, which matters only at a line's end, so it is found at the first of a run that
 * reaches a line ending or the text's end): every other character is text. Found by this expression rather than looked
 * at one by one, since a note's text is mostly words. Linear: the look-behind lets only a run's first character scan
 * the run.
 */
const NEXT_CONSTRUCT = /[\\`&*_<[\]!]|(?<![ \t])[ \t](?=[ \t]*(?:[\r\n]|$))/g;

/** The greatest depth of parentheses micromark allows in a link destination. */
const DESTINATION_BALANCE = 32;

function tokenize(input: InlineSource, labels: ReadonlySet<string> | undefined): Tokenized {
  const { text } = input;
  const defines = labels !== undefined && labels.size > 0;
  const replayed: number[] = [];
  /** Marks `[from, to)` as read twice (see `Tokenized`). */
  const replay = (from: number, to: number): void => {
    const last = replayed.length - 1;
    if (last > 0 && from <= replayed[last]!) replayed[last] = Math.max(replayed[last]!, to);
    else replayed.push(from, to);
  };
  const tokens: Piece[] = [];
  const n = text.length;
  // Backtick runs by length, each list in order, with a cursor that only moves on: a closer is looked for once.
  let backticks: Map<number, { at: number[]; next: number }> | undefined;
  let findCloser: CloserFinder | undefined;
  let dataStart = 0;
  const flushData = (to: number): void => {
    if (to > dataStart) tokens.push(piece(DATA, dataStart, to, text.slice(dataStart, to)));
  };
  const opens: Token[] = [];
  // Brackets below this depth of `opens` may no longer open a link (a link holds no link).
  let inactiveBelow = 0;
  const delims: Token[] = [];
  // Where the last bracket that is no escape stands: a label with one inside is defined by no definition.
  let lastBracket = -1;

  let i = 0;
  while (i < n) {
    // Straight to the next character that may start something: the rest is text.
    NEXT_CONSTRUCT.lastIndex = i;
    if (!NEXT_CONSTRUCT.test(text)) break;
    i = NEXT_CONSTRUCT.lastIndex - 1;
    const c = text.charCodeAt(i);
    if (c === 92) {
      // `\`: an escape, a hard break, or itself.
      const next = text.charCodeAt(i + 1);
      if (i + 1 < n && next < 128 && ASCII_PUNCTUATION.test(text[i + 1]!)) {
        flushData(i);
        tokens.push(piece(DATA, i, i + 2, text[i + 1]!));
        i += 2;
        dataStart = i;
        continue;
      }
      if (next === 10 || next === 13) {
        // A hard break (section 6.7) up to the end of the line ending (`\r\n` included).
        const end = next === 13 && text.charCodeAt(i + 2) === 10 ? i + 3 : i + 2;
        flushData(i);
        tokens.push(piece(BREAK, i, end, ' '));
        i = end;
        dataStart = i;
        continue;
      }
      i++;
      continue;
    }
    if (c === 96) {
      // A backtick run: a code span up to the next run of the same length, or text.
      let end = i + 1;
      while (end < n && text.charCodeAt(end) === 96) end++;
      const length = end - i;
      backticks ??= backtickRuns(text);
      // No run of this length may close it (a run after an escaped backtick is shorter than the raw run it is in).
      const runs = backticks.get(length);
      while (runs && runs.next < runs.at.length && runs.at[runs.next]! <= i) runs.next++;
      if (!runs || runs.next === runs.at.length) {
        // A run that opens no code span is text, read up to the paragraph's end first (see `Tokenized`).
        replay(i, n);
        i = end;
        continue;
      }
      const close = runs.at[runs.next]!;
      runs.next++;
      const raw = text.slice(end, close);
      // Over lines, a virtual space is written as a NUL (which `text` never holds: micromark reads one as U+FFFD) until
      // the padding is known: it is content, where a space may be padding.
      const value = LINE_ENDING.test(raw)
        ? withoutPadding(overLines(input, end, close, 0, '\0')).replaceAll('\0', ' ')
        : withoutPadding(raw);
      flushData(i);
      tokens.push(piece(CODE, i, close + length, value));
      i = close + length;
      dataStart = i;
      continue;
    }
    if (c === 38) {
      // `&`: a character reference, decoded as micromark decodes it (the HTML5 named references; a number that names
      // no character, or a control, as U+FFFD), or text. Its value is text, merged with the text around it.
      CHARACTER_REFERENCE.lastIndex = i;
      const match = CHARACTER_REFERENCE.exec(text);
      const value = !match
        ? false
        : match[1] !== undefined
          ? decodeNumericCharacterReference(match[1], 10)
          : match[2] !== undefined
            ? decodeNumericCharacterReference(match[2], 16)
            : decodeNamedCharacterReference(match[3]!);
      if (match && value !== false) {
        flushData(i);
        const end = i + match[0].length;
        tokens.push(piece(DATA, i, end, value));
        i = end;
        dataStart = i;
        continue;
      }
      i++;
      continue;
    }
    if (c === 32 || c === 9) {
      // White space at a line's end (micromark's line suffix): two or more spaces and no tab before a line ending
      // make a hard break (section 6.7) up to the end of the line ending; otherwise, and at the paragraph's end, it
      // is dropped (section 4.8).
      let end = i + 1;
      let tabs = c === 9;
      for (;;) {
        const d = text.charCodeAt(end);
        if (d === 32) end++;
        else if (d === 9) {
          tabs = true;
          end++;
        } else break;
      }
      const d = end < n ? text.charCodeAt(end) : -1;
      if (d !== -1 && d !== 10 && d !== 13) {
        i = end;
        continue;
      }
      flushData(i);
      if (d !== -1 && !tabs && end - i >= 2) {
        const after = d === 13 && text.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
        tokens.push(piece(BREAK, i, after, ' '));
        i = after;
      } else i = end;
      dataStart = i;
      continue;
    }
    if (c === 42 || c === 95) {
      let end = i + 1;
      while (end < n && text.charCodeAt(end) === c) end++;
      const before = classify(text, i - 1);
      const after = classify(text, end);
      const open = after === 0 || (after === 2 && before !== 0);
      const close = before === 0 || (before === 2 && after !== 0);
      flushData(i);
      const t = token(DELIM, i, end, text.slice(i, end));
      t.marker = c;
      t.left = end - i;
      t.canOpen = c === 42 ? open : open && (before !== 0 || !close);
      t.canClose = c === 42 ? close : close && (after !== 0 || !open);
      t.index = tokens.length;
      tokens.push(t);
      if (t.canOpen || t.canClose) delims.push(t);
      i = end;
      dataStart = i;
      continue;
    }
    if (c === 60) {
      // `<`: an autolink, a tag, or text when nothing of the kind can start here. An autolink is tried first, as
      // micromark tries it: an address may begin with a digit or a symbol (`<_a@b.c>`, `</a@b.c>`).
      const next = text.charCodeAt(i + 1);
      const letter = (next >= 65 && next <= 90) || (next >= 97 && next <= 122);
      let match: RegExpExecArray | null = null;
      let kind = AUTOLINK;
      if (letter) {
        AUTOLINK_URI.lastIndex = i;
        match = AUTOLINK_URI.exec(text);
      }
      if (!match) {
        AUTOLINK_EMAIL.lastIndex = i;
        match = AUTOLINK_EMAIL.exec(text);
      }
      if (!match && letter) {
        kind = HTML;
        OPEN_TAG.lastIndex = i;
        match = OPEN_TAG.exec(text);
      } else if (!match && next === 47) {
        kind = HTML;
        CLOSING_TAG.lastIndex = i;
        match = CLOSING_TAG.exec(text);
      }
      // Else an HTML construct that the regular expressions do not end: a comment, CDATA section, declaration or
      // instruction (`<!`, `<?`), or a tag over lines. Where none is, the `<` is text.
      let end = match ? i + match[0].length : -1;
      if (!match && (next === 33 || next === 63)) {
        findCloser ??= closerFinder(text);
        end = declarationEnd(text, i, findCloser);
        // One begun that never ends was read up to the paragraph's end first (see `Tokenized`).
        if (end === UNCLOSED) replay(i, n);
      } else if (!match && (letter || next === 47)) {
        TAG_GOES_ON.lastIndex = i;
        if (TAG_GOES_ON.test(text)) {
          // A tag that goes on over a line ending, or what micromark reads as one up to where it stops.
          end = tagOverLines(text, i);
          if (end < 0) replay(i, ~end);
        }
      }
      if (end < 0) {
        i++;
        continue;
      }
      flushData(i);
      tokens.push(
        match && kind === AUTOLINK
          ? piece(AUTOLINK, i + 1, end - 1, match[1]!)
          : piece(HTML, i, end, text.slice(i, end)),
      );
      i = end;
      dataStart = i;
      continue;
    }
    if (c === 91 || (c === 33 && text.charCodeAt(i + 1) === 91)) {
      const image = c === 33;
      const end = i + (image ? 2 : 1);
      flushData(i);
      const t = token(OPEN, i, end, text.slice(i, end));
      t.image = image;
      t.index = tokens.length;
      tokens.push(t);
      opens.push(t);
      lastBracket = i;
      i = end;
      dataStart = i;
      continue;
    }
    if (c === 93 && opens.length > 0) {
      flushData(i);
      const opener = opens.pop()!;
      const active = opener.image || opens.length >= inactiveBelow;
      if (opens.length < inactiveBelow) inactiveBelow = opens.length;
      let end = -1;
      let reference = true;
      if (active) {
        const textStart = lastBracket === opener.start ? opener.end : -1;
        if (text.charCodeAt(i + 1) === 40) {
          end = resourceEnd(text, i + 1);
          if (end < 0) {
            // Not a resource: micromark read up to where it gave up, past a line ending perhaps (see `Tokenized`).
            replay(i, ~end);
            end = -1;
          }
          reference = end === -1;
          // Section 6.3: no resource after a defined label leaves a shortcut reference, the `(` text after it.
          if (end === -1 && defines && defined(text, textStart, i, labels)) end = i + 1;
        } else {
          // micromark reads a full reference's label whether or not the note defines it, past line endings too.
          if (text.charCodeAt(i + 1) === 91) replay(i, labelStop(input, i + 1));
          if (defines) end = referenceEnd(input, i, textStart, labels);
        }
      }
      lastBracket = i;
      if (end === -1) {
        // Not a link: the brackets are text.
        tokens.push(piece(DATA, i, i + 1, ']'));
        i++;
        dataStart = i;
        continue;
      }
      const close = token(CLOSE, i, end, '');
      close.index = tokens.length;
      close.reference = reference;
      tokens.push(close);
      opener.match = close;
      // The emphasis inside the label is settled now, and its delimiters taken out of the rest.
      let first = delims.length;
      while (first > 0 && delims[first - 1]!.index > opener.index) first--;
      processEmphasis(delims.splice(first));
      if (!opener.image) inactiveBelow = opens.length;
      i = end;
      dataStart = i;
      continue;
    }
    if (c === 93) lastBracket = i;
    i++;
  }
  flushData(n);
  processEmphasis(delims);
  return { tokens, replayed };
}

/**
 * Where a reference link or image whose text ends at the `]` at `at` ends, or -1 when it is none (section 6.3, as
 * micromark's label-end.js tries them): a full reference `[label]` with a defined label; else, when the text itself
 * (from `textStart`, or -1 when it holds a bracket and so names no definition) is a defined label, a collapsed `[]`
 * or a shortcut, but never a shortcut before `[` (micromark reads none there, even when no label follows). The text is
 * normalized only up from the last bracket, so no character is normalized twice. An inline resource `(`...`)` is read
 * before any of these (the caller's `resourceEnd`).
 */
function referenceEnd(
  input: InlineSource,
  at: number,
  textStart: number,
  labels: ReadonlySet<string>,
): number {
  const { text } = input;
  const isDefined = defined(text, textStart, at, labels);
  if (text.charCodeAt(at + 1) === 91) {
    const end = labelEnd(input, at + 1);
    if (end !== -1 && labels.has(normalizeLabel(text.slice(at + 2, end - 1)))) return end;
    return isDefined && text.charCodeAt(at + 2) === 93 ? at + 3 : -1;
  }
  return isDefined ? at + 1 : -1;
}

/** Whether a link's text from `textStart` (-1: it holds a bracket) to the `]` at `at` is a defined label. */
function defined(text: string, textStart: number, at: number, labels: ReadonlySet<string>): boolean {
  return textStart !== -1 && labels.has(normalizeLabel(text.slice(textStart, at)));
}

/** Every maximal run of backticks of `text`, by length, each list in order. */
function backtickRuns(text: string): Map<number, { at: number[]; next: number }> {
  const runs = new Map<number, { at: number[]; next: number }>();
  for (let i = text.indexOf('`'); i !== -1; i = text.indexOf('`', i)) {
    let end = i + 1;
    while (end < text.length && text.charCodeAt(end) === 96) end++;
    const length = end - i;
    const list = runs.get(length);
    if (list) list.at.push(i);
    else runs.set(length, { at: [i], next: 0 });
    i = end;
  }
  return runs;
}

/**
 * Where an inline link's resource, `(destination "title")` from the `(` at `at`, ends (after its `)`), read as
 * micromark's resource construct reads it (white space, a line ending in it included, around the destination and the
 * title; a title over lines; a raw destination ended by white space at balance zero), or `~at` where micromark gives
 * up on it: an angle destination cut by `<`, a line ending or the text's end; white space, a control character, the
 * text's end or a `(` past its bound of 32 inside parentheses; no destination; what follows the destination or the
 * title not `)`; a title the text's end cuts. An unescaped `(` in a `(…)` title is title, as micromark reads it
 * (the spec does not allow one there).
 */
function resourceEnd(text: string, at: number): number {
  let i = skipWhitespace(text, at + 1);
  if (text.charCodeAt(i) === 41) return i + 1;
  const destinationStart = i;
  if (text.charCodeAt(i) === 60) {
    i = angleDestinationEnd(text, i);
    if (i < 0) return i;
  } else {
    let balance = 0;
    for (;;) {
      const c = text.charCodeAt(i);
      if (balance === 0 && (Number.isNaN(c) || c === 41 || c === 32 || c === 9 || c === 10 || c === 13))
        break;
      if (c === 40 && balance < DESTINATION_BALANCE) balance++;
      else if (c === 41) balance--;
      // White space or the text's end inside parentheses, a `(` past the bound, a control character.
      else if (Number.isNaN(c) || c === 32 || c === 40 || c < 32 || c === 127) return ~i;
      i += c === 92 && /[()\\]/.test(text[i + 1] ?? '') ? 2 : 1;
    }
    if (i === destinationStart) return ~i;
  }
  const afterDestination = i;
  i = skipWhitespace(text, i);
  const c = text.charCodeAt(i);
  if (i > afterDestination && (c === 34 || c === 39 || c === 40)) {
    const closing = c === 40 ? 41 : c;
    i++;
    for (;;) {
      const d = text.charCodeAt(i);
      if (Number.isNaN(d)) return ~i;
      if (d === closing) {
        i++;
        break;
      }
      i += d === 92 && ASCII_PUNCTUATION.test(text[i + 1] ?? '') ? 2 : 1;
    }
    i = skipWhitespace(text, i);
  }
  return text.charCodeAt(i) === 41 ? i + 1 : ~i;
}

/**
 * The delimiter algorithm (CommonMark 0.31, section 6.2, "process emphasis") over `list`, in order, as micromark
 * resolves it: a closer takes the nearest opener of its marker, skipping one that breaks the rule of three (read on
 * both runs' lengths as they stand), two characters of each when both have two, else one; the delimiters between
 * them are text. A closer that finds no opener sets the floor below which closers of its kind (marker, whether it
 * may open, length modulo 3) no longer look, until a match changes an opener there.
 */
function processEmphasis(list: Token[]): void {
  if (list.length === 0) return;
  for (let k = 0; k < list.length; k++) {
    list[k]!.prev = list[k - 1];
    list[k]!.next = list[k + 1];
  }
  const floor = new Array<number>(12).fill(-1);
  const unlink = (t: Token): void => {
    if (t.prev) t.prev.next = t.next;
    if (t.next) t.next.prev = t.prev;
  };
  let closer: Token | undefined = list[0];
  while (closer) {
    if (!closer.canClose) {
      closer = closer.next;
      continue;
    }
    const kind = (closer.marker === 42 ? 0 : 6) + (closer.canOpen ? 3 : 0) + (closer.left % 3);
    let opener = closer.prev;
    while (opener && opener.index > floor[kind]!) {
      if (
        opener.marker === closer.marker &&
        opener.canOpen &&
        !(
          (opener.canClose || closer.canOpen) &&
          closer.left % 3 !== 0 &&
          (opener.left + closer.left) % 3 === 0
        )
      )
        break;
      opener = opener.prev;
    }
    if (!opener || opener.index <= floor[kind]!) {
      floor[kind] = closer.index - 1;
      const next: Token | undefined = closer.next;
      if (!closer.canOpen) unlink(closer);
      closer = next;
      continue;
    }
    const use = opener.left > 1 && closer.left > 1 ? 2 : 1;
    opener.left -= use;
    closer.left -= use;
    opener.opened += use;
    closer.closed += use;
    // The delimiters between are text now.
    opener.next = closer;
    closer.prev = opener;
    if (opener.left === 0) unlink(opener);
    // The opener changed: closers of every kind may look at it again.
    for (let k = 0; k < 12; k++) if (floor[k]! >= opener.index) floor[k] = opener.index - 1;
    if (closer.left === 0) {
      const next: Token | undefined = closer.next;
      unlink(closer);
      closer = next;
    }
  }
}

/** The runs of a token list, text merged as mdast merges it: only adjacent text in the same parent. */
function flatten({ tokens, replayed }: Tokenized, input: InlineSource): TextRun[] {
  const { text } = input;
  const runs: TextRun[] = [];
  // The open run of text (merged text nodes), as offsets into the joined text.
  let value = '';
  let start = -1;
  let end = -1;
  /** The source end of a run ending at `end`: after a line ending micromark read twice, its (see `Tokenized`). */
  const endOf = (end: number): number => {
    const c = text.charCodeAt(end - 1);
    if ((c !== 10 && c !== 13) || end >= text.length || !within(replayed, end - 1))
      return sourceEnd(input, end);
    // `end` starts a line after the first, a paragraph's: see `InlineSource.flow`.
    return input.flow![lineAt(input.joined, end)]!;
  };
  const flush = (): void => {
    if (start === -1) return;
    runs.push({ text: value, start: sourceAt(input, start), end: endOf(end) });
    value = '';
    start = -1;
  };
  const data = (v: string, from: number, to: number): void => {
    if (start === -1) start = from;
    value += v;
    end = to;
  };
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    switch (t.kind) {
      case DATA:
        data(t.value, t.start, t.end);
        break;
      case DELIM: {
        // A run closes emphasis with its first characters and opens it with its last; what is left is text.
        const d = t as Token;
        if (d.closed > 0) flush();
        if (d.left > 0) data(leftOf(d, input), d.start + d.closed, d.end - d.opened);
        if (d.opened > 0) flush();
        break;
      }
      case CODE:
      case AUTOLINK:
        flush();
        runs.push({ text: t.value, start: sourceAt(input, t.start), end: sourceEnd(input, t.end) });
        break;
      case BREAK:
        flush();
        runs.push({ text: ' ', start: sourceAt(input, t.start), end: endOf(t.end) });
        break;
      case HTML:
        flush();
        break;
      case OPEN: {
        const open = t as Token;
        if (!open.match) {
          data(open.value, open.start, open.end);
          break;
        }
        flush();
        if (open.image) {
          const close = open.match;
          let alt = '';
          while (tokens[k] !== close) {
            k++;
            alt += altText(tokens[k]!, input);
          }
          // A reference image keeps no alt text in the tree the note model reads (mdast's `imageReference` has no
          // children to walk).
          if (alt && !close.reference)
            runs.push({ text: alt, start: sourceAt(input, open.start), end: sourceEnd(input, close.end) });
        }
        break;
      }
      case CLOSE:
        flush();
        break;
    }
  }
  flush();
  return runs;
}

/**
 * What emphasis left of a delimiter run: the text between the characters that closed emphasis (from its start) and
 * those that opened it (from its end). As micromark reads it, with one quirk: its preprocessor keeps a NUL as a chunk
 * of its own, and when emphasis opens with the end of a run just before one, the run's end moves back from a point
 * that lies on that chunk, where the text is sliced up to the chunk, the run's whole end: `**\0*` is `**` and
 * emphasis (CommonMark's reference reads `*`). Read alike, so that a NUL there need not send the note to micromark.
 */
function leftOf(t: Token, input: InlineSource): string {
  if (t.left === 0) return '';
  const nul =
    t.opened > 0 && input.written !== undefined && input.written.charCodeAt(sourceAt(input, t.end)) === 0;
  return input.text.slice(t.start + t.closed, nul ? t.end : t.end - t.opened);
}

/** What a token inside an image's label adds to its alt text (mdast-util-to-string of the label). */
function altText(t: Piece, input: InlineSource): string {
  switch (t.kind) {
    case DATA:
    case CODE:
    case AUTOLINK:
      return t.value;
    case HTML:
      // Its value, over lines as micromark keeps it.
      return LINE_ENDING.test(t.value) ? overLines(input, t.start, t.end, 3) : t.value;
    case DELIM:
      return leftOf(t as Token, input);
    case OPEN:
      return (t as Token).match ? '' : t.value;
    default:
      return '';
  }
}

/** Whether `at` lies in one of the `[from, to)` pairs of `ranges` (in order, apart). */
function within(ranges: readonly number[], at: number): boolean {
  let lo = 0;
  let hi = ranges.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (at < ranges[mid * 2]!) hi = mid - 1;
    else if (at >= ranges[mid * 2 + 1]!) lo = mid + 1;
    else return true;
  }
  return false;
}
