// YAML errors, duplicate keys among them, are reported as the `yaml` package reports them, each at its place in the
// text (counted in the text itself: the parser's line counter misses lines inside a token it rejects).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { seededInts } from '../helpers/seeded.js';
import { diagnostics, lightDiagnostics } from '../helpers/yaml-diagnostics.js';

/** The `yaml` package's own errors for the text, with its quadratic unique-key check, worded as parseYaml words them. */
function reference(text: string): string[] {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  const lines = text.split('\n');
  const place = (offset: number) => {
    let line = 0;
    let start = 0;
    while (line < lines.length - 1 && start + lines[line]!.length + 1 <= offset)
      start += lines[line++]!.length + 1;
    return `${line + 1}:${offset - start + 1}`;
  };
  return doc.errors.map((e) => `f.yaml:${place(e.pos[0])}: ${e.message.split('\n')[0]}`);
}

const TEXTS: Record<string, string> = {
  'a block mapping': 'a: 1\nb: 2\na: 3\n',
  'nested mappings, each its own keys': 'a:\n  x: 1\n  x: 2\nb:\n  x: 1\nb: 3\n',
  'flow mappings': 'a: { x: 1, y: 2, x: 3 }\nb: [{ k: 1, k: 2 }, { k: 1 }]\n',
  'keys equal only by value': '1: a\n"1": b\n1: c\ntrue: d\ntrue: e\n',
  'empty keys': ': a\n? \n: b\nc: d\n',
  'quoted and plain spellings of one key': 'key: 1\n"key": 2\n\'key\': 3\n',
  'keys that are collections': '? [a]\n: 1\n? [a]\n: 2\n',
  'duplicates among other errors': 'a: 1\na: 2\nb: [1, 2\nc: 3\nc: 4\n  bad indent: x\n',
  'a duplicate at the place of another error': 'a: 1\n a: 2\n',
  'a duplicate key right after an empty value': 'a:\na: 1\nb:\n  c:\nb: 2\n',
  'NaN keys, never equal': '.nan: 1\n.nan: 2\n',
  'a case list with a repeated key in one case': `cases:
  - id: a
    expect:
      tools:
        must_call: [x]
        must_call: [y]
  - id: b
    id: c
`,
};

describe('YAML errors are reported as the yaml package reports them, at their places', () => {
  for (const [name, text] of Object.entries(TEXTS)) {
    it(name, () => {
      expect(diagnostics(text)).toEqual(reference(text));
    });
  }

  it('finds 2,000 copies of one key, the first thousand placed', () => {
    const text = `tools:\n${'  must_call: [a]\n'.repeat(2_000)}`;
    const found = diagnostics(text);
    expect(found).toHaveLength(1001);
    expect(found[0]).toBe('f.yaml:3:3: Map keys must be unique');
    expect(found[1000]).toBe('f.yaml: and 999 more YAML errors');
  });

  // It found errors placed lines too early after a rejected block scalar (the parser's line counter missed its lines).
  it('agrees with the package on the repository specs with lines repeated, moved and emptied at random', () => {
    for (const text of editedSpecs()) expect(diagnostics(text), text).toEqual(reference(text));
  });
});

// A file whose only problem is duplicate keys is not parsed again by the `yaml` package (1 MB of them took 1.3 s):
// js-yaml reads it once more, letting later keys override, and places each duplicate as the composer does.
describe('duplicate keys found on the light path are reported as the yaml package reports them', () => {
  const LIGHT: Record<string, string> = {
    ...TEXTS,
    'after a comment, a block scalar, a nested mapping, a list, white space': `a: 1\n# c\na: 2\nb: |\n  t\nb: 1\nc:\n  x: 1\nc: 2\nd:\n- 1\nd: []\ne: 1 \t\ne: 2\n`,
    'in flow mappings on one line, after an empty value too': 'm: {x: 1, y: 2, x: 3}\nn: {x: , x: 3}\n',
    'in list items and nested mappings': '- a: 1\n  a: 2\n- b:\n    c: 1\n    c: 2\n  b: 3\n',
    'after an empty value with a comment': 'a:   # c\na: 2\nb:\n# c\nb: 2\n',
    'after a byte-order mark': '\uFEFFa: 1\na: 2\n',
    'null keys': '~: 1\n~: 2\n',
    'more than a thousand': 'a: 1\na: 2\n'.repeat(700),
  };
  // What the composer places apart from the key, or this pass cannot tell: left to the Document.
  const DOCUMENT = [
    'a duplicate key right after an empty value',
    'keys equal only by value',
    'keys that are collections',
    'NaN keys, never equal',
    'empty keys',
    'duplicates among other errors',
    'a duplicate at the place of another error',
  ];
  for (const [name, text] of Object.entries(LIGHT)) {
    it(name, () => {
      const light = lightDiagnostics(text);
      if (DOCUMENT.includes(name)) expect(light).toBeUndefined();
      else expect(light).toEqual(diagnostics(text));
    });
  }

  it('agrees with the package, or leaves the text to it, on the repository specs edited at random', () => {
    let light = 0;
    let duplicated = 0;
    for (const text of editedSpecs()) {
      const expected = diagnostics(text);
      const found = lightDiagnostics(text);
      if (found !== undefined && found.length > 0) {
        light++;
        expect(found, text).toEqual(expected);
      }
      if (expected.length > 0 && expected.every((e) => e.endsWith(': Map keys must be unique'))) duplicated++;
    }
    // Most texts whose only errors are duplicate keys (110 of these) are read without the Document (81 of them).
    expect(duplicated).toBeGreaterThan(100);
    expect(light / duplicated).toBeGreaterThan(0.7);
  });
});

/** The repository's specs with lines repeated, moved and emptied at random: 300 texts, most with duplicate keys. */
function editedSpecs(): string[] {
  const int = seededInts(5);
  const texts: string[] = [];
  for (const file of ['examples/support/support.cases.yaml', 'needles/icd-203.rubric.yaml']) {
    const lines = readFileSync(join(import.meta.dirname, '../..', file), 'utf8').split('\n');
    for (let k = 0; k < 150; k++) {
      const edited = [...lines];
      for (let edits = 1 + int(4); edits > 0; edits--) {
        const at = int(edited.length);
        const kind = int(3);
        if (kind === 0) edited.splice(at, 0, edited[at]!);
        else if (kind === 1) edited.splice(int(edited.length), 0, edited[at]!);
        else edited[at] = edited[at]!.replace(/:.*$/, ':');
      }
      texts.push(edited.join('\n'));
    }
  }
  return texts;
}
