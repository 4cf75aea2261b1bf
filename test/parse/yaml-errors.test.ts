// YAML errors, duplicate keys among them, are reported as the `yaml` package reports them, each at its place in the
// text (counted in the text itself: the parser's line counter misses lines inside a token it rejects).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { formatDiagnostic, UserError } from '../../src/errors/index.js';
import { parseYaml } from '../../src/parse/yaml.js';

/** parseYaml's diagnostics of a text, or [] when it reads. */
function diagnostics(text: string): string[] {
  try {
    parseYaml(text, 'f.yaml');
    return [];
  } catch (error) {
    if (error instanceof UserError) return error.diagnostics.map(formatDiagnostic);
    throw error;
  }
}

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
    let state = 5;
    const int = (n: number) => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return Math.floor((state / 2 ** 31) * n);
    };
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
        const text = edited.join('\n');
        expect(diagnostics(text), text).toEqual(reference(text));
      }
    }
  });
});
