/**
 * The deepest nesting of lists and objects (mappings) any JSON or YAML input may have. Real inputs stay within a few
 * dozen levels; deeper, parsers and walkers that recurse (JSON.stringify, lossless-json, the `yaml` package's
 * composer) would exhaust the stack or take seconds, so such a file is refused with its place instead.
 */
export const MAX_DEPTH = 512;

/** What a too-deep input is told, after its place. */
export const TOO_DEEP = `nested deeper than ${MAX_DEPTH} levels of lists and objects; needlework reads no deeper`;

/**
 * The offset of the first bracket that opens a list or object deeper than `MAX_DEPTH` in a JSON text, or -1. One scan
 * that jumps from quote to quote inside strings; brackets in strings do not count.
 */
export function jsonTooDeep(text: string, max = MAX_DEPTH): number {
  if (fewOpenings(text, max)) return -1;
  let depth = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i = closingQuote(text, i);
      if (i === -1) return -1;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return i;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return -1;
}

/**
 * Whether a text holds at most `max` opening brackets, in strings or not: then it cannot nest deeper than `max`. Found
 * with `indexOf`, ten times faster than the scan, and true of nearly every real file (a 3 KB trajectory has about 60).
 */
function fewOpenings(text: string, max: number): boolean {
  let count = 0;
  for (const bracket of ['[', '{']) {
    for (let i = text.indexOf(bracket); i !== -1; i = text.indexOf(bracket, i + 1))
      if (++count > max) return false;
  }
  return true;
}

/** The offset of the quote that closes the string opening at `from`, or -1 when it never closes. */
export function closingQuote(text: string, from: number): number {
  for (let i = from + 1; ; ) {
    const quote = text.indexOf('"', i);
    if (quote === -1) return -1;
    let backslashes = 0;
    for (let j = quote - 1; text.charCodeAt(j) === 0x5c /* \ */; j--) backslashes++;
    if (backslashes % 2 === 0) return quote;
    i = quote + 1;
  }
}

const isSpace = (c: number) => c === 0x20 || c === 0x09;
const isBreak = (c: number) => c === 0x0a || c === 0x0d;

/**
 * Where a YAML text may nest deeper than `max`, in one scan of its characters: the offset where its estimated depth
 * first passes `max`, or -1. The estimate (twice the block indentation levels open, plus the `- ` and `? `
 * entries that start the line, plus the flow brackets open, outside quotes and comments) is meant to stay above the
 * true depth, so it can only raise a false alarm, which the caller settles on the syntax tree of the text up to that
 * offset (`yamlTooDeep`). The `yaml` package's parser takes seconds on a megabyte nested a hundred thousand levels deep;
 * this scan lets such a file be refused after parsing only its first few hundred levels.
 */
export function yamlMayBeTooDeep(text: string, max = MAX_DEPTH): number {
  const indents: number[] = [];
  let flow = 0;
  const length = text.length;
  let i = 0;
  while (i < length) {
    // A line: its indentation, then its leading `- ` and `? ` entries.
    const lineStart = i;
    while (i < length && isSpace(text.charCodeAt(i))) i++;
    const c = text.charCodeAt(i);
    let depth = 0;
    if (flow === 0 && i < length && !isBreak(c) && c !== 0x23 /* # */) {
      const indent = i - lineStart;
      while (indents.length > 0 && indents[indents.length - 1]! >= indent) indents.pop();
      indents.push(indent);
      depth = 2 * indents.length;
      for (;;) {
        const d = text.charCodeAt(i);
        if ((d === 0x2d /* - */ || d === 0x3f) /* ? */ && isSpace(text.charCodeAt(i + 1))) {
          if (++depth + flow > max) return i;
          i += 2;
          while (i < length && isSpace(text.charCodeAt(i))) i++;
        } else break;
      }
    }
    if (depth + flow > max) return i;
    // The rest of the line: flow brackets, quotes and comments.
    let previous = 0x20;
    while (i < length) {
      const d = text.charCodeAt(i);
      if (isBreak(d)) {
        i++;
        break;
      }
      const atNodeStart =
        isSpace(previous) || (flow > 0 && (previous === 0x5b || previous === 0x7b || previous === 0x2c));
      if (d === 0x23 /* # */ && isSpace(previous)) {
        while (i < length && !isBreak(text.charCodeAt(i))) i++;
        continue;
      }
      if ((d === 0x22 /* " */ || d === 0x27) /* ' */ && (atNodeStart || flow > 0 || previous === 0x3a)) {
        i = quoteEnd(text, i, d);
        previous = d;
        continue;
      }
      if ((d === 0x5b /* [ */ || d === 0x7b) /* { */ && (flow > 0 || atNodeStart)) {
        flow++;
        if (depth + flow > max) return i;
      } else if ((d === 0x5d /* ] */ || d === 0x7d) /* } */ && flow > 0) flow--;
      previous = d;
      i++;
    }
  }
  return -1;
}

/** The offset just past a quoted YAML scalar opening at `from` (`''` escapes a single quote; `\` a double). */
function quoteEnd(text: string, from: number, quote: number): number {
  for (let i = from + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote === 0x22 && c === 0x5c /* \ */) i++;
    else if (c === quote) return i + 1;
  }
  return text.length;
}
