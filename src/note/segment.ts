import type { Citation, Section, Segment, Sentence, SourcePosition } from '../model/note.js';
import type { LineIndex } from '../parse/position.js';
import type { TextRun } from './blocks.js';
import { nextMarker } from './citation-marker.js';
import { splitAfterCitations, type TextPiece } from './sentences.js';

/** Any character but white space (what `trim` keeps). */
const NOT_SPACE = /\S/;
const SPACE = /\s/;

/** A run of plain text taken from one inline node, and where it stands in the source. */
interface Piece {
  plainStart: number;
  srcStart: number;
  /** Source offset of each character when the node's text differs from its source (escapes, entities). */
  offsets: number[] | undefined;
}

/** A segment's plain text (its paragraphs' runs, paragraphs joined by a space) and where each run came from. */
export interface PlainText {
  text: string;
  pieces: Piece[];
}

/** The plain text of a segment's paragraphs, each run mapped back to its source. */
export function plainText(paragraphs: readonly (readonly TextRun[])[], source: string): PlainText {
  let pieces: Piece[] | undefined;
  let plain = '';
  for (let i = 0; i < paragraphs.length; i++) {
    if (i > 0) plain += ' ';
    for (const { text, start, end } of paragraphs[i]!) {
      // Most runs are their source verbatim: compared in place, without copying the source.
      const verbatim = end - start === text.length && source.startsWith(text, start);
      const piece: Piece = {
        plainStart: plain.length,
        srcStart: start,
        offsets: verbatim ? undefined : align(text, source.slice(start, end), start),
      };
      // Most segments are one run: a literal, not `push` on an empty array, which would leave room for 17.
      if (pieces) pieces.push(piece);
      else pieces = [piece];
      plain += text;
    }
  }
  return { text: plain, pieces: pieces ?? [] };
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
  if (!NOT_SPACE.test(plain)) return undefined;

  // Sentence spans over the plain text, as [start, end) pairs; a span made only of citation markers belongs to the
  // sentence before it ("... the cell. [cite:g11]"), which is how agents cite.
  const spans = SPANS;
  let spanCount = 0;
  for (const { index, segment } of splitAfterCitations(icuSentences)) {
    const leading = segment.includes('[cite:') ? leadingCitations(segment) : 0;
    const last = spanCount - 1;
    if (last > 0 && leading > 0 && !NOT_SPACE.test(segment.slice(leading))) {
      spans[last] = index + segment.length;
    } else if (last > 0 && leading > 0) {
      spans[last] = index + leading;
      spans[spanCount++] = index + leading;
      spans[spanCount++] = index + segment.length;
    } else {
      spans[spanCount++] = index;
      spans[spanCount++] = index + segment.length;
    }
  }

  // The segment's text is its sentences joined by a space, built once at the end (`+=` would leave a rope).
  let sentenceCount = 0;
  let citationCount = 0;
  let length = 0;
  let lastCitationAt = -1;
  for (let s = 0; s < spanCount; s += 2) {
    const start = spans[s]!;
    const raw = plain.slice(start, spans[s + 1]);
    let citations: Citation[] | undefined;
    let cleaned = '';
    // The prose before the last marker, other markers removed.
    let beforeLast = '';
    let cursor = 0;
    for (let marker = nextMarker(raw, 0); marker; marker = nextMarker(raw, marker.end)) {
      cleaned += raw.slice(cursor, marker.start);
      beforeLast = cleaned;
      cursor = marker.end;
      const at = positionAt(pieces, lines, start + marker.start);
      // Pushed onto the sentence's list: `concat` copies it for every marker, quadratic in a sentence of markers.
      if (citations) for (const id of marker.ids) citations.push({ id, position: at });
      else citations = marker.ids.map((id) => ({ id, position: at }));
    }
    const after = raw.slice(cursor);
    cleaned += after;
    const sentenceText = tidy(cleaned);
    citations ??= [];
    if (citations.length > 0) {
      // The last citation covers the prose before it: measure that prose once tidied, as it stands in the text.
      // With only white space after the marker, that prose tidies to the sentence itself.
      const before = NOT_SPACE.test(after) ? tidy(beforeLast) : sentenceText;
      lastCitationAt = (length === 0 || sentenceText === '' ? length : length + 1) + before.length;
      for (const citation of citations) ALL_CITATIONS[citationCount++] = citation;
    }
    if (sentenceText === '') continue;
    if (length > 0) length++;
    const firstWord = start + leadingSpace(raw);
    SENTENCES[sentenceCount++] = {
      text: sentenceText,
      citations,
      position: positionAt(pieces, lines, firstWord),
      start: length,
      end: length + sentenceText.length,
    };
    TEXTS[sentenceCount - 1] = sentenceText;
    length += sentenceText.length;
  }
  if (length === 0 && citationCount === 0) return undefined;
  // A segment usually starts where its first sentence does: the two share one position object, since notes are kept.
  const position = positionAt(pieces, lines, leadingSpace(plain));
  const first = sentenceCount > 0 ? SENTENCES[0]!.position : undefined;

  return {
    kind,
    section: section.title,
    claims: section.claims,
    text: sentenceCount === 1 ? TEXTS[0]! : TEXTS.slice(0, sentenceCount).join(' '),
    sentences: SENTENCES.slice(0, sentenceCount),
    citations: ALL_CITATIONS.slice(0, citationCount),
    lastCitationAt: Math.min(lastCitationAt, length),
    position: first?.offset === position.offset ? first : position,
  };
}

