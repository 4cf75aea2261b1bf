/**
 * The Unicode sentence boundaries (UAX #29, rules SB1-SB11) of a text made only of ASCII characters, computed
 * directly: `Intl.Segmenter` gives the same breaks but costs about a microsecond per sentence in calls and segment
 * objects, more than the rest of parsing a note together. Only ASCII is read here, where every character's
 * Sentence_Break class is a fixed small set, and the few characters past it that agents' English is full of, each of
 * a class ASCII has (`WIDE_CLASSES`): dashes, curly quotes, the no-break space, the ellipsis and bullets, and the
 * Latin-1 letters. Any other text goes to `Intl.Segmenter` (see `sentences.ts`).
 */

// Sentence_Break classes of the ASCII characters (ASCII has no Extend, Format, OLetter or Sep, so SB5 never applies).
const OTHER = 0;
const SP = 1; // \t \v \f space
const PARA_SEP = 2; // CR LF
const LOWER = 3;
const UPPER = 4;
const NUMERIC = 5;
const ATERM = 6; // .
const STERM = 7; // ! ?
const CLOSE = 8; // " ' ( ) [ ] { }
const SCONTINUE = 9; // , - : and, from Unicode 15.1 on, ;

const CLASS = new Uint8Array(128);
const assign = (chars: string, kind: number): void => {
  for (let i = 0; i < chars.length; i++) CLASS[chars.charCodeAt(i)] = kind;
};
assign('\t\v\f ', SP);
assign('\r\n', PARA_SEP);
assign('abcdefghijklmnopqrstuvwxyz', LOWER);
assign('ABCDEFGHIJKLMNOPQRSTUVWXYZ', UPPER);
assign('0123456789', NUMERIC);
assign('.', ATERM);
assign('!?', STERM);
assign('"\'()[]{}', CLOSE);
assign(',-:;', SCONTINUE);
/**
 * Characters past ASCII read here, by Sentence_Break class (as Unicode's SentenceBreakProperty.txt gives them, and
 * as this runtime's segmenter reads them, checked by `sentences.ts` before first use: `setWideClasses`): the en and em
 * dashes are SContinue, as `-` is; the curly quotes are Close, as `"` is; the no-break space is Sp; the ellipsis, the
 * bullet, the middle dot and the minus sign are Other; the Latin-1 letters are Upper or Lower by case (`×` and `÷`
 * are Other). Agents write em dashes and curly quotes in most notes: each used to send its whole text to
 * `Intl.Segmenter`.
 */
const WIDE_CLASSES = new Map<number, number>([
  [0x2013, SCONTINUE],
  [0x2014, SCONTINUE],
  [0x2018, CLOSE],
  [0x2019, CLOSE],
  [0x201c, CLOSE],
  [0x201d, CLOSE],
  [0xa0, SP],
  [0x2026, OTHER],
  [0x2022, OTHER],
  [0xb7, OTHER],
  [0x2212, OTHER],
  [0xd7, OTHER],
  [0xf7, OTHER],
]);
for (let code = 0xc0; code <= 0xff; code++) {
  if (code !== 0xd7 && code !== 0xf7) WIDE_CLASSES.set(code, code < 0xdf ? UPPER : LOWER);
}
let wide: ReadonlyMap<number, number> = WIDE_CLASSES;

/** Whether the characters of `WIDE_CLASSES` are read here (this runtime's segmenter gives them those classes). */
export function setWideClasses(read: boolean): void {
  wide = read ? WIDE_CLASSES : new Map();
}

/** The class of the character `code`, or -1 for one this reader leaves to `Intl.Segmenter`. */
function classOf(code: number): number {
  return code < 128 ? CLASS[code]! : (wide.get(code) ?? -1);
}

/** The characters that start or end a run the rules may break after: terminators and paragraph separators. */
const BREAKING = new Uint8Array(128);
for (const code of [10, 13, 33, 46, 63]) BREAKING[code] = 1;

// Where a text stands in the run that SB8-SB11 look back on, `SATerm Close* Sp*`: outside it, after the terminator
// and its closers, or after the spaces that follow them.
const NONE = 0;
const CLOSING = 1;
const SPACING = 2;

