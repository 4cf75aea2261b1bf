import { type InlineSource, insideSplitTab, lineAt } from './inline-source.js';

/** The greatest label size micromark takes (its `linkReferenceSizeMax`). */
const LABEL_MAX = 999;

/**
 * micromark's label reader (micromark-factory-label, for definitions and full references alike) on the `[` at `at`
 * of the text: the offset after its `]`, or `~stop` where it gives up (the text's end, a `[`, a `]` after only white
 * space, or a size past 999). Its size counts codes: a character is one (an escaped bracket or backslash two, with
 * its `\`), a tab one for each column it fills, a line ending none; and since micromark's chunks keep each next
 * line's indent after its containers' prefixes, that indent's columns count too (a paragraph's text leaves it out).
 * A tab's columns depend on where it stands in its line: they are counted only in a label that holds a tab or goes
 * on over lines.
 */
function readLabel(input: InlineSource, at: number): number {
  const { text } = input;
  let size = 0;
  let seen = false;
  // The column of `i` modulo 4 once a tab or a line needs it (-1 before).
  let column = -1;
  for (let i = at + 1; ; ) {
    const c = text.charCodeAt(i);
    if (Number.isNaN(c) || c === 91) return ~i;
    if (c === 93) return seen && size <= LABEL_MAX ? i + 1 : ~i;
    if (c === 10 || c === 13) {
      if (size > LABEL_MAX) return ~i;
      i += c === 13 && text.charCodeAt(i + 1) === 10 ? 2 : 1;
      const line = lineAt(input.joined, i);
      const textColumn = lineColumn(input, line);
      const indent = textColumn - (input.flowColumn?.[line] ?? textColumn);
      // Each of the indent's codes is read while the size is at most 999.
      if (size + indent > LABEL_MAX + 1) return ~i;
      size += indent;
      column = textColumn % 4;
      continue;
    }
    // A code is read while the size is at most 999 (`size++ > 999` stops it).
    if (size > LABEL_MAX) return ~i;
    if (c === 9) {
      if (column === -1) column = columnOf(input, i);
      const width = 4 - column;
      // The tab's code is read; one of its virtual spaces past the bound stops the reader inside it.
      if (size + width > LABEL_MAX + 1) return ~(i + 1);
      size += width;
      column = 0;
      i++;
      continue;
    }
    size++;
    if (column !== -1) column = (column + 1) % 4;
    if (c !== 32) seen = true;
    const d = text.charCodeAt(i + 1);
    if (c === 92 && (d === 91 || d === 92 || d === 93)) {
      // An escape: its character is read whatever the size (`labelEscape`).
      size++;
      if (column !== -1) column = (column + 1) % 4;
      i += 2;
    } else i++;
  }
}

/** Where the label `[...]` at `at` ends (after its `]`), or -1 when none does there. */
export function labelEnd(input: InlineSource, at: number): number {
  const end = readLabel(input, at);
  return end < 0 ? -1 : end;
}

/** Where micromark's label reader stops in the `[...]` at `at`: after its `]`, or at what it gives up on. */
export function labelStop(input: InlineSource, at: number): number {
  const end = readLabel(input, at);
  return end < 0 ? ~end : end;
}

/**
 * The column (modulo 4) of text offset `at`: from the last tab before it on its line (which ends on a tab stop), or
 * from where the line's text starts.
 */
function columnOf(input: InlineSource, at: number): number {
  const line = lineAt(input.joined, at);
  const start = input.joined[line]!;
  const tab = input.text.lastIndexOf('\t', at - 1);
  if (tab >= start) return (at - tab - 1) % 4;
  return (lineColumn(input, line) + at - start) % 4;
}

/**
 * The column where line `line`'s text starts, counted in its physical line (tab stops of 4): for a line after the
 * first, from where its containers' prefixes end (`InlineSource.flow`); for the first, from the line's start.
 */
function lineColumn(input: InlineSource, line: number): number {
  const { note, flow, flowColumn, source } = input;
  if (line > 0 && flow !== undefined && flowColumn !== undefined)
    return advance(note, flow[line]!, source[line]!, flowColumn[line]!);
  let from = source[line]!;
  while (from > 0 && note.charCodeAt(from - 1) !== 10 && note.charCodeAt(from - 1) !== 13) from--;
  return advance(note, from, source[line]!, 0);
}

/**
 * The column reached from `column` at `from` through `to` of `note` (tab stops of 4). A `column` inside a tab that a
 * prefix took in part (`from` is past it) first goes on to the tab's stop.
 */
function advance(note: string, from: number, to: number, column: number): number {
  let col = column;
  if (insideSplitTab(note, from, col)) col += 4 - (col % 4);
  for (let i = from; i < to; i++) col = note.charCodeAt(i) === 9 ? col + 4 - (col % 4) : col + 1;
  return col;
}
