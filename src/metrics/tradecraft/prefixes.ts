/**
 * The literal text a phrase of a regular-expression pattern must open with, lower-cased: every way the pattern can
 * begin, up to `MAX_LENGTH` characters or the first item whose text cannot be listed (a class such as `\w`, a
 * repeat, a back-reference, a non-ASCII character). Lookarounds are skipped: they read text without taking it into
 * the phrase, so a phrase opening with `(?<=is )remote` starts at `remote`. The prefixes are a necessary condition
 * only: a phrase of the pattern always starts with one of them (under ASCII case folding; text with a non-ASCII
 * character there must be tried, since `ſ` folds to `s` and the Kelvin sign to `k`), and text starting with one may
 * still not match. Undefined when the pattern opens in a way this reading does not know, or has too many beginnings
 * to list.
 */
export function literalPrefixes(pattern: string): string[] | undefined {
  const openings = alternation(pattern, 0, pattern.length);
  if (openings === undefined) return undefined;
  const texts = [...new Set(openings.map((o) => o.text))];
  return texts.includes('') ? undefined : texts;
}

const MAX_LENGTH = 8;
const MAX_COUNT = 64;

/** A way a piece of pattern can begin: its text, and whether the piece may go on past it (`open`). */
interface Opening {
  text: string;
  open: boolean;
}

/** What a lookaround or an assertion takes: nothing, and what follows it goes on. */
const EMPTY: Opening = { text: '', open: true };

/** The openings of `pattern[from, to)`, alternatives split at its top-level `|`, or undefined past `MAX_COUNT`. */
function alternation(pattern: string, from: number, to: number): Opening[] | undefined {
  const openings: Opening[] = [];
  for (const [start, end] of alternatives(pattern, from, to)) {
    const these = sequence(pattern, start, end);
    if (these === undefined) return undefined;
    openings.push(...these);
  }
  return openings.length > MAX_COUNT ? undefined : openings;
}

/** The openings of `pattern[from, to)`, a sequence of items, or undefined past `MAX_COUNT`. */
function sequence(pattern: string, from: number, to: number): Opening[] | undefined {
  let openings: Opening[] = [EMPTY];
  let i = from;
  while (i < to && openings.some((o) => o.open)) {
    const item = readItem(pattern, i, to);
    i = item.end;
    const quantifier = pattern[i];
    // An optional item may be absent; a repeated one ends what can be listed after its first occurrence.
    const optional =
      quantifier === '?' || quantifier === '*' || (quantifier === '{' && /^\{0\b/.test(pattern.slice(i)));
    const repeated = quantifier === '*' || quantifier === '+' || quantifier === '{';
    if (quantifier === '?' || quantifier === '*' || quantifier === '+') i++;
    else if (quantifier === '{') i = pattern.indexOf('}', i) + 1 || to;
    if (pattern[i] === '?') i++; // a lazy quantifier begins the same way
    if (item.options === undefined) {
      // Nothing more can be listed: what was read so far is a prefix of every phrase.
      openings = openings.map((o) => ({ text: o.text, open: false }));
      break;
    }
    const next: Opening[] = [];
    for (const o of openings) {
      if (!o.open) {
        next.push(o);
        continue;
      }
      if (optional) next.push(o); // absent: the next item follows
      for (const option of item.options) {
        const text = (o.text + option.text).slice(0, MAX_LENGTH);
        next.push({ text, open: option.open && !repeated && text.length < MAX_LENGTH });
      }
    }
    if (next.length > MAX_COUNT) return undefined;
    openings = next;
  }
  return openings;
}

/** One item of a pattern at `at`: how it can begin (undefined: not listable) and where it ends. */
function readItem(pattern: string, at: number, to: number): { options: Opening[] | undefined; end: number } {
  const c = pattern[at]!;
  if (c === '(') {
    const end = closing(pattern, at) + 1;
    if (/^\(\?(?:=|!|<=|<!)/.test(pattern.slice(at, at + 4))) return { options: [EMPTY], end };
    let inner = at + 1;
    if (pattern.startsWith('(?:', at)) inner = at + 3;
    else if (pattern.startsWith('(?<', at))
      inner = pattern.indexOf('>', at) + 1; // a named group
    else if (pattern[at + 1] === '?') return { options: undefined, end }; // a modifier group, not read here
    return { options: alternation(pattern, inner, end - 1), end };
  }
  if (c === '[') {
    const close = classEnd(pattern, at);
    const end = Math.min(close + 1, to);
    const members = pattern.slice(at + 1, close);
    // Only a plain list of letters, digits and spaces is listed ([ey]); ranges, negations and escapes are not.
    if (close >= to || !/^[a-z0-9 ]+$/i.test(members)) return { options: undefined, end };
    return { options: [...members].map((m) => ({ text: m.toLowerCase(), open: true })), end };
  }
  if (c === '\\') {
    const escaped = pattern[at + 1] ?? '';
    if (escaped === 'b' || escaped === 'B') return { options: [EMPTY], end: at + 2 }; // an assertion takes no text
    if (escaped === 'd')
      return { options: [...'0123456789'].map((d) => ({ text: d, open: true })), end: at + 2 };
    // An escaped punctuation character stands for itself; any other escape is a class, a reference or an anchor.
    if (/^[.*+?^${}()|[\]\\/-]$/.test(escaped))
      return { options: [{ text: escaped, open: true }], end: at + 2 };
    return { options: undefined, end: at + 2 };
  }
  if (c === '^' || c === '$') return { options: [EMPTY], end: at + 1 };
  if (c === '.' || c === '|' || c.charCodeAt(0) > 127) {
    return { options: undefined, end: at + 1 };
  }
  return { options: [{ text: c.toLowerCase(), open: true }], end: at + 1 };
}

/** The index of the `)` closing the group opened at `at`. */
function closing(pattern: string, at: number): number {
  let depth = 0;
  for (let i = at; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === '[') i = classEnd(pattern, i);
    else if (pattern[i] === '(') depth++;
    else if (pattern[i] === ')' && --depth === 0) return i;
  }
  return pattern.length;
}

/** The index of the `]` closing the class opened at `at` (escapes skipped), or the pattern's length if none does. */
function classEnd(pattern: string, at: number): number {
  for (let i = at + 1; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === ']') return i;
  }
  return pattern.length;
}

