// Seeded edits of a spec's text, as fuzzers and authors make them: the inputs of the YAML reader's property tests.
import { seededInts } from './seeded.js';

/** `count` seeded random edits of `text` (flipped characters, cut and doubled spans, hostile YAML spliced in). */
export function mutatedVariants(text: string, count: number, seed: number): string[] {
  const int = seededInts(seed);
  const CHARACTERS = [' ', '\t', ':', '-', '[', ']', '{', '}', '"', "'", '#', '\n', 'x', '1', '?', ',', '~'];
  const TOKENS = [
    'null',
    '-1',
    '1.5',
    '""',
    '[]',
    '{}',
    '~',
    '? x',
    '- - x',
    'key: [a: 1]',
    '"a\\"b"',
    '|\n  x',
  ];
  return Array.from({ length: count }, () => {
    let out = text;
    for (let edits = 1 + int(3); edits > 0; edits--) {
      const at = int(out.length + 1);
      const kind = int(4);
      if (kind === 0) out = out.slice(0, at) + CHARACTERS[int(CHARACTERS.length)] + out.slice(at + 1);
      else if (kind === 1) out = out.slice(0, at) + out.slice(at + int(40));
      else if (kind === 2) out = out.slice(0, at) + out.slice(at, at + int(80)) + out.slice(at);
      else out = out.slice(0, at) + TOKENS[int(TOKENS.length)] + out.slice(at);
    }
    return out;
  });
}

/**
 * `count` variants of a text, each with 1-4 seeded line edits of the kinds authors make: an item or a value emptied
 * (`- x` to `-`, `key: x` to `key:`), a line indented anew, a comment or blank line put in, a line deleted or
 * repeated, a `!!str` tag put before a value.
 */
export function lineEditedVariants(text: string, count: number, seed: number): string[] {
  const int = seededInts(seed);
  return Array.from({ length: count }, () => {
    const lines = text.split('\n');
    for (let edits = 1 + int(4); edits > 0; edits--) {
      const i = int(lines.length);
      const line = lines[i]!;
      const kind = int(7);
      if (kind === 0) lines[i] = line.replace(/^(\s*-)\s.*$/, '$1');
      else if (kind === 1) lines[i] = line.replace(/^(\s*(?:- )?[\w"']+:).*$/, '$1');
      else if (kind === 2) lines[i] = ' '.repeat(int(9)) + line.trimStart();
      else if (kind === 3) lines.splice(i, 0, int(2) ? `${' '.repeat(int(9))}# a comment` : '');
      else if (kind === 4) lines.splice(i, 1);
      else if (kind === 5) lines.splice(i, 0, lines[int(lines.length)]!);
      else lines[i] = line.replace(/(: |- )/, '$1!!str ');
    }
    return lines.join('\n');
  });
}
