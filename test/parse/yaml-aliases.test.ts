// The light YAML path applies the `yaml` path's alias limit as the `yaml` package weighs each anchored node, aliases
// inside anchored nodes included: the same documents are read, to the same values, and the same are refused.
import { describe, expect, it } from 'vitest';
import { parseYaml } from '../../src/parse/yaml.js';
import { loadYamlFast } from '../../src/parse/yaml-fast.js';
import { seededInts } from '../helpers/seeded.js';

/** The value read, or the message of the error thrown; undefined when the light path leaves the text to `yaml`. */
function outcome(read: () => { value: unknown } | undefined): unknown {
  try {
    return read()?.value;
  } catch (error) {
    return (error as Error).message;
  }
}

const REFUSED =
  'x.yaml: cannot expand the document: Excessive alias count indicates a resource exhaustion attack';

/**
 * A document of anchored nodes (flow collections, scalars and block mappings, some holding aliases of earlier
 * anchors, some anchors set again), then a list of aliases, each repeated up to 60 times: counts that cross the limit
 * of 100 for some anchors and weights, and not for others.
 */
function aliasDocument(int: (n: number) => number): string {
  const random = () => int(1000) / 1000;
  const names = ['a', 'b', 'c', 'd'];
  const set: string[] = [];
  // The anchor being set: an alias of it inside its own node would name that node (left to the yaml path).
  let current = '';
  const aliasable = () => set.filter((name) => name !== current);
  const alias = () => `*${aliasable()[int(aliasable().length)]}`;
  const node = (depth: number): string => {
    const r = random();
    if (aliasable().length > 0 && r < 0.3) return alias();
    if (depth > 2 || r < 0.45) return ['x', '1', 'null', '"q"', '~'][int(5)]!;
    if (r < 0.55) return random() < 0.5 ? '[]' : '{}';
    const items = Array.from({ length: int(3) }, () => node(depth + 1));
    if (r < 0.8) return `[${items.join(', ')}]`;
    return `{${items.map((v, i) => `k${i}: ${v}`).join(', ')}}`;
  };
  const lines = ['defs:'];
  for (let i = 0, n = 2 + int(4); i < n; i++) {
    const name = names[int(names.length)]!;
    current = name;
    const value = node(0);
    // An anchor on its own line before a block mapping is the mapping's.
    if (random() < 0.25)
      lines.push(`  - &${name}\n    k: ${value}\n    j: ${aliasable().length > 0 ? alias() : 'y'}`);
    else
      lines.push(`  - &${name} ${value === '[]' || value === '{}' || !value.startsWith('*') ? value : '[]'}`);
    set.push(name);
  }
  current = '';
  lines.push('uses:');
  for (let i = 0, n = 1 + int(4); i < n; i++) {
    const use = alias();
    for (let k = 0, times = int(60); k < times; k++) lines.push(`  - ${use}`);
  }
  return `${lines.join('\n')}\n`;
}

describe("the light path's alias limit", () => {
  it('reads and refuses 600 generated documents of anchors and aliases as the yaml path does', () => {
    const int = seededInts(20261127);
    let refused = 0;
    for (let i = 0; i < 600; i++) {
      const text = aliasDocument(int);
      const fast = outcome(() => loadYamlFast(text, { file: 'x.yaml' }));
      expect(fast, text).toBeDefined();
      expect(fast, text).toEqual(outcome(() => parseYaml(text, 'x.yaml')));
      if (fast === REFUSED) refused++;
    }
    // Both outcomes are well represented.
    expect(refused).toBeGreaterThan(60);
    expect(refused).toBeLessThan(540);
  });

  it.each([
    // b weighs a's count when b is first aliased: 3 (a, and its aliases in b and before b's) x 34 aliases of b = 102.
    [
      'an alias of a node that holds aliases',
      'a: &a x\nu: *a\nb: &b [*a]\nuses:\n' + '  - *b\n'.repeat(33),
      'refused',
    ],
    ['the same one alias short', 'a: &a x\nu: *a\nb: &b [*a]\nuses:\n' + '  - *b\n'.repeat(32), 'read'],
    // A node of nothing but an alias of an empty list weighs nothing: never refused.
    [
      'a node holding only an alias of an empty list',
      'e: &e []\nb: &b [*e, [*e]]\nuses:\n' + '  - *b\n'.repeat(150),
      'read',
    ],
    // An alias of a list weighs as that list does, not as a list with an item of its own: c weighs 0 here, b 1.
    [
      'a node holding an alias of a list of an empty mapping',
      `a: &a [{}]\nc: &c [*a]\nb: &b\n  k: *a\n  j: *c\nuses:\n${'  - *b\n'.repeat(99)}`,
      'read',
    ],
    // Its weight is taken at its first alias: aliases of a after that do not change it.
    [
      'aliases of an inner anchor after the outer one is weighed',
      'a: &a x\nb: &b {k: *a}\nfirst: *b\nmore:\n' +
        '  - *a\n'.repeat(40) +
        'uses:\n' +
        '  - *b\n'.repeat(40),
      'read',
    ],
    // An anchor on its own line before a block mapping is the mapping's, and the aliases in the mapping weigh in it.
    [
      'an anchored block mapping holding an alias past its first key',
      'a: &a x\nm: &m\n  k: 1\n  j: *a\nmore:\n' + '  - *a\n'.repeat(9) + 'uses:\n' + '  - *m\n'.repeat(9),
      'refused',
    ],
  ])('%s: the yaml path outcome, on the light path', (_, text, expected) => {
    const fast = outcome(() => loadYamlFast(text, { file: 'x.yaml' }));
    expect(fast).toBeDefined();
    expect(fast).toEqual(outcome(() => parseYaml(text, 'x.yaml')));
    expect(fast === REFUSED ? 'refused' : 'read').toBe(expected);
  });

  it('leaves an alias inside the node it names to the yaml path, which weighs the node read whole', () => {
    for (const text of ['a: &a [*a, x]\n', 'a: &a {k: [1, *a]}\nb: *a\n']) {
      expect(loadYamlFast(text, { file: 'x.yaml' })).toBeUndefined();
    }
  });
});
