/**
 * Where the lines of one paragraph or heading stand in the note: the text the inline reader reads and its places in
 * the source, shared by the inline reader (`inline.ts`), the label reader (`label.ts`) and the definitions.
 */

/** Where a paragraph's lines stand: `text` is their content, each with its line ending (`\n`, `\r\n` or `\r`) and
 * any white space before it; line `k` starts at `text` offset
 * `joined[k]` and at source offset `source[k]`. */
export interface InlineSource {
  text: string;
  joined: readonly number[];
  source: readonly number[];
  /**
   * Where each line starts after its containers' prefixes (its indent included), as micromark places it: past a tab
   * that a prefix took in part. `flowColumn` is the column there (inside such a tab). Every paragraph has them; a
   * heading, one line, has none.
   */
  flow?: readonly number[];
  flowColumn?: readonly number[];
  /** The note as written, when it holds a NUL (`text` holds U+FFFD there, as micromark reads it): see `leftOf`. */
  written?: string;
  /** The note as read (a NUL as U+FFFD), which `source` and `flow` are offsets into. */
  note: string;
}

/** The line of a joined-text offset (binary search: the last line starting at or before it). */
export function lineAt(joined: readonly number[], at: number): number {
  let lo = 0;
  let hi = joined.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (joined[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The source offset of a joined-text offset. */
export function sourceAt(input: InlineSource, at: number): number {
  const line = lineAt(input.joined, at);
  return input.source[line]! + (at - input.joined[line]!);
}

/** The source offset of a joined-text end (exclusive): just after the source character of the last one. */
export function sourceEnd(input: InlineSource, end: number): number {
  return end === 0 ? sourceAt(input, 0) : sourceAt(input, end - 1) + 1;
}

/**
 * Whether a line whose containers' prefixes end at `offset` and `column` starts inside a tab they took in part: the
 * column is inside the tab, and micromark's offset is past it (`InlineSource.flow`).
 */
export function insideSplitTab(note: string, offset: number, column: number): boolean {
  return column % 4 !== 0 && offset > 0 && note.charCodeAt(offset - 1) === 9;
}
