// A spec with problems reads the same on the light path (js-yaml's values and node starts) as on the `yaml` Document:
// the same diagnostics, at the same lines and columns, and the same cases. Each of the repository's specs is broken
// line by line (a wrong type, a typo in an enumerated value, an unknown key, an emptied value) and read both ways.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic, UserError } from '../../src/errors/index.js';
import { parseCasesDocument, parseCasesLight, parseCasesText } from '../../src/specs/cases.js';
import { parseSchemaSpec } from '../../src/specs/schema-spec.js';

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

/** What reading a spec gives: its diagnostics, or what it built. */
function outcome(read: () => unknown): unknown {
  try {
    return { built: read() };
  } catch (error) {
    if (error instanceof UserError) return { diagnostics: error.diagnostics.map(formatDiagnostic) };
    throw error;
  }
}

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
      let light = 0;
      for (const text of variants) {
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
      expect(variants.length).toBeGreaterThan(50);
      // Only an emptied value (a null the two parsers place apart) or a shape the light path does not record goes
      // to the Document.
      expect(light / variants.length).toBeGreaterThan(0.7);
    });
  }
});
