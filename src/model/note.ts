/** A place in a source file, 1-based line and column, 0-based UTF-16 offset. */
export interface SourcePosition {
  line: number;
  column: number;
  offset: number;
}

/** One `[cite:gN]` reference: the ledger id it names and where it stands. */
export interface Citation {
  id: string;
  position: SourcePosition;
}

/** A sentence of a segment, with the citations written inside it (or right after its final punctuation). */
export interface Sentence {
  /** The sentence as plain text, with its citation markers removed and whitespace collapsed. */
  text: string;
  citations: Citation[];
  position: SourcePosition;
  /** Offsets of `text` into the segment's `text`: `segment.text.slice(start, end)`. */
  start: number;
  end: number;
}

/** A bullet (list item) or a paragraph: the unit a trailing citation covers. */
export interface Segment {
  kind: 'bullet' | 'paragraph';
  /** The title of the section the segment stands in (`''` before the first heading). */
  section: string;
  /** False in sections that make no claims (`Gaps & caveats`, `Provenance`). */
  claims: boolean;
  /** The segment as plain text, citation markers removed. */
  text: string;
  sentences: Sentence[];
  /** Every citation of the segment, in source order. */
  citations: Citation[];
  /**
   * Where the segment's last citation stands in `text` (the offset just after the text it follows), or -1 when the
   * segment cites nothing. Prose after it is not covered by any citation.
   */
  lastCitationAt: number;
  position: SourcePosition;
}

export interface Section {
  title: string;
  /** Heading depth, 1 for `#`; 0 for the text before the first heading. */
  depth: number;
  claims: boolean;
  segments: Segment[];
  position: SourcePosition;
}

/** A note parsed into sections, segments and sentences. */
export interface Note {
  /** The markdown source. */
  source: string;
  /** The file the note was read from, when it was read from one. */
  file?: string;
  sections: Section[];
  /** Every segment of every section, in source order. */
  segments: Segment[];
  /** Every citation of the note, in source order. */
  citations: Citation[];
}