// Scratch arrays for `buildSegment`, which is never re-entered, filled by index from 0 (setting `length` is a call
// into the runtime): each result is copied out at its exact length, since an array grown by `push` keeps room for
// 17 elements, and notes are kept (a scored folder holds every note at once).
const SPANS: number[] = [];
const TEXTS: string[] = [];
const SENTENCES: Sentence[] = [];
const ALL_CITATIONS: Citation[] = [];

/** How much white space `text` opens with (what `trimStart` drops), found without copying the text. */
function leadingSpace(text: string): number {
  const first = text.search(NOT_SPACE);
  return first === -1 ? text.length : first;
}

/** Line and column of an offset into a segment's plain text, found through the run it came from. */
function positionAt(pieces: readonly Piece[], lines: LineIndex, index: number): SourcePosition {
  let lo = 0;
  let hi = pieces.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (pieces[mid]!.plainStart <= index) lo = mid;
    else hi = mid - 1;
  }
  const piece = pieces[lo]!;
  const at = index - piece.plainStart;
  return lines.position(
    piece.offsets
      ? (piece.offsets[at] ?? piece.offsets[piece.offsets.length - 1] ?? piece.srcStart)
      : piece.srcStart + at,
  );
}

/**
 * The length of the citation markers a sentence opens with, white space before each included (what
 * `/^(?:\s*\[cite:[^\]]*\])+/` matches), or 0 when it opens with none.
 */
function leadingCitations(text: string): number {
  let matched = 0;
  for (;;) {
    let i = matched;
    while (i < text.length && SPACE.test(text[i]!)) i++;
    if (!text.startsWith('[cite:', i)) return matched;
    const close = text.indexOf(']', i + 6);
    if (close === -1) return matched;
    matched = close + 1;
  }
}

/**
 * Where each character of a text node's value stands in its source, stepping over what markdown decoded: a
 * backslash escape (`\\*`), a character reference (`&amp;`, `&#35;`), and what a paragraph's lines drop at their ends
 * and starts: white space before a line ending, and the next line's block quote markers and indent.
 */
function align(value: string, raw: string, base: number): number[] {
  const offsets: number[] = [];
  let j = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (raw[j] !== c) {
      if (raw[j] === '\\') j++;
      else if (raw[j] === '&') {
        const end = raw.indexOf(';', j);
        offsets.push(base + j);
        j = end === -1 ? j + 1 : end + 1;
        continue;
      } else if (c === '\n' || c === '\r') {
        // Spaces and tabs before a line ending, which the text drops.
        while (raw[j] === ' ' || raw[j] === '\t') j++;
      }
    }
    offsets.push(base + Math.min(j, raw.length - 1));
    j++;
    // After a line ending, the next line's container prefixes (`>` of a block quote) and indent, which the text drops.
    if ((c === '\n' || (c === '\r' && value[i + 1] !== '\n')) && raw[j] !== value[i + 1])
      while (raw[j] === ' ' || raw[j] === '\t' || raw[j] === '>') j++;
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
  // Most text holds single spaces only once trimmed (a sentence whose marker was cut out ends in two): testing is
  // cheaper than building the same string again.
  const trimmed = text.trim();
  return UNCOLLAPSED.test(trimmed) ? trimmed.replace(/\s+/g, ' ') : trimmed;
}
