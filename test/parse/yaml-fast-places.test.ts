// The light YAML path places a node where the `yaml` Document places it, or declines: a diagnostic placed by js-yaml's
// node starts must read exactly as one placed by `locate` in the Document (same line, same column), since a file is
// placed by whichever path can read it.
import { describe, expect, it } from 'vitest';
import { parseYaml } from '../../src/parse/yaml.js';
import { loadYamlFast } from '../../src/parse/yaml-fast.js';
import { expectDocumentPlaces } from '../helpers/yaml-places.js';

/** Documents in the shapes spec authors write, each of which js-yaml's light path reads. */
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
    'a:\nb: ~\nc: null\nd: [null, 2]\ne:   # comment\nf: {g: , h: 1, i:}\nj:\n\nk:\n  l:\n  m: 1\nn: \t\no: x\n',
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
};

/**
 * The light path reads `text` to the yaml Document's value (its keys in the same order) and places what it places as
 * the Document does (with `every`, every node).
 */
function expectReadAsDocument(text: string, options: { every: boolean }): void {
  const fast = loadYamlFast(text);
  if (!fast) throw new Error(`the light path should read ${JSON.stringify(text)}`);
  expect(JSON.stringify(fast.value)).toBe(JSON.stringify(parseYaml(text, 'a.yaml').value));
  expectDocumentPlaces(text, fast, options);
}

describe('the light path places every node where the yaml Document places it', () => {
  for (const [name, text] of Object.entries(DOCUMENTS)) {
    it(`${name}: every node and key, and paths that leave the document`, () => {
      const fast = loadYamlFast(text);
      if (!fast) throw new Error('the light path should read this document');
      const placed = expectDocumentPlaces(text, fast, { every: true });
      expect(placed).toBeGreaterThan(3);
    });
  }

  it('reads a block list with an empty item, its items unplaced, unless js-yaml would read on into it', () => {
    // js-yaml reads case b into the calls of case a: an empty item, then an item less indented. Left to yaml.
    const text = 'cases:\n  - id: a\n    calls:\n      - name: x\n      -\n  - id: b\n';
    expect(loadYamlFast(text)).toBeUndefined();
    expect(parseYaml(text, 'x.yaml').value).toEqual({
      cases: [{ id: 'a', calls: [{ name: 'x' }, null] }, { id: 'b' }],
    });
    for (const other of ['- -\n- 2\n', 'x:\n  - k:\n      -\n  # c\n\n  - b\n'])
      expect(loadYamlFast(other)).toBeUndefined();
    // Else read alike: the items of such a list are not placed (the two parsers place an empty node apart), what
    // is around them is.
    for (const alike of [
      'd:\n  -\n  - 2\n',
      'cases:\n  - id: a\n    calls:\n      -\n    x: 1\n  - id: b\n',
      'a:\n  - 1\n  - # c\n  - {k: v}\nb: 2\n',
    ]) {
      expectReadAsDocument(alike, { every: false });
    }
    expect(loadYamlFast('d:\n  -\n  - 2\n')!.startAt(['d', '1'])).toBeUndefined();
    // An emptied mapping value is no list item: still read, and placed after its key's `:`.
    const emptied = 'd:\n  - 2\ne:\n';
    expect(loadYamlFast(emptied)?.startAt(['e'])).toBe(emptied.length - 1);
  });

  it('leaves a collection as a key to the yaml Document, which spells it as YAML', () => {
    // js-yaml spells it "a,b": a spec would be told of an unknown key by another name on each path.
    for (const text of ['id: x\n? [a, b]\n: 1\nanswer: y\n', '[a, b]: 1\n', '{a: 1}: 2\n']) {
      expect(loadYamlFast(text), text).toBeUndefined();
    }
    expect(parseYaml('[a, b]: 1\n', 'a.yaml').value).toEqual({ '[ a, b ]': 1 });
  });

  it("reads an anchor or !!str before a key as the key's, placed past them as the yaml Document places it", () => {
    for (const text of [
      '- !!str id: a\n  b: 1\n',
      '&k a: 1\nb: *k\n',
      'cases:\n  - &first id: case-1\n    note: *first\n  - !!str 007: x\n',
      'x: {&k a: 1, b: *k}\n',
    ]) {
      expectReadAsDocument(text, { every: true });
    }
    // An alias as a key stays the yaml Document's.
    expect(loadYamlFast('a: &k x\n*k : 1\n')).toBeUndefined();
  });

  it('spells a null key "" as the yaml Document does, its keys in order and placed', () => {
    for (const text of [
      'a: 1\nnull: 2\nb: 3\n',
      '~: 1\n',
      'a: {null: 1, b: 2}\n',
      '- x: 1\n  Null:\n    b: 1\n',
    ]) {
      expectReadAsDocument(text, { every: true });
    }
    // A "" key beside it, which the yaml package reads as the same key, and a quoted "null", are left to it.
    expect(loadYamlFast('null: 1\n"": 2\n')).toBeUndefined();
    expect(loadYamlFast('"null": 1\n')).toBeUndefined();
  });

  it('declines the items of a flow list holding a single pair, which js-yaml composes without a node', () => {
    const text = 'list: [a: 1, b]\n';
    const fast = loadYamlFast(text)!;
    expect(fast.startAt(['list', '0'])).toBeUndefined();
    expect(fast.startAt(['list', '1'])).toBeUndefined();
    expect(fast.startAt(['list'])).toBe(text.indexOf('['));
  });

  it('leaves a flow collection over several lines that the yaml lexer cuts short to the yaml Document', () => {
    // The fuzzed spec that found it: `yaml` reports "Flow sequence in block collection must be sufficiently
    // indented", js-yaml read the list.
    expect(loadYamlFast('workups: [grounded, guessed,\nsingle-file]\n')).toBeUndefined();
    expect(loadYamlFast('a:\n  b: { c: 1,\n  d: 2 }\n')).toBeUndefined();
    expect(loadYamlFast('a: ["quoted\nat the margin"]\n')).toBeUndefined();
    // The same, sufficiently indented, is read on the light path.
    expect(loadYamlFast('workups: [grounded, guessed,\n single-file]\n')?.value).toEqual({
      workups: ['grounded', 'guessed', 'single-file'],
    });
    expect(loadYamlFast('a:\n  b: { c: 1,\n   d: 2 }\n')?.value).toEqual({ a: { b: { c: 1, d: 2 } } });
  });

  it('leaves a lone \\r to the yaml Document, which reads it as text where js-yaml ends a line', () => {
    const text = 'a:\r  - 1\r  -\r  - 3\r';
    expect(loadYamlFast(text)).toBeUndefined();
    expect(parseYaml(text, 'a.yaml').value).toEqual({ a: '\r  - 1\r  -\r  - 3\r' });
    expect(loadYamlFast('a:\r\n  - 1\r\n')?.value).toEqual({ a: [1] });
  });

  it('leaves directives other than %YAML 1.2 to the yaml Document, which honours them', () => {
    expect(loadYamlFast('%YAML 1.1\n---\na: yes\n')).toBeUndefined();
    expect(parseYaml('%YAML 1.1\n---\na: yes\n', 'a.yaml').value).toEqual({ a: true });
    expect(loadYamlFast('%TAG !e! tag:example.com,2000:\n---\na: 1\n')).toBeUndefined();
    expect(loadYamlFast('%YAML 1.2\n---\na: 1\n...\n%YAML 1.2\n---\nb: 2\n')).toBeUndefined();
    expect(loadYamlFast('%YAML 1.2\n---\na: yes\n')?.value).toEqual({ a: 'yes' });
  });
});

