/** A stretch of a text: where it starts (UTF-16 offset) and what it holds. */
export interface TextPiece {
  index: number;
  segment: string;
}

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/** Line and paragraph separators: Unicode sentence breaking always breaks after one (UAX #29, rule SB4). */
const PARAGRAPH_SEPARATOR = /[\n\r\u0085\u2028\u2029]/;

/**
 * `Intl.Segmenter`'s sentences of each text, as if each were segmented alone (offsets into that text). The texts of
 * a note are segmented in one call, joined by `\n`, since each call to the segmenter costs more than the sentences
 * it finds: a break always follows a paragraph separator and nothing after it changes the breaks before it, so each
 * text keeps its own sentences. When a text holds a separator of its own, or the joined sentences do not break just
 * after each joint, each text is segmented alone.
 */
export function sentencesOf(texts: readonly string[]): TextPiece[][] {
  if (texts.length > 1 && !texts.some((text) => PARAGRAPH_SEPARATOR.test(text))) {
    const joint = jointSentences(texts);
    if (joint) return joint;
  }
  return texts.map(alone);
}

function alone(text: string): TextPiece[] {
  const out: TextPiece[] = [];
  for (const { index, segment } of segmenter.segment(text)) out.push({ index, segment });
  return out;
}

function jointSentences(texts: readonly string[]): TextPiece[][] | undefined {
  const out: TextPiece[][] = texts.map(() => []);
  let k = 0;
  let base = 0;
  for (const { index, segment } of segmenter.segment(texts.join('\n'))) {
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

/**
 * Sentences split again after a sentence's trailing citations when more prose follows: the segmenter does not take
 * `... Compound-Alpha. [cite:g5] Wren visited ...` for two sentences, since `[` does not start one.
 */
export function splitAfterCitations(sentences: readonly TextPiece[]): TextPiece[] {
  const pieces: TextPiece[] = [];
  for (const sentence of sentences) {
    const { index, segment } = sentence;
    let start = 0;
    if (segment.includes('[cite:')) {
      // An `exec` loop on the one global regex: `matchAll` would copy the regex for every sentence.
      AFTER_CITATIONS.lastIndex = 0;
      for (let match = AFTER_CITATIONS.exec(segment); match; match = AFTER_CITATIONS.exec(segment)) {
        const cut = match.index + match[0].length;
        pieces.push({ index: index + start, segment: segment.slice(start, cut) });
        start = cut;
      }
    }
    pieces.push(start === 0 ? sentence : { index: index + start, segment: segment.slice(start) });
  }
  return pieces;
}