/**
 * Whether the `Intl.Segmenter` of this runtime reads `;` as SContinue (Unicode 15.1 and later): the one ASCII class
 * that changed between the Unicode versions Node ships with.
 */
export function setSemicolonContinues(continues: boolean): void {
  CLASS[59] = continues ? SCONTINUE : OTHER;
}

/**
 * The end offset (UTF-16, exclusive) of each sentence of `text`, in order, the last `text.length` (none for an empty
 * text, as `Intl.Segmenter` gives no segment for it); undefined when `text` holds a character this reader leaves to
 * `Intl.Segmenter` (outside ASCII and `WIDE_CLASSES`).
 */
export function asciiSentenceEnds(text: string): number[] | undefined {
  const count = asciiSentenceBreaks(text, SCRATCH);
  return count === -1 ? undefined : SCRATCH.slice(0, count);
}

const SCRATCH: number[] = [];

/**
 * `asciiSentenceEnds` written into `ends` from index 0 (a scratch array the caller reuses: an array grown by `push`
 * keeps room for 17): the number of sentences, or -1 when `text` holds a character this reader leaves to
 * `Intl.Segmenter`.
 */
export function asciiSentenceBreaks(text: string, ends: number[]): number {
  let count = 0;
  const n = text.length;
  let phase = NONE;
  let aterm = false; // the run's terminator is `.` (ATerm), not `!`/`?` (STerm)
  let prev = OTHER; // class of text[j - 1]
  let j = 0;
  while (j < n) {
    let code = text.charCodeAt(j);
    if (phase === NONE && prev !== PARA_SEP) {
      // Outside a run, only a terminator or a separator can lead to a break: step over the rest.
      while (code < 128 ? !BREAKING[code] : wide.has(code)) {
        if (++j === n) break;
        code = text.charCodeAt(j);
      }
      if (j === n) break;
      prev = j > 0 ? classOf(text.charCodeAt(j - 1)) : OTHER;
    }
    const c = classOf(code);
    if (c === -1) return -1;
    if (j > 0 && breaksBefore(text, j, c, prev, phase, aterm)) ends[count++] = j;
    if (c === ATERM || c === STERM) {
      phase = CLOSING;
      aterm = c === ATERM;
    } else if (phase === CLOSING && c === CLOSE) {
      // still closing
    } else if (phase !== NONE && c === SP) {
      phase = SPACING;
    } else {
      phase = NONE;
    }
    prev = c;
    j++;
  }
  if (n > 0) ends[count++] = n;
  return count;
}

/** Whether the rules put a break between `text[j - 1]` (class `prev`) and `text[j]` (class `c`). */
function breaksBefore(
  text: string,
  j: number,
  c: number,
  prev: number,
  phase: number,
  aterm: boolean,
): boolean {
  if (prev === PARA_SEP) return !(text.charCodeAt(j - 1) === 13 && text.charCodeAt(j) === 10); // SB3, SB4
  if (phase === NONE) return false; // SB998
  if (prev === ATERM) {
    if (c === NUMERIC) return false; // SB6
    if (c === UPPER && j >= 2) {
      const before = classOf(text.charCodeAt(j - 2));
      if (before === UPPER || before === LOWER) return false; // SB7
    }
  }
  if (c === SCONTINUE || c === ATERM || c === STERM) return false; // SB8a
  if (phase === CLOSING && (c === CLOSE || c === SP || c === PARA_SEP)) return false; // SB9
  if (c === SP || c === PARA_SEP) return false; // SB10
  // SB8 comes before SB11 but is tried last, as only here can its look-ahead change the answer: each run then looks
  // ahead once, which keeps the whole text linear.
  if (aterm && lowerFollows(text, j)) return false; // SB8
  return true; // SB11
}

/** SB8's look-ahead: from `j`, characters other than letters, paragraph separators and terminators, then a Lower. */
function lowerFollows(text: string, j: number): boolean {
  for (let k = j; k < text.length; k++) {
    const c = classOf(text.charCodeAt(k));
    if (c === LOWER) return true;
    if (c === UPPER || c === PARA_SEP || c === ATERM || c === STERM) return false;
  }
  return false;
}