describe("the light path applies the yaml path's alias limit as the yaml package weighs each anchor", () => {
  /** The value read, or the message of the error thrown. */
  const outcome = (read: () => { value: unknown } | undefined): unknown => {
    try {
      return read()?.value;
    } catch (error) {
      return (error as Error).message;
    }
  };
  const aliased = (anchor: string, times: number, after = ''): string =>
    `base: &a ${anchor}\nuses:\n${'  - *a\n'.repeat(times)}${after}`;

  it.each([
    ['a scalar aliased 99 times', aliased('x', 99)],
    ['a scalar aliased 100 times', aliased('x', 100)],
    ['a list aliased 99 times', aliased('[x, y]', 99)],
    ['a mapping aliased 100 times', aliased('{k: v}', 100)],
    // An empty collection, or one of nothing but empty ones, weighs nothing: never refused.
    ['an empty list aliased 150 times', aliased('[]', 150)],
    ['an empty mapping aliased 150 times', aliased('{}', 150)],
    ['a list of empty collections aliased 150 times', aliased('[[], {}, [[]]]', 150)],
    ['a list holding one value aliased 100 times', aliased('[[], [1]]', 100)],
    ['a mapping of an empty list aliased 100 times', aliased('{k: []}', 100)],
    // An anchor set again is a new node, counted afresh.
    [
      'an anchor set again after 60 aliases',
      aliased('x', 60, `again: &a y\nmore:\n${'  - *a\n'.repeat(60)}`),
    ],
  ])('%s: the same value or the same refusal', (_, text) => {
    const fast = outcome(() => loadYamlFast(text, { file: 'x.yaml' }));
    expect(fast).toBeDefined();
    expect(fast).toEqual(outcome(() => parseYaml(text, 'x.yaml')));
  });

  it('refuses at the 100th alias of an anchor that weighs 1, with the yaml path message', () => {
    expect(() => loadYamlFast(aliased('x', 100), { file: 'x.yaml' })).toThrowError(
      'x.yaml: cannot expand the document: Excessive alias count indicates a resource exhaustion attack',
    );
    expect(loadYamlFast(aliased('x', 99), { file: 'x.yaml' })?.value).toMatchObject({ base: 'x' });
    // Without a file to name, the refusal is the yaml path's.
    expect(loadYamlFast(aliased('x', 100))).toBeUndefined();
  });
});
