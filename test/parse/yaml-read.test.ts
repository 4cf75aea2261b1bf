// The YAML reader (js-yaml and its listener, src/parse/yaml-read.ts): the values of the `yaml` package's core schema
// where the two libraries agree, every node placed where the `yaml` Document places it, and each problem refused at
// its place with our words.
import { describe, expect, it } from 'vitest';
import { formatDiagnostic, UserError } from '../../src/errors/index.js';
import { MAX_DEPTH } from '../../src/parse/depth.js';
import { MAX_ALIAS_NODES, parseYaml } from '../../src/parse/yaml.js';
import { documentPlaces, documentValue } from '../helpers/yaml-document.js';

/** Documents in the shapes spec authors write. */
const DOCUMENTS: Record<string, string> = {
  'block mappings and lists': `id: bridge
answer: Compound-Alpha
required_path:
  relations:
    - MEMBER_OF
    - CO_LOCATED
  nodes: [a, b]
thresholds:
  traversed: 0.5
`,
  'flow collections': '{id: x, list: [1, 2, {a: b, c: [d]}], empty: {}, none: [], "quoted key": "v"}\n',
  'comments between keys and values': `a: # after the key
  # before the value
  b: 1
c:
  # before the item
  - x # after it
  -   y
`,
  'quoted, multi-line and block scalars': `a: "quoted: yes"
b: 'single ''quote'''
c: plain
  continued
d: |
  block
  text
e: >-
  folded
f: [ "x", 'y' ]
`,
  'flow collections over several lines': `id: x
workups: [grounded,
  guessed, # a comment
# a comment at the margin
  single-file
]
cases:
  - id: a
    calls: [
      { name: lookup,
        args: { id: 1 } },
      { name: "book",
          args: { id: 1, seat: "1A" } }
    ]
  - [1,
   2]
`,
  'strings tagged !!str': `id: !!str 007
cases:
  - id: !!str 1
    expect: { answer: !!str true }
  - id: &two !!str 2
    note: !!str # a comment between the tag and the value
      folded
    again: *two
`,
  'CRLF line endings': 'a: 1\r\nb:\r\n  - x\r\n  - {c: d}\r\n',
  'a byte-order mark': '\ufeffa: 1\nb: [x, y]\n',
  'compact nested lists and mappings': `- - a
  - b
- c: d
  e:
    - f
- [g, h]
`,
  'empty and null values':
    'a:\nb: ~\nc: null\nd: [null, 2]\ne:   # comment\nf: {g: , h: 1}\nj:\n\nk:\n  l:\n  m: 1\nn: \t\no: x\n',
  'a document start marker and a comment first': '# heading comment\n---\na: 1\nb:\n  c: [2]\n',
  'a %YAML 1.2 directive':
    '%YAML 1.2 # the version\n# a comment\n\n--- # start\na: 1\nb:\n  c: [2, "%x"]\nd: |\n  %not a directive\n',
  'cases as a task-cases file writes them': `id: support
defaults:
  answer:
    contains: refund
cases:
  - id: change-flight
    expect:
      tool_calls:
        match: strict
        calls: [{ name: lookup, args: { id: 1 } }, { name: change, args: { id: 1, to: "2026-12-01" } }]
      answer:
        equals: "Changed."
  - id: cancel
    expect:
      tool_calls:
        match: unordered
        calls:
          - name: cancel
            args:
              id: 7
`,
  'anchors and aliases': `defaults: &calls
  - name: lookup
    args: &args { id: 1 }
  - name: change
cases:
  - id: a
    expect:
      calls: *calls
      args: *args
      answer: &answer "Changed."
  - &case
    id: b
    expect: { answer: "Kept." }
  - *case
  - id: d
    expect: { answer: *answer }
  - &commented # a comment after the anchor
    id: c
list: [*args, &inline {k: v}, *inline, &scalar 7, *scalar]
`,
  'anchors and tags before keys': '- !!str id: a\n  b: 1\n- &k a: 1\n  b: *k\n- x: {&j a: 1, b: *j}\n',
  'explicit keys and null keys': '? a\n: 1\n? b\n~: 2\nc: {null: 3}\n',
};

