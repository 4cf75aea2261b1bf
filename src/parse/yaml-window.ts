// The syntax errors of a large YAML file, found without the `yaml` package reading all of it. Its reading costs about
// a second a megabyte (its parser and composer, and the collection of a whole syntax tree), so one typo at the end of a
// 1 MB cases file took 2-3 s of CPU, where js-yaml had already read everything up to the typo in a third of that.
//
// What js-yaml read before it failed reads alike to the two parsers (the light path already trusts a text js-yaml
// reads whole), item by item of a list (block or flow), so long as no alias stands where the windows start or after
// (an item cut from the anchor its alias names would read apart) and nothing the `yaml` lexer cuts short (`cutShortAt`; where the lexer cuts short what
// js-yaml read through, the windows open there, as at a failure). A file's problems are then what the `yaml` package
// finds in windows: the text before the list's first item (the head), then, from the item the failure is in, the text
// up to the first item of the list that starts REACH past the failure, as the `yaml` lexer reads it (a block list's `-`
// line outside any flow collection or scalar; a flow list's item after a `,` at its own level, at its line's start when
// the list runs over lines: no construct is cut, no line's indentation changed). The rest is read by js-yaml once more,
// after the head: read whole, it holds no problem; failed, its failure's item opens the next window. The `yaml` parser
// must read the start of each window as an item of the list the head opens (see `readWindows`); every problem is then
// placed in the file itself. What cannot be cut so (no list at the failure, a failure in the head, a window in which the
// `yaml` package finds nothing) is left to that package's reading of the whole file.
import type { CST } from 'yaml';
import type { Diagnostic } from '../errors/index.js';
import { LineIndex } from './position.js';
import { readYaml, type YamlReading, yamlProblems } from './yaml.js';
import { MAX_YAML_ERRORS } from './yaml-errors.js';
import type { FastFailure, ReadList } from './yaml-fast-types.js';
import { cutShortAt, type LexemeKind, walkLexemes } from './yaml-lexer.js';

/** Texts shorter than this are read whole by the `yaml` package: a few tens of milliseconds. */
export const WINDOW_FROM = 64 * 1024;
/** How far past a failure its window reaches at least. */
const REACH = 16 * 1024;
/** How much text the windows may hold together before reading stops (and how long a rest is read whole). */
export const MAX_WINDOWS_LENGTH = 128 * 1024;
/** How many times js-yaml reads the rest before reading stops. */
const MAX_PASSES = 16;

/**
 * Whether an alias (`*name`) may stand at or after `from`: a `*` at the start of a line or after white space, a flow
 * indicator or `:`, wherever it stands (in a quoted or block scalar too, which only costs the windows).
 */
export function aliasFrom(text: string, from: number): boolean {
  ALIAS.lastIndex = Math.max(0, from - 1);
  return ALIAS.test(text);
}
const ALIAS = /(?:^|[\s[\]{},:])\*/gm;

/**
 * Where a list is cut: where it starts (its `[` or first `-`), whether it is a flow list and whether it stands in one,
 * a block list's column, and where the text of its first item and of the failure's item start (a block list's: their
 * lines).
 */
interface Cut {
  at: number;
  flow: boolean;
  inFlow: boolean;
  column: number;
  first: number;
  start: number;
}

/**
 * The diagnostics the `yaml` package gives a large text that js-yaml failed to read (see above), or undefined when
 * they are its reading of the whole text to give. `readAgain` is the light path's reading of a text (whole, failed
 * with where, or left to the `yaml` package).
 */
