/**
 * The deepest nesting of block containers (list items and block quotes) a note may have. Agents nest a few levels;
 * the full CommonMark parser's cost grows with the depth on every line (a list 4,000 levels deep took it 6 s before
 * the tree walk overflowed the stack), so a deeper note is refused with a clear error instead.
 */
export const MAX_NESTING = 32;

/**
 * Where a line opens containers nested deeper than `MAX_NESTING`, as the offset of its first character, or -1. Read
 * in one pass, without parsing: a line's depth is at most the markers it holds at its start (`>`, a `-`/`*`/`+`
 * bullet, an ordered list marker) plus the list items it continues, each of which needs two more columns of indent
 * before the line's first list marker (an item's content is indented past its marker; a block quote needs a `>` of
 * its own). So the count of markers plus half the columns of white space before the first list marker bounds the
 * depth from above; a line that opens no container nests no deeper than the line that opened what it continues.
 */
export function tooDeep(source: string): number {
  let lineStart = 0;
  while (lineStart < source.length) {
    let lineEnd = source.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = source.length;
    let i = lineStart;
    let columns = 0;
    let markers = 0;
    // Columns of white space before the line's first list marker (those after it belong to the markers).
    let indent = -1;
    for (;;) {
      const c = source.charCodeAt(i);
      if (c === 32) {
        columns++;
        i++;
      } else if (c === 9) {
        columns += 4 - (columns % 4);
        i++;
      } else if (c === 62) {
        markers++;
        i++;
      } else if (
        (c === 45 || c === 42 || c === 43) &&
        isSpaceOrEnd(source.charCodeAt(i + 1), i + 1, lineEnd)
      ) {
        markers++;
        if (indent === -1) indent = columns;
        i++;
      } else if (c >= 48 && c <= 57) {
        let j = i;
        while (j < lineEnd && j - i < 9 && source.charCodeAt(j) >= 48 && source.charCodeAt(j) <= 57) j++;
        const d = source.charCodeAt(j);
        if ((d === 46 || d === 41) && isSpaceOrEnd(source.charCodeAt(j + 1), j + 1, lineEnd)) {
          markers++;
          if (indent === -1) indent = columns;
          i = j + 1;
        } else break;
      } else break;
      if (i >= lineEnd) break;
    }
    if (markers + Math.floor((indent === -1 ? 0 : indent) / 2) > MAX_NESTING) return lineStart;
    lineStart = lineEnd + 1;
  }
  return -1;
}

function isSpaceOrEnd(code: number, at: number, lineEnd: number): boolean {
  return at >= lineEnd || code === 32 || code === 9 || code === 13;
}
