/** One top-level JSON value of a concatenated sequence, with the 1-based line it starts on. */
export interface JsonChunk {
  text: string;
  line: number;
}

/**
 * Splits concatenated JSON objects or arrays (`{...}\n{...}`, as the Python SDK's `ConsoleSpanExporter` prints one
 * indented span after another) into their texts, by bracket depth outside strings. Gives `undefined` when the text is
 * not such a sequence of at least two values (anything but whitespace between them, or an unclosed value), so the
 * caller reports the original syntax error instead. The chunks are not parsed here.
 */
export function splitJsonSequence(text: string): JsonChunk[] | undefined {
  const chunks: JsonChunk[] = [];
  let depth = 0;
  let inString = false;
  let start = -1;
  let line = 1;
  let startLine = 1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\n') line++;
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') {
      if (depth === 0) return undefined;
      inString = true;
    } else if (ch === '{' || ch === '[') {
      if (depth === 0) {
        start = i;
        startLine = line;
      }
      depth++;
    } else if (ch === '}' || ch === ']') {
      depth--;
      if (depth < 0) return undefined;
      if (depth === 0) chunks.push({ text: text.slice(start, i + 1), line: startLine });
    } else if (depth === 0 && !/\s/.test(ch)) {
      return undefined;
    }
  }
  return depth === 0 && chunks.length >= 2 ? chunks : undefined;
}
