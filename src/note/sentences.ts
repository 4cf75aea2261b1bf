import {
  asciiSentenceBreaks,
  asciiSentenceEnds,
  setSemicolonContinues,
  setWideClasses,
} from './ascii-sentences.js';

/** A stretch of a text: where it starts (UTF-16 offset) and what it holds. */
export interface TextPiece {
  index: number;
  segment: string;
}

let sentenceSegmenter: Intl.Segmenter | undefined;

/** The sentence segmenter, made on first use (making one loads ICU's break rules: 15 ms of every start). */
function segmenter(): Intl.Segmenter {
  sentenceSegmenter ??= new Intl.Segmenter('en', { granularity: 'sentence' });
  return sentenceSegmenter;
}

/** Line and paragraph separators: Unicode sentence breaking always breaks after one (UAX #29, rule SB4). */
const SEPARATOR = '\\r\\n|[\\n\\r\\u0085\\u2028\\u2029]';
const PARAGRAPH_SEPARATOR = new RegExp(SEPARATOR);

/**
 * What the segmenter is given at once, at most (about): V8's `Intl.Segmenter` takes time that grows with the length
 * of the text times the sentences it finds (200 KB of 4,000 sentences: 0.95 s; a 686 KB note of bullets with an
 * accented word each took 17.8 s when its texts were segmented as one).
 */
const BATCH = 4096;

/**
 * `Intl.Segmenter`'s sentences of each text, as if each were segmented alone (offsets into that text). An ASCII
 * text's sentences are found by `asciiSentenceEnds`, with the same rules at a fraction of the cost; the others are
 * segmented in batches of about `BATCH` characters, joined by `\n`, since each call to the segmenter costs more than
 * the sentences it finds: a break always follows a paragraph separator and nothing after it changes the breaks before
 * it, so each text keeps its own sentences. When a text holds a separator of its own, or the joined sentences do not
 * break just after each joint, each text is segmented alone (`alone`, itself in pieces of about `BATCH`).
 */
export function sentencesOf(texts: readonly string[]): TextPiece[][] {
  const out: TextPiece[][] = new Array(texts.length);
  const others: number[] = [];
  const ascii = asciiAgrees();
  texts.forEach((text, i) => {
    const sentences = ascii ? asciiSentences(text) : undefined;
    if (sentences) out[i] = sentences;
    else others.push(i);
  });
  for (let from = 0; from < others.length; ) {
    let to = from;
    let length = 0;
    while (to < others.length && (to === from || length + texts[others[to]!]!.length <= BATCH))
      length += texts[others[to++]!]!.length + 1;
    const batch = others.slice(from, to).map((i) => texts[i]!);
    const sentences =
      (batch.length > 1 && !batch.some((text) => PARAGRAPH_SEPARATOR.test(text)) && jointSentences(batch)) ||
      batch.map(alone);
    for (let k = from; k < to; k++) out[others[k]!] = sentences[k - from]!;
    from = to;
  }
  return out;
}

/** The sentences of a text `asciiSentenceBreaks` reads (ASCII, and a few characters past it), else undefined. */
function asciiSentences(text: string): TextPiece[] | undefined {
  const count = asciiSentenceBreaks(text, ENDS);
  if (count === -1) return undefined;
  if (count === 1) return [{ index: 0, segment: text }];
  // Made at their exact length: `push` would leave room for 17.
  const out = new Array<TextPiece>(count);
  let start = 0;
  for (let k = 0; k < count; k++) {
    const end = ENDS[k]!;
    out[k] = { index: start, segment: text.slice(start, end) };
    start = end;
  }
  return out;
}

const ENDS: number[] = [];

/**
 * Texts whose breaks depend on each ASCII class the rules know (`;` is SContinue from Unicode 15.1 on, so it
 * depends on the runtime's ICU), checked against this runtime's segmenter once before the first use.
 */
const PROBES = [
  'Hi. ;Zz',
  'U.S. Army. The U.S.A. is big. etc. and so on.',
  '3.14 is pi. "Quoted." (Aside.) Next! Really?! Yes... no?\tTab.\vV.\fF. x\r\ny. [Bracket.] {Brace.} \'q.\' #.',
  'a.- b. , c. : d.1 E.F. g.\r h.\n\ni. j!a k?)  L',
];
/**
 * Texts whose breaks depend on the class of each character past ASCII that `asciiSentenceEnds` reads (its
 * `WIDE_CLASSES`): a runtime whose segmenter reads any of them otherwise leaves them all to it.
 */
const WIDE_PROBES = [
  'Yes.\u201d He left\u2014Wren stayed. \u2018No.\u2019 x.\u2013 y. It\u2019s done.\u00a0Next.',
  'Caf\u00e9. \u00c9t\u00e9 ends. Z.\u00c9. e.\u00e9 A.\u00df \u00d7. \u00f7. a.\u2026 b.\u2022 C.\u00b7 D.\u2212 E.',
];
let agrees: boolean | undefined;