export function yamlErrorsInWindows(
  text: string,
  failure: FastFailure,
  file: string,
  readAgain: (text: string) => FastFailure | 'read' | undefined,
): Diagnostic[] | undefined {
  if (text.length < WINDOW_FROM) return undefined;
  const cut = cutAt(text, failure.lists, failure.at);
  if (!cut || cutShortBefore(text, cut, failure.overLines) || aliasFrom(text, cut.start)) return undefined;
  const head = text.slice(0, cut.first);
  const windows: Array<{ from: number; to: number }> = [];
  let length = head.length;
  let from = cut.start;
  let failedAt = failure.at;
  let unread: number | undefined;
  for (let pass = 1; ; pass++) {
    const to = itemFrom(head, text, from, Math.max(failedAt, from) + REACH, cut);
    windows.push({ from, to });
    length += to - from;
    if (to === text.length) break;
    if (pass === MAX_PASSES || length >= MAX_WINDOWS_LENGTH) {
      unread = to;
      break;
    }
    const rest = head + text.slice(to);
    const again = readAgain(rest);
    if (again === 'read') break;
    if (again === undefined || again.at < head.length) return undefined;
    const shift = to - head.length;
    // The list starts at one place in every text read again: the head, then the items left.
    const next = cutAt(
      rest,
      again.lists.filter((list) => list.at === cut.at),
      again.at,
    );
    // Read again, the list ended before the failure, in a collection it was not the last of: the rest is read whole.
    if (!next) {
      windows.push({ from: to, to: text.length });
      break;
    }
    if (cutShortBefore(rest, next, again.overLines)) return undefined;
    from = next.start + shift;
    failedAt = again.at + shift;
  }
  // The item after the last window is read too: the `yaml` parser's reading of its start (see `readWindows`) shows
  // whether it reads on after the windows as the light path did. Its own problems are the rest's (read by js-yaml) or
  // unread.
  let following = windows.at(-1)!.to < text.length;
  if (following) {
    const last = windows.at(-1)!.to;
    windows.push({ from: last, to: itemFrom(head, text, last, last + 1, cut) });
  }
  let read = readWindows(text, head, windows, cut);
  // Where the parser left the list in a window, it reads the rest of the text otherwise than the light path: a short
  // rest is read whole, from the window before on.
  if (read && read.off !== -1 && text.length - windows[read.off - 1]!.from <= MAX_WINDOWS_LENGTH) {
    windows.splice(read.off - 1, windows.length, { from: windows[read.off - 1]!.from, to: text.length });
    following = false;
    unread = undefined;
    read = readWindows(text, head, windows, cut);
  }
  if (!read) return undefined;
  const { reading, starts, off } = read;
  // Where the reading of the file ends: at the first window the parser left the list before, or at the item after the
  // last window (read by js-yaml, or unread); a reading that runs to the end of the text keeps the problems it places
  // at the very end (an unclosed collection's).
  const end = off !== -1 ? starts[off]! : following ? starts.at(-1)! : Number.POSITIVE_INFINITY;
  const problems = reading.problems.filter((p) => p.offset < end);
  if (problems.length === 0) return undefined;
  const place = (offset: number): number => {
    const i = starts.findLastIndex((s) => s <= offset);
    return i === -1 ? offset : Math.min(windows[i]!.from + offset - starts[i]!, windows[i]!.to);
  };
  const index = new LineIndex(text);
  const readTo =
    reading.readTo !== undefined
      ? Math.min(reading.readTo, end - 1)
      : off !== -1 || unread !== undefined
        ? end - 1
        : undefined;
  const diagnostics = yamlProblems({ problems, readTo }, index, file, place);
  if (readTo !== undefined && problems.length <= MAX_YAML_ERRORS)
    diagnostics.push({
      file,
      message: `and maybe more YAML errors after line ${index.position(place(readTo)).line}; needlework read no further`,
    });
  return diagnostics;
}

/**
 * The `yaml` package's reading of the head and the windows, one after another, when it finds problems: with where
 * each window starts in what it read, and the first window after the first (`off`, or -1) whose start it did not read
 * as an item of the list the head opens. A window starts where the text before it was cut, at an item of the list (a block list's
 * `-` line): read as an item of that list, which is then still open in the collections the head opened, it is read as
 * in the whole text; otherwise an error before it left the parser in a key or scalar that runs on, or in another
 * list, and what the parser read from there on is not the file's reading.
 */
function readWindows(
  text: string,
  head: string,
  windows: ReadonlyArray<{ from: number; to: number }>,
  list: Cut,
): { reading: Extract<YamlReading, { problems: unknown }>; starts: number[]; off: number } | undefined {
  const read = head + windows.map((w) => text.slice(w.from, w.to)).join('');
  const reading = readYaml(read);
  if (typeof reading === 'string' || !('problems' in reading)) return undefined;
  const starts: number[] = [];
  let length = head.length;
  for (const w of windows) {
    starts.push(length);
    length += w.to - w.from;
  }
  // A block list's item starts at its `-`; a flow list's, past the white space after `[` or `,`.
  const items = itemsOf(reading.tokens, list.flow ? list.at : head.length + list.column);
  const itemAt = (s: number) => (list.flow ? nonSpace(read, s) : s + list.column);
  // The first window needs no such check: the head leaves the parser where the whole text's items before it do, in the
  // list and expecting an item of it.
  return { reading, starts, off: starts.findIndex((s, i) => i > 0 && !items.has(itemAt(s))) };
}

/**
 * Where each item starts in a list of a syntax tree (a walk with a stack: the tree may be deep): the block list whose
 * first item's `-` stands at `at` (its items' `-`), or the flow list whose `[` does (its items' first tokens); none
 * when there is no such list.
 */
