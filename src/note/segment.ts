import type { Citation, Section, Segment, Sentence, SourcePosition } from '../model/note.js';
import type { LineIndex } from '../parse/position.js';
import type { TextRun } from './blocks.js';

/**
 * `[cite:g1]`, `[cite:g1,g2]`, `[cite: g1, g2]`; `[cite:g1][cite:g2]` is two markers. Ids are ledger ids.
 */
const CITATION = /\[cite:\s*([A-Za-z0-9_.-]+(?:\s*,\s*[A-Za-z0-9_.-]+)*)\s*\]/g;
const ONLY_CITATIONS = /^(?:\s*\[cite:[^\]]*\])+\s*$/;

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });

/** A run of plain text taken from one inline node, and where it stands in the source. */
interface Piece {
  plainStart: number;
  srcStart: number;
  /** Source offset of each character when the node's text differs from its source (escapes, entities). */
  offsets?: number[];
}

/**
 * One segment (a bullet or a paragraph) from the text runs of its paragraphs: plain text without citation markers,
 * split into sentences, each with its citations and its line and column; undefined when it holds neither text nor
 * a citation.
 */
export function buildSegment(
  kind: Segment['kind'],
  paragraphs: readonly (readonly TextRun[])[],
  source: string,
  lines: LineIndex,
  section: Section,
): Segment | undefined {
  const pieces: Piece[] = [];
  let plain = '';
  const push = ({ text, start, end }: TextRun): void => {
    const raw = source.slice(start, end);
    pieces.push({
      plainStart: plain.length,
      srcStart: start,
      ...(raw !== text && { offsets: align(text, raw, start) }),
    });
    plain += text;
  };
  paragraphs.forEach((runs, i) => {
    if (i > 0) plain += ' ';
    for (const run of runs) push(run);
  });
  if (plain.trim() === '') return undefined;

  const sourceOffset = (index: number): number => {
    let lo = 0;
    let hi = pieces.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (pieces[mid]!.plainStart <= index) lo = mid;
      else hi = mid - 1;
    }
    const piece = pieces[lo]!;
    const at = index - piece.plainStart;
    return piece.offsets
      ? (piece.offsets[at] ?? piece.offsets[piece.offsets.length - 1] ?? piece.srcStart)
      : piece.srcStart + at;
  };
  const positionAt = (index: number): SourcePosition => lines.position(sourceOffset(index));

  // Sentence spans over the plain text; a span made only of citation markers belongs to the sentence before it
  // ("... the cell. [cite:g11]"), which is how agents cite.
  const spans: Array<{ start: number; end: number }> = [];
  for (const { index, segment } of sentencePieces(plain)) {
    const last = spans[spans.length - 1];
    const leading = /^(?:\s*\[cite:[^\]]*\])+/.exec(segment);
    if (last && ONLY_CITATIONS.test(segment)) {
      last.end = index + segment.length;
    } else if (last && leading) {
      last.end = index + leading[0].length;
      spans.push({ start: index + leading[0].length, end: index + segment.length });
    } else {
      spans.push({ start: index, end: index + segment.length });
    }
  }

  let text = '';
  let lastCitationAt = -1;
  const out: Sentence[] = [];
  const all: Citation[] = [];
  for (const span of spans) {
    const raw = plain.slice(span.start, span.end);
    const citations: Citation[] = [];
    let cleaned = '';
    let cursor = 0;
    for (const match of raw.matchAll(CITATION)) {
      cleaned += raw.slice(cursor, match.index);
      cursor = match.index + match[0].length;
      const at = positionAt(span.start + match.index);
      for (const id of match[1]!.split(',')) citations.push({ id: id.trim(), position: at });
    }
    cleaned += raw.slice(cursor);
    const sentenceText = tidy(cleaned);
    if (citations.length > 0) {
      // The last citation covers the prose before it: measure that prose once tidied, as it stands in `text`.
      const lastMatch = [...raw.matchAll(CITATION)].pop()!;
      const before = tidy(raw.slice(0, lastMatch.index).replace(CITATION, ''));
      lastCitationAt = (text === '' || sentenceText === '' ? text.length : text.length + 1) + before.length;
    }
    all.push(...citations);
    if (sentenceText === '') continue;
    if (text !== '') text += ' ';
    const firstWord = span.start + (raw.length - raw.trimStart().length);
    out.push({
      text: sentenceText,
      citations,
      position: positionAt(firstWord),
      start: text.length,
      end: text.length + sentenceText.length,
    });
    text += sentenceText;
  }
  if (text === '' && all.length === 0) return undefined;

  return {
    kind,
    section: section.title,
    claims: section.claims,
    text,
    sentences: out,
    citations: all,
    lastCitationAt: Math.min(lastCitationAt, text.length),
    position: positionAt(plain.length - plain.trimStart().length),
  };
}

/**
 * `Intl.Segmenter`'s sentences, split again after a sentence's trailing citations when more prose follows: the
 * segmenter does not take `... Compound-Alpha. [cite:g5] Wren visited ...` for two sentences, since `[` does not start
 * one.
 */
function* sentencePieces(plain: string): Generator<{ index: number; segment: string }> {
  const after = /[.!?]['")\]]*\s*(?:\[cite:[^\]]*\]\s*)+(?=[^\s[])/g;
  for (const { index, segment } of sentences.segment(plain)) {
    let start = 0;
    for (const match of segment.matchAll(after)) {
      const cut = match.index + match[0].length;
      yield { index: index + start, segment: segment.slice(start, cut) };
      start = cut;
    }
    yield { index: index + start, segment: segment.slice(start) };
  }
}

/**
 * Where each character of a text node's value stands in its source, stepping over what markdown decoded: a
 * backslash escape (`\\*`) and a character reference (`&amp;`, `&#35;`).
 */
function align(value: string, raw: string, base: number): number[] {
  const offsets: number[] = [];
  let j = 0;
  for (let i = 0; i < value.length; i++) {
    if (raw[j] !== value[i]) {
      if (raw[j] === '\\') j++;
      else if (raw[j] === '&') {
        const end = raw.indexOf(';', j);
        offsets.push(base + j);
        j = end === -1 ? j + 1 : end + 1;
        continue;
      }
    }
    offsets.push(base + Math.min(j, raw.length - 1));
    j++;
  }
  return offsets;
}

/** Whitespace collapsed, no space left before closing punctuation where a citation marker stood. */
function tidy(text: string): string {
  return collapse(text).replace(/\s+([.,;:!?)\]])/g, '$1');
}

/** Runs of white space made one space, and the ends trimmed. */
export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