function asciiAgrees(): boolean {
  if (agrees === undefined) {
    setSemicolonContinues(whole(PROBES[0]!).length === 1);
    const same = (probe: string) =>
      whole(probe)
        .map(({ index, segment }) => index + segment.length)
        .join() === asciiSentenceEnds(probe)?.join();
    agrees = PROBES.every(same);
    setWideClasses(agrees && WIDE_PROBES.every(same));
  }
  return agrees;
}

/**
 * Where a text may be cut and each piece segmented alone, with the breaks of the whole: after a paragraph separator
 * (UAX #29: a break always follows one, SB4, and no rule looks past one); and, on a runtime whose segmenter reads
 * the rules as `asciiSentenceEnds` does, before an ASCII capital after a sentence's end, its closing marks and spaces
 * (SB11 breaks there: SB7 needs no space between, SB8 a lower-case letter, SB8a a continuing mark or a terminator,
 * and the capital ends every rule's look back from inside the next piece).
 */
const CUT = new RegExp(`${SEPARATOR}|[.!?]['")\\]]*[ \\t]+(?=[A-Z])`, 'g');
const SEPARATOR_CUT = new RegExp(SEPARATOR, 'g');

/** A text's sentences, segmented alone: in pieces of about `BATCH` characters cut where `CUT` may. */
function alone(text: string): TextPiece[] {
  const out: TextPiece[] = [];
  const cut = asciiAgrees() ? CUT : SEPARATOR_CUT;
  let start = 0;
  while (start < text.length) {
    let end = text.length;
    if (text.length - start > BATCH) {
      cut.lastIndex = start + BATCH;
      const match = cut.exec(text);
      if (match) end = match.index + match[0].length;
    }
    whole(start === 0 && end === text.length ? text : text.slice(start, end), start, out);
    start = end;
  }
  return out;
}

/** The segmenter's sentences of a text, in one call, each placed `base` further on, added to `out`. */
function whole(text: string, base = 0, out: TextPiece[] = []): TextPiece[] {
  for (const { index, segment } of segmenter().segment(text)) out.push({ index: base + index, segment });
  return out;
}

function jointSentences(texts: readonly string[]): TextPiece[][] | undefined {
  const out: TextPiece[][] = texts.map(() => []);
  let k = 0;
  let base = 0;
  for (const { index, segment } of segmenter().segment(texts.join('\n'))) {
    const end = base + texts[k]!.length;
    const stop = index + segment.length;
    if (index >= end) return undefined; // a break just before a joint
    if (stop <= end) {
      out[k]!.push({ index: index - base, segment });
    } else if (stop === end + 1 && k < texts.length - 1) {
      out[k]!.push({ index: index - base, segment: segment.slice(0, -1) });
      base = stop;
      k++;
    } else {
      return undefined; // a sentence across a joint
    }
  }
  return k === texts.length - 1 ? out : undefined;
}

/** A sentence's end and its citation markers, followed by more prose. */
const AFTER_CITATIONS = /[.!?]['")\]]*\s*(?:\[cite:[^\]]*\]\s*)+(?=[^\s[])/g;
/** What every match of `AFTER_CITATIONS` ends with. */
const MAY_SPLIT = /\]\s*[^\s[]/;

/**
 * Sentences split again after a sentence's trailing citations when more prose follows: the segmenter does not take
 * `... Compound-Alpha. [cite:g5] Wren visited ...` for two sentences, since `[` does not start one.
 */
export function splitAfterCitations(sentences: readonly TextPiece[]): readonly TextPiece[] {
  // Made only once a sentence is split: most are not, and are passed on as they came.
  let pieces: TextPiece[] | undefined;
  sentences.forEach((sentence, k) => {
    const { index, segment } = sentence;
    // A split needs a marker's `]` followed by more than white space: most sentences end at their marker.
    if (!segment.includes('[cite:') || !MAY_SPLIT.test(segment)) {
      pieces?.push(sentence);
      return;
    }
    let start = 0;
    // An `exec` loop on the one global regex: `matchAll` would copy the regex for every sentence.
    AFTER_CITATIONS.lastIndex = 0;
    for (let match = AFTER_CITATIONS.exec(segment); match; match = AFTER_CITATIONS.exec(segment)) {
      const cut = match.index + match[0].length;
      pieces ??= sentences.slice(0, k);
      pieces.push({ index: index + start, segment: segment.slice(start, cut) });
      start = cut;
    }
    pieces?.push(start === 0 ? sentence : { index: index + start, segment: segment.slice(start) });
  });
  return pieces ?? sentences;
}
