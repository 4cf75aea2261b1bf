import type { SourcePosition } from '../model/note.js';

/** Maps UTF-16 offsets of a text to 1-based lines and columns. Built once per text, each lookup a binary search. */
export class LineIndex {
  private readonly starts: number[] = [0];

  /** With `yaml`, a lone `\r` ends a line too, as YAML reads it (JSON and notes count `\n` alone). */
  constructor(text: string, { yaml = false }: { yaml?: boolean } = {}) {
    if (yaml && /\r(?!\n)/.test(text)) {
      for (const end of text.matchAll(/\r\n?|\n/g)) this.starts.push(end.index + end[0].length);
      return;
    }
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  position(offset: number): SourcePosition {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.starts[lo]! + 1, offset };
  }
}

/** A 1-based line and column in a file. */
export interface Place {
  line: number;
  column: number;
}