/** The `[from, to)` ranges of the alternatives of `pattern[from, to)`, split at its top-level `|`. */
function alternatives(pattern: string, from: number, to: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let depth = 0;
  let start = from;
  for (let i = from; i < to; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === '[') i = classEnd(pattern, i);
    else if (pattern[i] === '(') depth++;
    else if (pattern[i] === ')') depth--;
    else if (pattern[i] === '|' && depth === 0) {
      out.push([start, i]);
      start = i + 1;
    }
  }
  out.push([start, to]);
  return out;
}

/**
 * Values found by the literal prefixes they were listed with: `at(text, start)` gives, in the order they were
 * listed, the values one of whose prefixes the text at `start` opens with (ASCII letters read in either case). A
 * value listed without prefixes (undefined) is given everywhere; where `ſ` or the Kelvin sign is read on the way,
 * every value is given, since under Unicode case folding they stand for `s` and `k` (no other character outside ASCII
 * folds into ASCII), and any other non-ASCII character ends the prefixes read there.
 */
export class PrefixTrie<T> {
  /** Each character's column in `next` (0: a character in no prefix, whose column is empty). */
  private readonly column = new Uint8Array(128);
  private readonly width: number;
  /** The node after reading a character: `next[node * width + column]`, 0 for none (node 0 is the root). */
  private readonly next: Int32Array;
  /** The values whose prefix is the text read to reach a node, or a beginning of it, in listed order. */
  private readonly values: (readonly T[])[];
  private readonly all: readonly T[];

  constructor(entries: ReadonlyArray<{ value: T; prefixes: readonly string[] | undefined }>) {
    const alphabet = [...new Set(entries.flatMap((e) => [...(e.prefixes ?? []).join('')]))];
    alphabet.forEach((c, k) => {
      this.column[c.charCodeAt(0)] = k + 1;
      this.column[c.toUpperCase().charCodeAt(0)] = k + 1;
    });
    const width = alphabet.length + 1;
    const next: number[] = [];
    const found: Set<number>[] = [];
    const addNode = () => {
      for (let k = 0; k < width; k++) next.push(0);
      return found.push(new Set()) - 1;
    };
    addNode();
    entries.forEach((entry, index) => {
      for (const prefix of entry.prefixes ?? ['']) {
        let node = 0;
        for (const c of prefix) {
          const at = node * width + this.column[c.charCodeAt(0)]!;
          next[at] ||= addNode();
          node = next[at]!;
        }
        found[node]!.add(index);
      }
    });
    // A node is made after its parent, so walking nodes in order hands each its ancestors' values.
    for (let node = 0; node < found.length; node++) {
      for (let k = 1; k < width; k++) {
        const child = next[node * width + k]!;
        if (child !== 0) for (const index of found[node]!) found[child]!.add(index);
      }
    }
    this.width = width;
    this.next = Int32Array.from(next);
    this.values = found.map((set) => [...set].sort((x, y) => x - y).map((index) => entries[index]!.value));
    this.all = entries.map((e) => e.value);
  }

  at(text: string, start: number): readonly T[] {
    let node = 0;
    for (let i = start; i < text.length; i++) {
      const code = text.charCodeAt(i);
      // Under case folding only two characters outside ASCII read as ASCII letters (`ſ` as `s`, the Kelvin sign as
      // `k`; checked over every code point): any other cannot go on a prefix, which is all ASCII.
      if (code >= 128) {
        if (code === 0x17f || code === 0x212a) return this.all;
        break;
      }
      const child = this.next[node * this.width + this.column[code]!]!;
      if (child === 0) break;
      node = child;
    }
    return this.values[node]!;
  }
}
