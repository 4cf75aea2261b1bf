import { UserError } from '../errors/user-error.js';
import type { Note, Section, Segment } from '../model/note.js';
import { LineIndex } from '../parse/position.js';
import { parseBlocks } from './block-parser.js';
import { MAX_NESTING, tooDeep } from './nesting.js';
import { buildSegment, collapse, type PlainText, plainText } from './segment.js';
import { sentencesOf } from './sentences.js';

/** Any character but white space; a regex literal in a function would be a new object on every call. */
const NOT_SPACE = /\S/;

/** Sections whose text makes no claims, so Stage 1 citation recall exempts them (seed 001, Thread 1). */
export const DEFAULT_EXEMPT_SECTIONS: readonly string[] = ['Gaps & caveats', 'Provenance'];

export interface ParseNoteOptions {
  /** The file the note came from, kept on the result for messages. */
  file?: string;
  /** Section titles that make no claims (compared ignoring case, punctuation and `&` against `and`). */
  exemptSections?: readonly string[];
}

/**
 * Parses a note's markdown (CommonMark) into sections, segments (a bullet or a paragraph) and sentences, each with
 * its citations and its line and column in the source. The block structure is read by a linear CommonMark block
 * parser (`parseBlocks`, link reference definitions included) and the inline text by a linear reader, as the
 * CommonMark parser mdast-util-from-markdown (micromark 4) reads them (the differential tests hold them to it). Throws
 * a `UserError` (with the line and column) for a note nested more than `MAX_NESTING` levels deep.
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { parseNote } from 'needlework';
 *
 * const note = parseNote('# Findings\n\n- Halberd is a member of Ash Cell. [cite:g1]\n', { file: 'note.md' });
 * const [segment] = note.sections[0]!.segments;
 * assert.equal(segment!.sentences[0]!.citations[0]!.id, 'g1');
 * assert.equal(segment!.position.line, 3);
 * ```
 */
export function parseNote(source: string, options: ParseNoteOptions = {}): Note {
  const exempt = exemptKeys(options.exemptSections ?? DEFAULT_EXEMPT_SECTIONS);
  const lines = new LineIndex(source);
  const deep = tooDeep(source);
  if (deep !== -1) {
    const { line, column } = lines.position(deep);
    throw new UserError({
      file: options.file ?? 'note',
      line,
      column,
      message: `lists or block quotes nested more than ${MAX_NESTING} levels deep; a note may nest at most ${MAX_NESTING}`,
    });
  }
  // The text before the first heading is a section only when it holds a segment.
  const sections: Section[] = [
    { title: '', depth: 0, claims: true, segments: [], position: lines.position(0) },
  ];
  // Depth of the heading that made the current run of sections exempt; its subsections are exempt too.
  let exemptDepth = Number.POSITIVE_INFINITY;
  const pending: Array<{ kind: Segment['kind']; plain: PlainText; section: Section }> = [];

  for (const block of parseBlocks(source)) {
    if (block.kind === 'heading') {
      const title = collapse(block.title);
      if (block.depth <= exemptDepth) exemptDepth = Number.POSITIVE_INFINITY;
      if (exempt.has(sectionKey(title))) exemptDepth = Math.min(exemptDepth, block.depth);
      sections.push({
        title,
        depth: block.depth,
        claims: exemptDepth === Number.POSITIVE_INFINITY,
        segments: [],
        position: lines.position(block.offset),
      });
    } else if (block.paragraphs.length > 0) {
      const plain = plainText(block.paragraphs, source);
      if (NOT_SPACE.test(plain.text))
        pending.push({ kind: block.kind, plain, section: sections[sections.length - 1]! });
    }
  }
  // The sentences of every segment at once: one call to the segmenter per note (see `sentencesOf`).
  const sentences = sentencesOf(pending.map(({ plain }) => plain.text));
  pending.forEach(({ kind, plain, section }, i) => {
    const segment = buildSegment(kind, plain, sentences[i]!, lines, section);
    if (segment) section.segments.push(segment);
  });
  if (sections[0]!.segments.length === 0) sections.shift();

  const segments = sections.flatMap((section) => section.segments);
  return {
    source,
    ...(options.file !== undefined && { file: options.file }),
    sections,
    segments,
    citations: segments.flatMap((segment) => segment.citations),
  };
}

// The keys of the last list of exempt sections: a folder's notes are parsed with the same list, usually the default.
let lastExempt: { titles: readonly string[]; keys: Set<string> } | undefined;

function exemptKeys(titles: readonly string[]): Set<string> {
  if (lastExempt?.titles !== titles) lastExempt = { titles, keys: new Set(titles.map(sectionKey)) };
  return lastExempt.keys;
}

function sectionKey(title: string): string {
  return title
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
