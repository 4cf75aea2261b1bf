import { normalizeIdentifier } from 'micromark-util-normalize-identifier';
import type { InlineSource } from './inline-source.js';
import { labelEnd } from './label.js';

/**
 * Link reference definitions (CommonMark 0.31, section 4.7) as micromark 4 reads them (micromark-core-commonmark's
 * definition.js with the label, destination and title factories): at the start of a paragraph's content, one
 * definition after another, each `[label]:`, a destination, an optional title, and nothing but white space after it
 * on its line. A definition makes no block and no text; what the note keeps of it is its label, normalized as
 * micromark matches labels (`normalizeIdentifier`: white space collapsed, trimmed, case folded), against which the
 * inline reader resolves reference links (section 6.3). Only whether a label is defined matters to the text, so the
 * first definition of a label winning over later ones (which changes only a link's destination) needs no record.
 *
 * Every scan moves on: a label and a destination end on their definition, and a title scan that fails or closes
 * is remembered, so that the next definition's title, which can only start past the last one's opening, does not
 * walk the same lines again (see `titleEnd`). The time is linear in the paragraph.
 */

export { normalizeIdentifier as normalizeLabel };

/** Reads the definitions of one note's paragraphs into a set of labels, as the block parser closes each paragraph. */
export class DefinitionReader {
  /** The normalized labels of every definition read so far. */
  readonly labels = new Set<string>();
  // The last title scan of each marker (`"`, `'`, `)`): where it started and where it ended (after its marker, or -1
  // when none closes it), for the paragraph text `text`.
  private input: InlineSource = { text: '', joined: [0], source: [0], note: '' };
  private text = '';
  private readonly from = [0, 0, 0];
  private readonly to = [0, 0, 0];

  /**
   * Where the content of a paragraph starts in its text after the definitions it opens with (0 when it opens with
   * none, the text's length when it is only definitions). Each definition's label is added.
   */
  read(input: InlineSource): number {
    const { text } = input;
    this.input = input;
    this.text = text;
    this.from.fill(-1);
    let start = 0;
    for (;;) {
      if (text.charCodeAt(start) !== 91) return start;
      const end = this.definition(start);
      if (end === -1) return start;
      // After the line ending (none at the paragraph's end), micromark skips the next line's indent: our lines
      // start after it already.
      start = end;
    }
  }

  /** The end of the definition at `at` (after its line ending), its label added, or -1 when none is there. */
  private definition(at: number): number {
    const { text } = this;
    const label = labelEnd(this.input, at);
    if (label < 0) return label;
    if (text.charCodeAt(label) !== 58) return -1;
    let i = skipWhitespace(text, label + 1);
    const destination = destinationEnd(text, i);
    if (destination === -1) return -1;
    i = destination;
    // An optional title after white space, then only spaces or tabs to the line's end; else, the definition ends
    // after its destination, if only spaces or tabs follow it there (the title was never there: micromark's attempt).
    let end = -1;
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) {
      const title = skipWhitespace(text, i);
      const after = this.titleEnd(title);
      if (after !== -1) end = lineEnd(text, after);
    }
    if (end === -1) end = lineEnd(text, i);
    if (end === -1) return -1;
    this.labels.add(normalizeIdentifier(text.slice(at + 1, label - 1)));
    return end;
  }

  /**
   * Where the title opening at `at` ends (after its closing marker), or -1 (section 4.7: `"..."`, `'...'` or
   * `(...)`, over lines, a backslash escaping the marker or a backslash). A title opens after white space, so never
   * on an escaped character of an earlier scan of its marker: a scan from a later opening inside an earlier one's
   * range ends where that one ended, which is reused rather than walked again.
   */
  private titleEnd(at: number): number {
    const { text } = this;
    const open = text.charCodeAt(at);
    const kind = open === 34 ? 0 : open === 39 ? 1 : open === 40 ? 2 : -1;
    if (kind === -1) return -1;
    const marker = kind === 2 ? 41 : open;
    const from = this.from[kind]!;
    const to = this.to[kind]!;
    if (from !== -1 && at > from && (to === -1 || at < to)) return to;
    let i = at + 1;
    let end = -1;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === marker) {
        end = i + 1;
        break;
      }
      if (c === 92) {
        const d = text.charCodeAt(i + 1);
        i += d === marker || d === 92 ? 2 : 1;
      } else i++;
    }
    this.from[kind] = at;
    this.to[kind] = end;
    return end;
  }
}

/**
 * Past the spaces, tabs and line endings from `at` (micromark's `factoryWhitespace`; a paragraph holds no blank line,
 * so at most one line ending), in definitions and link resources alike.
 */
export function skipWhitespace(text: string, at: number): number {
  let i = at;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return i;
    i++;
  }
}

/**
 * Where the line ends after `at` when only spaces or tabs follow it there: after its line ending (or at the text's
 * end), else -1.
 */
function lineEnd(text: string, at: number): number {
  let i = at;
  while (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9) i++;
  if (i >= text.length) return text.length;
  const c = text.charCodeAt(i);
  if (c === 10) return i + 1;
  if (c === 13) return text.charCodeAt(i + 1) === 10 ? i + 2 : i + 1;
  return -1;
}

/**
 * Where a destination in angle brackets from the `<` at `at` ends (after its `>`), or `~at` where micromark gives up
 * on it: a `<`, a line ending or the text's end before the `>`; `\<`, `\>` and `\\` are escapes (micromark's
 * `factoryDestination`, for link resources and definitions alike).
 */
export function angleDestinationEnd(text: string, at: number): number {
  let i = at + 1;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 62) return i + 1;
    if (Number.isNaN(c) || c === 60 || c === 10 || c === 13) return ~i;
    const d = text.charCodeAt(i + 1);
    i += c === 92 && (d === 60 || d === 62 || d === 92) ? 2 : 1;
  }
}

/**
 * Where a definition's destination starting at `at` ends, or -1 (micromark's `factoryDestination` with no bound on
 * parentheses): `<...>` on one line with no unescaped `<`, or a nonempty run with no space or control character
 * and balanced parentheses, ended at balance zero by white space, `)` or the text's end.
 */
function destinationEnd(text: string, at: number): number {
  let i = at;
  let c = text.charCodeAt(i);
  if (c === 60) return Math.max(angleDestinationEnd(text, i), -1);
  if (Number.isNaN(c) || c === 32 || c === 41 || c < 32 || c === 127) return -1;
  let balance = 0;
  for (;;) {
    c = text.charCodeAt(i);
    if (balance === 0 && (Number.isNaN(c) || c === 41 || c === 32 || c === 9 || c === 10 || c === 13))
      return i;
    if (c === 40) balance++;
    else if (c === 41) balance--;
    else if (Number.isNaN(c) || c === 32 || c < 32 || c === 127) return -1;
    else if (c === 92) {
      const d = text.charCodeAt(i + 1);
      if (d === 40 || d === 41 || d === 92) {
        i += 2;
        continue;
      }
    }
    i++;
  }
}
