// parseNote as it stood at commit e2889b5 (mdast-util-from-markdown for every note), kept verbatim but for its import
// paths as the baseline of the differential test (test/note/parse-differential.test.ts) and of bench/score.bench.mjs.
// Not part of the package.
import type { Nodes, Parent, PhrasingContent, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import type { Citation, Note, Section, Segment, Sentence, SourcePosition } from '../../src/model/note.js';
import { LineIndex } from '../../src/parse/position.js';

/** Sections whose text makes no claims, so Stage 1 citation recall exempts them (seed 001, Thread 1). */
export const DEFAULT_EXEMPT_SECTIONS: readonly string[] = ['Gaps & caveats', 'Provenance'];

export interface ParseNoteOptions {
  /** The file the note came from, kept on the result for messages. */
  file?: string;
  /** Section titles that make no claims (compared ignoring case, punctuation and `&` against `and`). */
  exemptSections?: readonly string[];
}

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
 * Parses a note's markdown (CommonMark, with a real parser) into sections, segments (a bullet or a paragraph) and
 * sentences, each with its citations and its line and column in the source.
 */
export function parseNote(source: string, options: ParseNoteOptions = {}): Note {
  const exempt = new Set((options.exemptSections ?? DEFAULT_EXEMPT_SECTIONS).map(sectionKey));
  const lines = new LineIndex(source);
  const tree: Root = fromMarkdown(source);
  const sections: Section[] = [];
  let current: Section = { title: '', depth: 0, claims: true, segments: [], position: lines.position(0) };
  // Depth of the heading that made the current run of sections exempt; its subsections are exempt too.
  let exemptDepth = Number.POSITIVE_INFINITY;

  const visit = (node: Nodes, inBullet: boolean): void => {
    switch (node.type) {
      case 'heading': {
        if (current.segments.length > 0 || current.depth > 0) sections.push(current);
        const title = collapse(inlineText(node.children));
        if (node.depth <= exemptDepth) exemptDepth = Number.POSITIVE_INFINITY;
        if (exempt.has(sectionKey(title))) exemptDepth = Math.min(exemptDepth, node.depth);
        current = {
          title,
          depth: node.depth,
          claims: exemptDepth === Number.POSITIVE_INFINITY,
          segments: [],
          position: lines.position(node.position?.start.offset ?? 0),
        };
        return;
      }
      case 'paragraph':
        if (!inBullet) addSegment('paragraph', [node]);
        return;
      case 'listItem': {
        const own = node.children.filter((child) => child.type === 'paragraph');
        if (own.length > 0) addSegment('bullet', own);
        for (const child of node.children) if (child.type !== 'paragraph') visit(child, false);
        return;
      }
      case 'list':
      case 'blockquote':
      case 'root':
        for (const child of (node as Parent).children) visit(child as Nodes, inBullet);
        return;
      default:
        return; // code, html, thematic breaks, definitions: no claims
    }
  };

  const addSegment = (kind: Segment['kind'], paragraphs: Parent[]): void => {
    const segment = buildSegment(kind, paragraphs, source, lines, current);
    if (segment) current.segments.push(segment);
  };

  visit(tree, false);
  if (current.segments.length > 0 || current.depth > 0) sections.push(current);

  const segments = sections.flatMap((section) => section.segments);
  return {
    source,
    ...(options.file !== undefined && { file: options.file }),
    sections,
    segments,
    citations: segments.flatMap((segment) => segment.citations),
  };
}

function buildSegment(
  kind: Segment['kind'],
  paragraphs: Parent[],
  source: string,
  lines: LineIndex,
  section: Section,
): Segment | undefined {
  const pieces: Piece[] = [];
  let plain = '';
  const push = (text: string, start: number, end: number): void => {
    const raw = source.slice(start, end);
    pieces.push({
      plainStart: plain.length,
      srcStart: start,
      ...(raw !== text && { offsets: align(text, raw, start) }),
    });
    plain += text;
  };
  paragraphs.forEach((paragraph, i) => {
    if (i > 0) plain += ' ';
    collectText(paragraph.children as PhrasingContent[], push);
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

/** Plain text of inline content in reading order, each run with its source range. */
function collectText(
  nodes: readonly PhrasingContent[],
  push: (text: string, start: number, end: number) => void,
): void {
  for (const node of nodes) {
    const start = node.position?.start.offset ?? 0;
    const end = node.position?.end.offset ?? start;
    switch (node.type) {
      case 'text':
        push(node.value, start, end);
        break;
      case 'inlineCode':
        push(node.value, start, end);
        break;
      case 'break':
        push(' ', start, end);
        break;
      case 'image':
        if (node.alt) push(node.alt, start, end);
        break;
      default:
        if ('children' in node) collectText(node.children as PhrasingContent[], push);
    }
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

function inlineText(nodes: readonly PhrasingContent[]): string {
  let out = '';
  collectText(nodes, (text) => {
    out += text;
  });
  return out;
}

/** Whitespace collapsed, no space left before closing punctuation where a citation marker stood. */
function tidy(text: string): string {
  return collapse(text).replace(/\s+([.,;:!?)\]])/g, '$1');
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function sectionKey(title: string): string {
  return title
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