/** Every data path of a value, each mapping's keys listed with it. */
function paths(value: unknown): Array<{ path: string[]; keys: string[] }> {
  const out: Array<{ path: string[]; keys: string[] }> = [];
  const stack: Array<{ node: unknown; path: string[] }> = [{ node: value, path: [] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    const keys = node !== null && typeof node === 'object' && !Array.isArray(node) ? Object.keys(node) : [];
    out.push({ path, keys });
    if (Array.isArray(node))
      for (const [i, item] of node.entries()) stack.push({ node: item, path: [...path, String(i)] });
    else
      for (const key of keys)
        stack.push({ node: (node as Record<string, unknown>)[key], path: [...path, key] });
  }
  return out;
}

/**
 * Expects every node and key of `text` placed where the `yaml` Document places it, and each path one step past a node
 * at that node; returns how many nodes were compared.
 */
function expectPlacedAsDocument(text: string): number {
  const { value, places } = parseYaml(text, 'a.yaml');
  const reference = documentPlaces(text);
  let placed = 0;
  for (const { path, keys } of paths(value)) {
    const at = path.join('.');
    expect(places.where(path), `${text}\n${at}`).toEqual(reference(path));
    for (const key of keys) {
      expect(places.where(path, key), `${text}\n${at} key ${key}`).toEqual(reference(path, key));
      // A key reached through an alias is written at the anchor, not under the alias: no key place there.
      const keyAt = places.keyAt(path, key);
      if (keyAt === undefined) expect(throughAlias(text, path), `${text}\n${at} key ${key}`).toBe(true);
      else expect(keyAt, `${text}\n${at} key ${key}`).toEqual(reference(path, key));
    }
    expect(places.keyAt(path, 'missing'), `${text}\n${at} key missing`).toBeUndefined();
    expect(places.where([...path, 'missing']), `${text}\n${at}.missing`).toEqual(reference(path));
    expect(places.where([...path, '99']), `${text}\n${at}.99`).toEqual(reference(path));
    placed++;
  }
  return placed;
}

/** Whether the `yaml` Document reaches a data path through an alias (its place is then an alias's `*`). */
function throughAlias(text: string, path: readonly string[]): boolean {
  const place = documentPlaces(text)(path);
  const line = text.split('\n')[place!.line - 1]!;
  return line[place!.column - 1] === '*';
}

/** The diagnostics of reading `text`, one line each ([] when it reads). */
function problems(text: string): string[] {
  try {
    parseYaml(text, 'f.yaml');
    return [];
  } catch (error) {
    if (error instanceof UserError) return error.diagnostics.map(formatDiagnostic);
    throw error;
  }
}

describe('every node is placed where the yaml Document places it, and read to its value', () => {
  for (const [name, text] of Object.entries(DOCUMENTS)) {
    it(name, () => {
      expect(expectPlacedAsDocument(text)).toBeGreaterThan(3);
      const reference = documentValue(text);
      if (reference === 'rejected') throw new Error('the yaml package should read this document');
      // The same keys in the same order.
      expect(JSON.stringify(parseYaml(text, 'a.yaml').value)).toBe(JSON.stringify(reference.value));
    });
  }

  it('places an empty list item, which js-yaml reads without a node, at its list', () => {
    const { places } = parseYaml('d:\n  -\n  - 2\n', 'a.yaml');
    expect(places.where(['d', '0'])).toEqual({ line: 2, column: 3 });
    expect(places.where(['d', '1'])).toEqual({ line: 3, column: 5 });
  });

  it('places the items of a flow list of pairs, which js-yaml reads without a node each, at their list', () => {
    const { value, places } = parseYaml('list: [a: 1, b]\n', 'a.yaml');
    expect(value).toEqual({ list: [{ a: 1 }, 'b'] });
    expect(places.where(['list', '0'])).toEqual({ line: 1, column: 7 });
    expect(places.where(['list', '1'])).toEqual({ line: 1, column: 7 });
  });

  it('counts a lone \\r as a line end, as js-yaml reads it', () => {
    const { value, places } = parseYaml('a:\r  - 1\r  -\r  - 3\r', 'a.yaml');
    expect(value).toEqual({ a: [1, null, 3] });
    expect(places.where(['a', '2'])).toEqual({ line: 4, column: 5 });
  });

  it('places a path through an alias at the alias, and the nodes of an anchored node past its anchor', () => {
    const { places } = parseYaml('a: &x {k: [1]}\nb: *x\n', 'a.yaml');
    expect(places.where(['a'])).toEqual({ line: 1, column: 7 });
    expect(places.where(['b', 'k', '0'])).toEqual({ line: 2, column: 4 });
  });

  it('places nothing in an empty document, whose value is null', () => {
    for (const text of ['', '# only a comment\n', '---\n', '\n\n']) {
      const { value, places } = parseYaml(text, 'a.yaml');
      expect(value, text).toBeNull();
      expect(places.where([]), text).toBeUndefined();
    }
  });
});

describe("the YAML 1.2 core schema, as js-yaml's CORE_SCHEMA reads it", () => {
  it('reads the scalars the yaml package reads alike to the same values', () => {
    const scalars = [
      ['2001-12-14', '2001-12-14'],
      ['12:30:00', '12:30:00'],
      ['yes', 'yes'],
      ['on', 'on'],
      ['0o17', 15],
      ['0x1F', 31],
      ['007', 7],
      ['1_000', '1_000'],
      ['.5', 0.5],
      ['1e3', 1000],
      ['.inf', Number.POSITIVE_INFINITY],
      ['-.Inf', Number.NEGATIVE_INFINITY],
      ['.NaN', Number.NaN],
      ['True', true],
      ['FALSE', false],
      ['~', null],
      ['Null', null],
      ['<<', '<<'],
    ] as const;
    for (const [written, value] of scalars) {
      expect(parseYaml(`v: ${written}\n`, 'a.yaml').value, written).toEqual({ v: value });
      expect(documentValue(`v: ${written}\n`), written).toEqual({ value: { v: value } });
    }
    // A merge key is a key like any other: the core schema has no merge.
    expect(parseYaml('a: {<<: {b: 1}}\n', 'a.yaml').value).toEqual({ a: { '<<': { b: 1 } } });
  });

  it('reads a few spellings apart from the yaml package (docs/inputs.md)', () => {
    const apart = [
      ['0b101', 5, '0b101'],
      ['+0x1F', 31, '+0x1F'],
      ['-0o17', -15, '-0o17'],
      ['-.5', '-.5', -0.5],
      ['+.5', '+.5', 0.5],
    ] as const;
    for (const [written, ours, theirs] of [...apart, ['!!float 12', 12, '12'] as const]) {
      expect(parseYaml(`v: ${written}\n`, 'a.yaml').value, written).toEqual({ v: ours });
      expect(documentValue(`v: ${written}\n`), written).toEqual({ value: { v: theirs } });
    }
    // A %YAML 1.1 directive does not change the schema.
    expect(parseYaml('%YAML 1.1\n---\na: yes\n', 'a.yaml').value).toEqual({ a: 'yes' });
  });

  it('refuses a tag outside the core schema at the tagged node', () => {
    expect(problems('a: !!binary aGVsbG8=\n')).toEqual([
      'f.yaml:1:4: not valid YAML: unknown tag !<tag:yaml.org,2002:binary>',
    ]);
    expect(problems('a:\n  - x\n  - !local [1]\n')).toEqual([
      'f.yaml:3:5: not valid YAML: unknown tag !<!local>',
    ]);
    expect(problems('a: !!int abc\n')).toEqual([
      'f.yaml:1:4: not valid YAML: cannot resolve a node with !<tag:yaml.org,2002:int> explicit tag',
    ]);
    expect(parseYaml('a: !!str 12\nb: !!int "7"\n', 'a.yaml').value).toEqual({ a: '12', b: 7 });
  });
});

describe('a YAML problem is refused at its place', () => {
  it.each([
    [
      'a syntax error',
      'a: 1\nb: 2\n  c: 3\n',
      ['f.yaml:3:4: not valid YAML: bad indentation of a mapping entry'],
    ],
    [
      'an unclosed bracket, just past what the file writes',
      'a: [1, 2\n\n',
      ['f.yaml:1:9: not valid YAML: unexpected end of the stream within a flow collection'],
    ],
    [
      'a duplicate key, named',
      'a: 1\nb:\n  c: 1\n  "c": 2\n',
      ['f.yaml:4:3: not valid YAML: duplicated mapping key "c"'],
    ],
    [
      'a tab as indentation',
      'a:\n\tb: 1\n',
      ['f.yaml:2:1: not valid YAML: tab characters must not be used in indentation'],
    ],
    [
      'an alias of no anchor',
      'a: 1\nb: *nowhere\n',
      ['f.yaml:2:4: not valid YAML: unidentified alias "nowhere"'],
    ],
    [
      'a second document',
      'a: 1\n---\nb: 2\n',
      ['f.yaml:2:1: a second YAML document starts here; a spec file holds one'],
    ],
    [
      'a second, empty document',
      'a: 1\n--- # end\n',
      ['f.yaml:2:1: a second YAML document starts here; a spec file holds one'],
    ],
    [
      'a list as a key',
      'a: 1\n[x, y]: 2\n',
      [
        'f.yaml:2:1: a list or mapping cannot be a key: needlework reads keys as text, numbers, true, false or null',
      ],
    ],
    [
      'a mapping as an explicit key',
      'a: 1\n? {x: 1}\n: 2\n',
      [
        'f.yaml:2:3: a list or mapping cannot be a key: needlework reads keys as text, numbers, true, false or null',
      ],
    ],
    [
      'an alias inside the node it names',
      'a: &x [1, *x]\n',
      ['f.yaml:1:11: an alias inside the node it names: the document would hold itself without end'],
    ],
    [
      'an alias inside the mapping it names, deeper',
      'a: &x\n  k:\n    - *x\n',
      ['f.yaml:3:7: an alias inside the node it names: the document would hold itself without end'],
    ],
    [
      'an item indented less after an empty item, which js-yaml would read into the inner list',
      'cases:\n  - id: a\n    calls:\n      - name: x\n      -\n  - id: b\n',
      [
        'f.yaml:6:3: an item indented less than the list before it, whose last item is empty: js-yaml would read it into that list; write the empty item as `- null`, or remove it',
      ],
    ],
  ])('%s', (_, text, expected) => {
    expect(problems(text)).toEqual(expected);
  });

  it('reads an empty item and an item indented as much, or an item after `- null`, as YAML does', () => {
    expect(parseYaml('a:\n  -\n  - 2\nb: 1\n', 'a.yaml').value).toEqual({ a: [null, 2], b: 1 });
    expect(parseYaml('c:\n  - id: a\n    l:\n      - null\n  - id: b\n', 'a.yaml').value).toEqual({
      c: [{ id: 'a', l: [null] }, { id: 'b' }],
    });
  });
});

describe('what a document may cost its readers is bounded', () => {
  const nested = (depth: number) => `a: ${'['.repeat(depth)}${']'.repeat(depth)}\n`;

  it(`reads ${MAX_DEPTH} levels of lists and mappings, and refuses the next at its place`, () => {
    // The root mapping is a level: its value's brackets open levels 2 and on.
    expect(problems(nested(MAX_DEPTH - 1))).toEqual([]);
    expect(problems(nested(MAX_DEPTH))).toEqual([
      `f.yaml:1:${4 + MAX_DEPTH - 1}: nested deeper than 512 levels of lists and objects; needlework reads no deeper`,
    ]);
    // Empty at the deepest level, and written as block lists, compact or one a line.
    expect(problems(`a: ${'['.repeat(MAX_DEPTH - 1)}[]${']'.repeat(MAX_DEPTH - 1)}\n`)).toHaveLength(1);
    expect(problems(`${'- '.repeat(MAX_DEPTH)}x\n`)).toEqual([]);
    expect(problems(`${'- '.repeat(MAX_DEPTH + 1)}x\n`)).toEqual([
      `f.yaml:1:${2 * MAX_DEPTH + 1}: nested deeper than 512 levels of lists and objects; needlework reads no deeper`,
    ]);
    const lines = Array.from({ length: MAX_DEPTH + 1 }, (_, i) => `${' '.repeat(2 * i)}- `).join('\n');
    expect(problems(`${lines}x\n`)).toEqual([
      `f.yaml:${MAX_DEPTH + 1}:${2 * MAX_DEPTH + 1}: nested deeper than 512 levels of lists and objects; needlework reads no deeper`,
    ]);
  });

  it('refuses 300,000 levels at the first level past the limit, without exhausting the stack', () => {
    expect(problems(`cases:\n  ${'- '.repeat(300_000)}x\n`)).toEqual([
      `f.yaml:2:${3 + 2 * (MAX_DEPTH - 1)}: nested deeper than 512 levels of lists and objects; needlework reads no deeper`,
    ]);
    expect(problems(nested(300_000))).toHaveLength(1);
  });

  const aliased = (anchor: string, times: number) => `base: &a ${anchor}\nuses:\n${'  - *a\n'.repeat(times)}`;

  it(`reads aliases that repeat ${MAX_ALIAS_NODES.toLocaleString('en-US')} nodes, and refuses the alias past them`, () => {
    // A list of nine scalars is ten nodes.
    const list = `[${Array(9).fill('x').join(', ')}]`;
    expect(problems(aliased(list, MAX_ALIAS_NODES / 10))).toEqual([]);
    expect(problems(aliased(list, MAX_ALIAS_NODES / 10 + 1))).toEqual([
      `f.yaml:${3 + MAX_ALIAS_NODES / 10}:5: cannot expand the document: its aliases repeat more than 100,000 nodes (a "billion laughs" document?); needlework reads no further`,
    ]);
    // The value shares one list for the anchor and its aliases, as js-yaml builds it.
    const { value } = parseYaml(aliased(list, 3), 'a.yaml') as { value: { base: unknown; uses: unknown[] } };
    expect(value.uses[2]).toBe(value.base);
  });

  it('counts what an alias repeats with the aliases inside it: a billion laughs is refused in its third line', () => {
    const laughs = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (const [i, name] of ['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].entries())
      laughs.push(`${name}: &${name} [${Array(10).fill(`*${'abcdefghij'[i]}`).join(', ')}]`);
    // 10 aliases of 11 nodes, 10 of 111, 10 of 1,111, 10 of 11,111: the eighth of those passes 100,000.
    expect(problems(laughs.join('\n'))).toEqual([
      'f.yaml:5:36: cannot expand the document: its aliases repeat more than 100,000 nodes (a "billion laughs" document?); needlework reads no further',
    ]);
  });
});