function itemsOf(tokens: readonly CST.Token[], at: number): Set<number> {
  const stack = [...tokens];
  while (stack.length > 0) {
    const token = stack.pop()!;
    if (token.type === 'document') {
      if (token.value) stack.push(token.value);
    } else if (token.type === 'block-seq') {
      const dashes = new Set<number>();
      for (const item of token.items) {
        for (const source of item.start) if (source.type === 'seq-item-ind') dashes.add(source.offset);
        if (item.value) stack.push(item.value);
      }
      if (dashes.has(at)) return dashes;
    } else if (token.type === 'flow-collection' && token.start.offset === at) {
      const starts = new Set<number>();
      for (const item of token.items) {
        const first = item.start.find((source) => !SEPARATORS.has(source.type)) ?? item.key ?? item.value;
        if (first) starts.add(first.offset);
      }
      return starts;
    } else if (token.type === 'block-map' || token.type === 'flow-collection') {
      for (const item of token.items) {
        if (item.key) stack.push(item.key);
        if (item.value) stack.push(item.value);
      }
    }
  }
  return new Set();
}

/** What may stand before a flow list item's first token in its syntax tree. */
const SEPARATORS = new Set(['comma', 'space', 'newline', 'comment']);

/** Where the first character at or past `at` that is no white space or line break stands. */
function nonSpace(text: string, at: number): number {
  let i = at;
  for (
    let c = text.charCodeAt(i);
    c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
    c = text.charCodeAt(++i)
  );
  return i;
}

/** The cut of the list read at a failure that leaves the most text out of the window, if any can be cut. */
export function cutAt(text: string, lists: readonly ReadList[], failedAt: number): Cut | undefined {
  let best: Cut | undefined;
  for (const list of lists) {
    const cut = cutOf(text, list, failedAt);
    if (cut && (!best || cut.start - cut.first > best.start - best.first)) best = cut;
  }
  return best;
}

/**
 * Where a list read at a failure is cut: at the last item that starts at or before the failure; a block list at that
 * item's line, when its first `-` and that item's stand at one column after spaces alone. A list with an empty item
 * before that one is not cut: js-yaml and the `yaml` package may read the items after it apart (see
 * `emptyItemsReadApart`).
 */
function cutOf(text: string, list: ReadList, failedAt: number): Cut | undefined {
  // An empty item last is the one js-yaml failed in (it composes an empty node before it fails at `- x` in a flow list).
  let k = list.items.length - 1;
  while (k >= 0 && (Number.isNaN(list.items[k]) || list.items[k]! > failedAt)) k--;
  if (k < 0 || list.items.some((at, i) => i < k && Number.isNaN(at))) return undefined;
  // A flow list is cut at its items' starts, the first past white space alone after its `[`: on one line, at the
  // items themselves; over lines, at the starts of their lines, each item first on its line (a window keeps every
  // line's indentation, which the yaml lexer reads).
  if (text.charCodeAt(list.at) === 0x5b /* [ */) {
    const [first, start] = [list.items[0]!, list.items[k]!];
    if (nonSpace(text, list.at + 1) !== first) return undefined;
    const cut = { at: list.at, flow: true, inFlow: list.inFlow, column: 0, first, start };
    if (text.lastIndexOf('\n', start) < list.at) return cut;
    const [firstLine, startLine] = [lineStart(text, first), lineStart(text, start)];
    return blanksOnly(text, firstLine, first) && blanksOnly(text, startLine, start)
      ? { ...cut, first: firstLine, start: startLine }
      : undefined;
  }
  const first = lineStart(text, list.at);
  const column = list.at - first;
  if (!blanksOnly(text, first, list.at)) return undefined;
  const start = dashLine(text, list.items[k]!, column);
  return start === undefined
    ? undefined
    : { at: list.at, flow: false, inFlow: list.inFlow, column, first, start };
}

/**
 * The start of the line holding the `-` of the item that starts at `item`: its own line when the `-` stands there at
 * `column`, or the line before when that line is that `-` alone (`-` then the item on the next line).
 */
function dashLine(text: string, item: number, column: number): number | undefined {
  const start = lineStart(text, item);
  if (start + column < item && dashAt(text, start, column)) return start;
  if (start === 0 || !blanksOnly(text, start, item)) return undefined;
  const previous = lineStart(text, start - 1);
  return dashAt(text, previous, column) && blanksOnly(text, previous + column + 1, start - 1)
    ? previous
    : undefined;
}

/** Whether the line starting at `start` holds `-` at `column`, after blanks alone, and white space or its end after. */
function dashAt(text: string, start: number, column: number): boolean {
  const at = start + column;
  if (text.charCodeAt(at) !== 0x2d /* - */ || !blanksOnly(text, start, at)) return false;
  const next = text.charCodeAt(at + 1);
  return Number.isNaN(next) || next === 0x20 || next === 0x09 || next === 0x0a || next === 0x0d;
}

