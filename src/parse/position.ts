import type { SourcePosition } from '../model/note.js';

/** Maps UTF-16 offsets of a text to 1-based lines and columns. Built once per text, each lookup a binary search. */
export class LineIndex {
  private readonly starts: number[] = [0];

  /** With `yaml`, a lone `\r` ends a line too, as YAML reads it (JSON and notes count `\n` alone). */
  constructor(text: string, { yaml = false }: { yaml?: boolean } = {}) {
    // A scan, not a regular expression: V8 keeps the last string one was run on (RegExp.input), a whole spec.
    if (yaml && text.includes('\r')) {
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) this.starts.push(i + 1);
      }
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
