import type { Note, Section } from '../model/note.js';
import { LineIndex } from '../parse/position.js';
import { mdastBlocks } from './mdast-blocks.js';
import { scanBlocks } from './scan.js';
import { buildSegment, collapse } from './segment.js';

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
 * its citations and its line and column in the source. A note written in the markdown agents write (headings,
 * paragraphs, bullets, plain text; see `scanBlocks`) is read by a line scanner; anything else by the full parser,
 * with the same result.
 */
export function parseNote(source: string, options: ParseNoteOptions = {}): Note {
  const exempt = new Set((options.exemptSections ?? DEFAULT_EXEMPT_SECTIONS).map(sectionKey));
  const lines = new LineIndex(source);
  const sections: Section[] = [];
  let current: Section = { title: '', depth: 0, claims: true, segments: [], position: lines.position(0) };
  // Depth of the heading that made the current run of sections exempt; its subsections are exempt too.
  let exemptDepth = Number.POSITIVE_INFINITY;

  for (const block of scanBlocks(source) ?? mdastBlocks(source)) {
    if (block.kind === 'heading') {
      if (current.segments.length > 0 || current.depth > 0) sections.push(current);
      const title = collapse(block.title);
      if (block.depth <= exemptDepth) exemptDepth = Number.POSITIVE_INFINITY;
      if (exempt.has(sectionKey(title))) exemptDepth = Math.min(exemptDepth, block.depth);
      current = {
        title,
        depth: block.depth,
        claims: exemptDepth === Number.POSITIVE_INFINITY,
        segments: [],
        position: lines.position(block.offset),
      };
    } else if (block.paragraphs.length > 0) {
      const segment = buildSegment(block.kind, block.paragraphs, source, lines, current);
      if (segment) current.segments.push(segment);
    }
  }
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

function sectionKey(title: string): string {
  return title
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
