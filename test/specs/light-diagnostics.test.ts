// A spec with problems reads the same on the light path (js-yaml's values and node starts) as on the `yaml` Document:
// the same diagnostics, at the same lines and columns, and the same cases. Each of the repository's specs is broken
// line by line (a wrong type, a typo in an enumerated value, an unknown key, an emptied value) and read both ways.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic, UserError } from '../../src/errors/index.js';
import { parseCasesDocument, parseCasesLight, parseCasesText } from '../../src/specs/cases.js';
import { parseSchemaSpec } from '../../src/specs/schema-spec.js';
import { seededInts } from '../helpers/seeded.js';

const ROOT = join(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** Each line with a `key: value` broken in each way that makes a schema problem, one variant per change. */
function brokenVariants(text: string): string[] {
  const lines = text.split('\n');
  const variants: string[] = [];
  lines.forEach((line, i) => {
    const m = /^(\s*(?:- )?)([A-Za-z_][\w-]*):( .*)?$/.exec(line);
    if (!m) return;
    const [, indent, key, value] = m;
    const replaced = (next: string) => lines.map((l, j) => (j === i ? next : l)).join('\n');
    for (const bad of ['42', '[x, 1]', '{ a: 1 }', '"stricter"', 'true'])
      if (value !== undefined) variants.push(replaced(`${indent}${key}: ${bad}`));
    if (value !== undefined) variants.push(replaced(`${indent}${key}:`));
    variants.push(replaced(`${line}\n${' '.repeat((indent ?? '').length)}bogus_key_${i}: 1`));
  });
  return variants;
}

/** `count` seeded random edits of `text` (flipped characters, cut and doubled spans, hostile YAML spliced in). */
function mutatedVariants(text: string, count: number, seed: number): string[] {
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
function lineEditedVariants(text: string, count: number, seed: number): string[] {
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

/** What reading a spec gives: its diagnostics, or what it built. */
function outcome(read: () => unknown): unknown {
  try {
    return { built: read() };
  } catch (error) {
    if (error instanceof UserError) return { diagnostics: error.diagnostics.map(formatDiagnostic) };
    throw error;
  }
}

/**
 * Checks that each cases text reads the same (its diagnostics or its cases) on the light path as on the Document, and
 * counts the texts the light path read, or refused with its own diagnostics, without the Document.
 */
function casesReadTheSame(texts: readonly string[], file: string): number {
  let light = 0;
  for (const text of texts) {
    expect(
      outcome(() => parseCasesText(text, file)),
      text,
    ).toEqual(outcome(() => parseCasesDocument(text, file)));
    try {
      if (parseCasesLight(text, file)) light++;
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      light++;
    }
  }
  return light;
}

describe('a spec edited at random reads the same on the light path as on the yaml Document', () => {
  for (const [file, kind] of [
    ['needles/compound-alpha.needle.yaml', 'needle'],
    ['needles/icd-203.rubric.yaml', 'rubric'],
    ['examples/support/support.cases.yaml', 'cases'],
    ['examples/coding/coding.cases.yaml', 'cases'],
  ] as const) {
    // 84,000 edits over seven seeds agreed before this was fixed at one; seed 11 found the flow list that js-yaml read
    // over a line indented no more than its block, which the `yaml` package refuses.
    // Line edits as authors make them (an item or value emptied, a line re-indented, a comment, a `!!str` tag) besides
    // the character edits.
    it(`${file}: 300 seeded edits, and 300 seeded line edits`, () => {
      for (const text of [
        ...mutatedVariants(read(file), 300, 11),
        ...lineEditedVariants(read(file), 300, 5),
      ]) {
        const light = () =>
          kind === 'cases' ? parseCasesText(text, file) : parseSchemaSpec(text, file, kind);
        const document = () =>
          kind === 'cases'
            ? parseCasesDocument(text, file)
            : parseSchemaSpec(text, file, kind, { light: false });
        expect(outcome(light), text).toEqual(outcome(document));
      }
    });
  }
});

describe('a broken spec reads the same on the light path as on the yaml Document', () => {
  for (const [file, kind] of [
    ['needles/compound-alpha.needle.yaml', 'needle'],
    ['needles/wren-tie.needle.yaml', 'needle'],
    ['needles/icd-203.rubric.yaml', 'rubric'],
  ] as const) {
    it(`${file}, broken line by line`, () => {
      const variants = brokenVariants(read(file));
      expect(variants.length).toBeGreaterThan(20);
      for (const text of variants)
        expect(
          outcome(() => parseSchemaSpec(text, file, kind)),
          text,
        ).toEqual(outcome(() => parseSchemaSpec(text, file, kind, { light: false })));
    });
  }

  for (const file of ['examples/support/support.cases.yaml', 'examples/coding/coding.cases.yaml']) {
    it(`${file}, broken line by line, most of it placed without the Document`, () => {
      const variants = brokenVariants(read(file));
      const light = casesReadTheSame(variants, file);
      expect(variants.length).toBeGreaterThan(50);
      // Only an emptied value (a null the two parsers place apart) or a shape the light path does not record goes
      // to the Document.
      expect(light / variants.length).toBeGreaterThan(0.7);
    });
  }
});

describe('a spec with anchors and aliases reads the same on the light path as on the yaml Document', () => {
  // The support cases with what authors share written once: a call anchored in `gold` and aliased in `calls`, a
  // scalar and a list anchored and aliased across keys.
  const file = 'examples/support/support.cases.yaml';
  const text = read(file)
    .replace('max_steps: 16', 'max_steps: &steps 16')
    .replace('max_tool_errors: 0', 'max_tool_errors: &none 0')
    .replace(
      "      - { name: search_direct_flight, args: { origin: JFK, destination: SFO, date: '2024-05-20' } }",
      "      - &search { name: search_direct_flight, args: { origin: JFK, destination: SFO, date: '2024-05-20' } }",
    )
    .replace(
      "          - { name: search_direct_flight, args: { origin: JFK, destination: SFO, date: '2024-05-20' } }",
      '          - *search',
    )
    .replace('must_not_call: [cancel_reservation]', 'must_not_call: &never [cancel_reservation]')
    .replace('max_calls: { search_direct_flight: 2 }', 'max_calls: { search_direct_flight: *steps }');

  it('is read on the light path, as the Document reads it', () => {
    expect(text.match(/[&*](?:steps|none|search|never)\b/g)).toHaveLength(6);
    expect(parseCasesLight(text, file)).toEqual(parseCasesDocument(text, file));
  });

  it('broken line by line, and edited at random', () => {
    const variants = [...brokenVariants(text), ...mutatedVariants(text, 300, 11)];
    const light = casesReadTheSame(variants, file);
    // Random edits often leave an alias without its anchor or put one inside an anchored node (the Document's to
    // refuse or to count): about half the variants are read without the Document (0.53 at seed 11).
    expect(light / variants.length).toBeGreaterThan(0.45);
  });
});
