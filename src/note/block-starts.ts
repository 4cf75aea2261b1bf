/**
 * The leaf block starts of CommonMark 0.31 (sections 4.1-4.6) that the block parser (`block-parser.ts`) recognizes at
 * a line's first non-space character, each a sticky regex run at that offset of the source, so that no line is
 * copied. Each is written as micromark 4 reads it (micromark-core-commonmark), where micromark and the spec's prose
 * could be read two ways: white space is a space or a tab (never `\s`, which would take a no-break space).
 */

/** 4.1 Thematic break: three or more `*`, `-` or `_` (the one at `at`), and spaces or tabs, up to the line's end. */
export function thematicBreak(source: string, at: number, lineEnd: number): boolean {
  const marker = source.charCodeAt(at);
  if (marker !== 42 && marker !== 45 && marker !== 95) return false;
  let count = 0;
  for (let i = at; i < lineEnd; i++) {
    const c = source.charCodeAt(i);
    if (c === marker) count++;
    else if (c !== 32 && c !== 9) return false;
  }
  return count >= 3;
}

/** 4.2 ATX heading: one to six `#` followed by a space, a tab or the line's end. */
export const ATX_OPEN = /#{1,6}(?=[ \t\r\n]|$)/y;

/** 4.3 Setext heading underline: `=` or `-` runs, then spaces or tabs, up to the line's end. */
export const SETEXT_UNDERLINE = /(?:=+|-+)[ \t]*(?=\r|\n|$)/y;

/** 4.5 Fenced code: three or more backticks (with no backtick in the info string after them) or tildes. */
export const FENCE_OPEN = /`{3,}(?=[^`\r\n]*(?:\r|\n|$))|~{3,}/y;

/**
 * 5.2 List item marker at `at`: its length (1 for a bullet `-`, `+`, `*`; one to nine digits and `.` or `)` for an
 * ordered one), or -1. The caller checks what follows it.
 */
export function listMarker(source: string, at: number, lineEnd: number): number {
  const c = source.charCodeAt(at);
  if (c === 45 || c === 43 || c === 42) return 1;
  let i = at;
  while (i < lineEnd && i - at < 9 && source.charCodeAt(i) >= 48 && source.charCodeAt(i) <= 57) i++;
  if (i === at || i >= lineEnd) return -1;
  const d = source.charCodeAt(i);
  return d === 46 || d === 41 ? i + 1 - at : -1;
}

const BLOCK_NAMES =
  'address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul';
const END = '(?=[ \\t\\r\\n]|$)';

/** 4.6 HTML blocks: the start condition of kinds 1 to 6, index 1 to 6 (kind 7 is `completeTag`). */
export const HTML_OPEN: readonly RegExp[] = [
  /(?!)/y,
  /<(?:pre|script|style|textarea)(?=[ \t>\r\n]|$)/iy,
  /<!--/y,
  /<\?/y,
  /<![A-Za-z]/y,
  /<!\[CDATA\[/y,
  new RegExp(`</?(?:${BLOCK_NAMES})(?:${END}|/?>)`, 'iy'),
];

// The characters of an HTML tag (section 6.6), shared with the inline reader's tags: a name's first letter, its
// letters, digits and `-`; an attribute name's first character (a letter, `_` or `:`) and the rest (also `.`).
const isSpace = (c: number): boolean => c === 32 || c === 9;
const isAlpha = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
export const isTagNameCode = (c: number): boolean => c === 45 || isAlpha(c) || (c >= 48 && c <= 57);
export const isAttributeNameStart = (c: number): boolean => c === 58 || c === 95 || isAlpha(c);
export const isAttributeNameCode = (c: number): boolean =>
  c === 46 || isAttributeNameStart(c) || isTagNameCode(c);
/** The line's end, a quote, `/`, `<`, `=`, `>`, a backtick, a space or a tab. */
const endsUnquotedValue = (c: number): boolean =>
  c === -1 || c === 34 || c === 39 || c === 47 || c === 60 || c === 61 || c === 62 || c === 96 || isSpace(c);

/**
 * 4.6 HTML block of kind 7: whether the line from the `<` at `at` to `lineEnd` is one complete open or closing tag
 * (then only spaces or tabs), as micromark's html-flow states read it (micromark-core-commonmark `html-flow.js`, from
 * `tagName` to `completeAfter`). They read an unquoted attribute value otherwise than the spec (section 6.6) and than
 * micromark's tag in a line: it ends at a `/`, and `=` may follow it again, so `<a b=c/d>` is no block and
 * `<a b=c=d>`, `<a b=c =d>` are. What is no block is a paragraph, so the block parser reads them as micromark does.
 * The caller has ruled out kinds 1 and 6 (a raw or block name not followed by `/`).
 */
export function completeTag(source: string, at: number, lineEnd: number): boolean {
  // `code(i)`: the character at `i`, or -1 at the line's end (micromark's line ending or end of file).
  const code = (i: number): number => (i < lineEnd ? source.charCodeAt(i) : -1);
  let i = at + 1;
  const closing = code(i) === 47;
  if (closing) i++;
  if (!isAlpha(code(i))) return false;
  while (isTagNameCode(code(i))) i++;
  const after = code(i);
  if (after !== -1 && after !== 47 && after !== 62 && !isSpace(after)) return false;
  if (closing) {
    while (isSpace(code(i))) i++;
    return completeEnd(i);
  }
  for (;;) {
    // completeAttributeNameBefore
    let c = code(i);
    if (c === 47) return completeEnd(i + 1);
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (!isAttributeNameStart(c)) return completeEnd(i);
    // completeAttributeName
    i++;
    while (isAttributeNameCode(code(i))) i++;
    // completeAttributeNameAfter, and each value after it: `=` may follow an unquoted value at once
    for (;;) {
      while (isSpace(code(i))) i++;
      if (code(i) !== 61) break;
      i++;
      // completeAttributeValueBefore
      while (isSpace(code(i))) i++;
      c = code(i);
      if (c === -1 || c === 60 || c === 61 || c === 62 || c === 96) return false;
      if (c === 34 || c === 39) {
        const close = source.indexOf(String.fromCharCode(c), i + 1);
        if (close === -1 || close >= lineEnd) return false;
        i = close + 1;
        // completeAttributeValueQuotedAfter
        c = code(i);
        if (c !== 47 && c !== 62 && !isSpace(c)) return false;
        break;
      }
      // completeAttributeValueUnquoted
      while (!endsUnquotedValue(code(i))) i++;
    }
  }

  // completeEnd, then completeAfter: `>`, then only spaces or tabs to the line's end.
  function completeEnd(j: number): boolean {
    if (code(j) !== 62) return false;
    j++;
    while (isSpace(code(j))) j++;
    return j >= lineEnd;
  }
}

/** The end condition of HTML block kinds 1-5, looked for in the rest of a line (kinds 6 and 7 end at a blank line). */
export const HTML_CLOSE: readonly RegExp[] = [
  /(?!)/,
  /<\/(?:pre|script|style|textarea)>/i,
  /-->/,
  /\?>/,
  />/,
  /\]\]>/,
];

/** Whether `re` (sticky) matches `source` at `at`; its match's length, or -1. */
export function matchAt(re: RegExp, source: string, at: number): number {
  re.lastIndex = at;
  const match = re.exec(source);
  return match ? match[0].length : -1;
}