/**
 * Whether only spaces, tabs and a carriage return stand from `from` to `to` (a block list's indentation, which js-yaml
 * read, holds no tab).
 */
function blanksOnly(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

function lineStart(text: string, at: number): number {
  return at === 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1;
}

/**
 * Whether the `yaml` lexer cuts something short before the window that js-yaml read: a flow collection or quoted
 * scalar over several lines that js-yaml closed (`overLines`: the lexer reads the text up to the window), or the flow
 * list being cut, when it runs over several lines to the window. A flow list in block context is lexed from the start
 * of its line, where the lexer's state is that line's alone. The lexer reads on to the window's first character (a
 * text that ends at a line's start inside a flow collection is one it cuts short there); what it cuts short from the
 * window on is the window's to read.
 */
function cutShortBefore(text: string, cut: Cut, overLines: boolean): boolean {
  const from =
    overLines || (cut.flow && cut.inFlow)
      ? 0
      : cut.flow && text.lastIndexOf('\n', cut.start - 1) > cut.at
        ? lineStart(text, cut.at)
        : -1;
  if (from === -1) return false;
  const at = cutShortAt(text.slice(from, nonSpace(text, cut.start) + 1));
  return at !== -1 && from + at < cut.start;
}

/**
 * Where the window from `start` ends: at the first item of the list that starts past `from`, as the `yaml` lexer reads
 * the head and then the text from `start` (see `blockItemLine`, `flowItemAfter`); or the text's length when there is
 * none, or none within `MAX_WINDOWS_LENGTH` of `from` (lexing on would cost as much as reading the rest).
 */
export function itemFrom(head: string, text: string, start: number, from: number, list: Cut): number {
  // A place in what is lexed is the same in the text in the head, and `shift` on past it.
  const shift = start - head.length;
  const visit = list.flow ? flowItemAfter(text, from, list.at) : blockItemLine(text, from, list.column);
  return (
    walkLexemes(head + text.slice(start), (lexeme, here, kind) => {
      const at = here < head.length ? here : here + shift;
      if (at > from + MAX_WINDOWS_LENGTH) return text.length;
      const end = here + (kind === 'flow-end' ? 0 : lexeme.length);
      return visit(lexeme, at, end < head.length ? end : end + shift, kind);
    }) ?? text.length
  );
}

/** A visitor of the lexemes of a window's text, each at its place in the text: where the window ends, once found. */
type ItemVisitor = (lexeme: string, at: number, end: number, kind: LexemeKind) => number | undefined;

/**
 * The start of the first line at or past `from` that holds an item of the block list at `column`: its `-` outside any
 * flow collection, quoted or block scalar (each of which the lexer gives as one lexeme).
 */
function blockItemLine(text: string, from: number, column: number): ItemVisitor {
  let flow = 0;
  // Where the line being read starts, while only its indentation has been read.
  let line = -1;
  return (lexeme, at, end, kind) => {
    if (kind === 'flow-end') {
      flow = 0;
      return undefined;
    }
    const c = lexeme.charCodeAt(0);
    if (kind === 'source' && (c === 0x0a || c === 0x0d)) {
      line = end;
      return undefined;
    }
    if (kind === 'source' && line >= from && flow === 0) {
      if (c === 0x20 && at === line) return undefined;
      if (lexeme === '-' && at === line + column) return dashAt(text, line, column) ? line : text.length;
    }
    line = -1;
    if (kind !== 'source') return undefined;
    if (lexeme === '[' || lexeme === '{') flow++;
    else if ((lexeme === ']' || lexeme === '}') && flow > 0) flow--;
    return undefined;
  };
}

/**
 * Where the first `,` at or past `from` that separates items of the flow list whose `[` stands at `at` ends, or the
 * line it ends (the next window starts on the next line); the text's length once the list closes or the lexer cuts it
 * short.
 */
function flowItemAfter(text: string, from: number, at: number): ItemVisitor {
  let flow = 0;
  let level = -1;
  return (lexeme, here, _end, kind) => {
    if (kind === 'flow-end') return text.length;
    if (kind === 'scalar') return undefined;
    if (lexeme === '[' || lexeme === '{') {
      flow++;
      if (here === at) level = flow;
    } else if (lexeme === ']' || lexeme === '}') {
      if (flow-- === level) return text.length;
    } else if (lexeme === ',' && flow === level && here >= from) {
      if (text.charCodeAt(here) !== 0x2c /* , */) return text.length;
      const line = text.indexOf('\n', here + 1);
      return line !== -1 && blanksOnly(text, here + 1, line) ? line + 1 : here + 1;
    }
    return undefined;
  };
}
