import type { Citation, Section, Segment, Sentence, SourcePosition } from '../model/note.js';
import type { LineIndex } from '../parse/position.js';
import type { TextRun } from './blocks.js';
import { splitAfterCitations, type TextPiece } from './sentences.js';

/**
 * `[cite:g1]`, `[cite:g1,g2]`, `[cite: g1, g2]`; `[cite:g1][cite:g2]` is two markers. Ids are ledger ids.
 */
const CITATION = /\[cite:\s*([A-Za-z0-9_.-]+(?:\s*,\s*[A-Za-z0-9_.-]+)*)\s*\]/g;
const ONLY_CITATIONS = /^(?:\s*\[cite:[^\]]*\])+\s*$/;

/** A run of plain text taken from one inline node, and where it stands in the source. */
interface Piece {
  plainStart: number;
  srcStart: number;
  /** Source offset of each character when the node's text differs from its source (escapes, entities). */
  offsets?: number[];
}

/** A segment's plain text (its paragraphs' runs, paragraphs joined by a space) and where each run came from. */
export interface PlainText {
  text: string;
  pieces: Piece[];
}

/** The plain text of a segment's paragraphs, each run mapped back to its source. */
export function plainText(paragraphs: readonly (readonly TextRun[])[], source: string): PlainText {
  const pieces: Piece[] = [];
  let plain = '';
  paragraphs.forEach((runs, i) => {
    if (i > 0) plain += ' ';
    for (const { text, start, end } of runs) {
      const raw = source.slice(start, end);
      pieces.push({
        plainStart: plain.length,
        srcStart: start,
        ...(raw !== text && { offsets: align(text, raw, start) }),
      });
      plain += text;
    }
  });
  return { text: plain, pieces };
}

/**
 * One segment (a bullet or a paragraph) from its plain text and the `Intl.Segmenter` sentences of that text: plain
 * text without citation markers, split into sentences, each with its citations and its line and column; undefined
 * when it holds neither text nor a citation.
 */
export function buildSegment(
  kind: Segment['kind'],
  { text: plain, pieces }: PlainText,
  icuSentences: readonly TextPiece[],
  lines: LineIndex,
  section: Section,
): Segment | undefined {
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
  for (const { index, segment } of splitAfterCitations(icuSentences)) {
    const last = spans[spans.length - 1];
    const marked = segment.includes('[cite:');
    const leading = marked ? /^(?:\s*\[cite:[^\]]*\])+/.exec(segment) : null;
    if (last && marked && ONLY_CITATIONS.test(segment)) {
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
    // The prose before the last marker, other markers removed.
    let beforeLast = '';
    let cursor = 0;
    // An `exec` loop on the one global regex: `matchAll` would copy the regex for every sentence.
    CITATION.lastIndex = 0;
    for (let match = raw.includes('[cite:') ? CITATION.exec(raw) : null; match; match = CITATION.exec(raw)) {
      cleaned += raw.slice(cursor, match.index);
      beforeLast = cleaned;
      cursor = match.index + match[0].length;
      const at = positionAt(span.start + match.index);
      for (const id of match[1]!.split(',')) citations.push({ id: id.trim(), position: at });
    }
    cleaned += raw.slice(cursor);
    const sentenceText = tidy(cleaned);
    if (citations.length > 0) {
      // The last citation covers the prose before it: measure that prose once tidied, as it stands in `text`.
      const before = tidy(beforeLast);
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
  const collapsed = collapse(text);
  return SPACE_BEFORE_CLOSING.test(collapsed) ? collapsed.replace(/\s+([.,;:!?)\]])/g, '$1') : collapsed;
}

const SPACE_BEFORE_CLOSING = /\s[.,;:!?)\]]/;
/** White space other than single spaces, which `collapse` would change between the ends. */
const UNCOLLAPSED = /[^\S ]| {2}/;

/** Runs of white space made one space, and the ends trimmed. */
export function collapse(text: string): string {
  // Most text holds single spaces only: testing is cheaper than building the same string again.
  return UNCOLLAPSED.test(text) ? text.replace(/\s+/g, ' ').trim() : text.trim();
}
