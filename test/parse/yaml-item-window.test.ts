// A large valid YAML file with a construct js-yaml reads apart in an item of a list is read around that item
// (src/parse/yaml-item-window.ts): the same value as the `yaml` Document's, and every place the light path gives the
// one the Document gives.
import { describe, expect, it } from 'vitest';
import { parseYaml } from '../../src/parse/yaml.js';
import { loadYamlFast } from '../../src/parse/yaml-fast.js';
import { WINDOW_FROM } from '../../src/parse/yaml-window.js';
import { seededInts } from '../helpers/seeded.js';
import { caseItem } from '../helpers/yaml-cases.js';
import { expectDocumentPlaces } from '../helpers/yaml-places.js';

/** Constructs js-yaml reads apart from the `yaml` package, each as one item of the list. */
const APART: Record<string, (i: number) => string> = {
  'a collection as a key': (i) => `  - id: k${i}\n    args: { [a, b]: 1, { x: ${i} }: 2 }\n`,
  'a verbatim tag': (i) => `  - id: v${i}\n    answer: !<tag:yaml.org,2002:str> ${i}\n`,
  'a !!binary tag': (i) => `  - id: b${i}\n    data: !!binary aGVsbG8=\n`,
  'a !!set and a !!omap': (i) =>
    `  - id: s${i}\n    set: !!set { a, b }\n    map: !!omap [ x: ${i}, y: 2 ]\n`,
  'a list whose empty item a less indented one follows': (i) => `  - - x${i}\n    -\n`,
  'a %-escaped tag': (i) => `  - id: e${i}\n    answer: !x%41 ${i}\n`,
  // Found once the whole text is read: js-yaml spells a null key "null" too.
  'a quoted "null" key': (i) => `  - id: n${i}\n    "null": ${i}\n`,
};

/** A cases file of `n` items past `WINDOW_FROM`, with `inserts` (a construct at an item index), then `tail`. */
function casesFile(n: number, inserts: Array<[number, string]>, tail = 'tail: 1\n'): string {
  const items = Array.from({ length: n }, (_, i) => caseItem(i, 2));
  for (const [at, text] of [...inserts].sort((a, b) => b[0] - a[0])) items.splice(at, 0, text);
  return `id: big\ncases:\n${items.join('')}${tail}`;
}

/** The light path reads `text` to the Document's value, and places every node it places as the Document does. */
function expectReadAsDocument(text: string): void {
  const fast = loadYamlFast(text, { file: 'f.yaml' });
  expect(fast, 'read around the item').toBeDefined();
  expect(fast!.value).toEqual(parseYaml(text, 'f.yaml').value);
  expectDocumentPlaces(text, fast!, { every: false });
}

describe('a large valid YAML file is read around an item js-yaml reads apart', () => {
  for (const [name, make] of Object.entries(APART)) {
    it(`${name}, in the middle: the Document's value and places`, () => {
      const text = casesFile(1200, [[400, make(400)]]);
      expect(text.length).toBeGreaterThan(WINDOW_FROM);
      expectReadAsDocument(text);
    });
  }

  it('in the first item and the last, and three in one file', () => {
    const apart = Object.values(APART);
    expectReadAsDocument(casesFile(1200, [[0, apart[0]!(0)]]));
    expectReadAsDocument(casesFile(1200, [[1200, apart[1]!(1200)]], ''));
    expectReadAsDocument(
      casesFile(1200, [
        [3, apart[2]!(3)],
        [401, apart[3]!(401)],
        [799, apart[4]!(799)],
      ]),
    );
  });

  it('places the list at its first item when that item is the one read around', () => {
    const text = casesFile(1200, [[0, APART['a verbatim tag']!(0)]]);
    const fast = loadYamlFast(text)!;
    expect(fast.startAt(['cases'])).toBe(text.indexOf('- id: v0'));
    expect(fast.startAt(['cases', '100000'])).toBe(text.indexOf('- id: v0'));
  });

  it('agrees with the Document on 12 files with constructs at seeded items', () => {
    const int = seededInts(31);
    const apart = Object.values(APART);
    for (let k = 0; k < 12; k++) {
      const n = 1200 + int(200);
      const inserts: Array<[number, string]> = [];
      for (let c = 1 + int(3); c > 0; c--) {
        const at = int(n);
        inserts.push([at, apart[int(apart.length)]!(at)]);
      }
      const text = casesFile(n, inserts);
      try {
        expectReadAsDocument(text);
      } catch (error) {
        throw new Error(`${JSON.stringify(inserts)}: ${(error as Error).message}`);
      }
    }
  });

  it('leaves to the yaml package what it cannot read around alike', () => {
    const one = APART['a verbatim tag']!(400);
    // An alias anywhere: an item read apart from the anchor it names would read otherwise.
    const aliased = casesFile(1200, [[400, one]])
      .replace('id: case-0', 'id: &first case-0')
      .replace('id: c1\n', 'id: *first\n');
    expect(loadYamlFast(aliased)).toBeUndefined();
    // A small file: read whole (tens of milliseconds).
    expect(loadYamlFast(casesFile(40, [[20, one]]))).toBeUndefined();
    // A construct outside any list.
    expect(
      loadYamlFast(casesFile(1200, []).replace('id: big', 'id: !<tag:yaml.org,2002:str> big')),
    ).toBeUndefined();
    // The last item, a key after the list: the window would hold that key.
    expect(loadYamlFast(casesFile(1200, [[1200, one]]))).toBeUndefined();
    // More than eight items to read around, each followed by more than a short text.
    const nine: Array<[number, string]> = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((k) => [
      k * 200,
      APART['a !!binary tag']!(k * 200),
    ]);
    expect(loadYamlFast(casesFile(3000, nine))).toBeUndefined();
  });

  it('reads around eight items in one file, and a short part between them as the yaml package reads it', () => {
    const eight: Array<[number, string]> = [1, 2, 3, 4, 5, 6, 7, 8].map((k) => [
      k * 200,
      APART['a !!binary tag']!(k * 200),
    ]);
    expectReadAsDocument(casesFile(3000, eight));
    // A quoted "null" key (found once its part is read whole) in the short text before another such item.
    expectReadAsDocument(
      casesFile(1200, [
        [133, APART['a quoted "null" key']!(133)],
        [319, APART['a !!binary tag']!(319)],
      ]),
    );
  });
});
