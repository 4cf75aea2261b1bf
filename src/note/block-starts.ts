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
// A complete open or closing tag (section 6.6), then only spaces or tabs up to the line's end.
const ATTRIBUTE = `[ \\t]+[A-Za-z_:][A-Za-z0-9_.:-]*(?:[ \\t]*=[ \\t]*(?:[^ \\t\\r\\n"'=<>\`]+|'[^'\\r\\n]*'|"[^"\\r\\n]*"))?`;
const COMPLETE_TAG = `(?:<[A-Za-z][A-Za-z0-9-]*(?:${ATTRIBUTE})*[ \\t]*/?>|</[A-Za-z][A-Za-z0-9-]*[ \\t]*>)[ \\t]*(?=\\r|\\n|$)`;

/** 4.6 HTML blocks: the start condition of each of the seven kinds, index 1 to 7. */
export const HTML_OPEN: readonly RegExp[] = [
  /(?!)/y,
  /<(?:pre|script|style|textarea)(?=[ \t>\r\n]|$)/iy,
  /<!--/y,
  /<\?/y,
  /<![A-Za-z]/y,
  /<!\[CDATA\[/y,
  new RegExp(`</?(?:${BLOCK_NAMES})(?:${END}|/?>)`, 'iy'),
  new RegExp(COMPLETE_TAG, 'y'),
];

/** The end condition of HTML block kinds 1-5, looked for in the rest of a line (kinds 6 and 7 end at a blank line). */
export const HTML_CLOSE: readonly RegExp[] = [
  /(?!)/,
  /<\/(?:pre|script|style|textarea)>/i,
  /-->/,
  /\?>/,
  />/,
  /\]\]>/,
];

/**
 * A `<` tag name followed by `:`, `_` or `.`: micromark reads an attribute there without the white space the spec
 * asks for (an HTML block of kind 7 the regex above does not take), so the block parser leaves such a line to it.
 */
export const TAG_NAME_THEN_ATTRIBUTE = /<[A-Za-z][A-Za-z0-9-]*[:_.]/y;

/** Whether `re` (sticky) matches `source` at `at`; its match's length, or -1. */
export function matchAt(re: RegExp, source: string, at: number): number {
  re.lastIndex = at;
  const match = re.exec(source);
  return match ? match[0].length : -1;
}
