/**
 * What the segment builder needs of a note's markdown: headings and the text runs of each claim segment, in the order
 * a walk of the CommonMark tree meets them (`test/reference/mdast-blocks.ts`).
 */

/** A run of plain text taken from one inline node, and its source range (UTF-16 offsets, end exclusive). */
export interface TextRun {
  text: string;
  start: number;
  end: number;
}

export type NoteBlock =
  /** `title` is the heading's inline text, not yet collapsed; `offset` where the heading starts. */
  | { kind: 'heading'; depth: number; title: string; offset: number }
  /** A bullet (its own paragraphs, joined) or a paragraph: the text runs of each paragraph, in order. */
  | { kind: 'bullet' | 'paragraph'; paragraphs: TextRun[][] };
