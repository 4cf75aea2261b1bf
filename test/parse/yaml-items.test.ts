// A YAML text that cannot be read whole is read item by item of its top-level lists (src/parse/yaml-items.ts and
// readYaml in src/parse/yaml.ts): one broken case is reported at its place and the others read as written.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic, UserError } from '../../src/errors/index.js';
import { readYaml } from '../../src/parse/yaml.js';
import { topLists, withoutItems } from '../../src/parse/yaml-items.js';
import { readYamlNodes } from '../../src/parse/yaml-read.js';
import { parseCasesText } from '../../src/specs/cases.js';
import { lineEditedVariants, mutatedVariants } from '../helpers/spec-edits.js';

/** Each list's key and its items' texts. */
function split(text: string): Array<[string | undefined, string[]]> {
  return topLists(text).map((list) => [list.key, list.items.map((item) => text.slice(item.start, item.end))]);
}

/** The line of an offset. */
function lineOf(text: string, at: number): number {
  return text.slice(0, at).split('\n').length;
}

/** What reading a text gives: its value and broken items (each its index and diagnostics), or its diagnostics. */
function outcome(text: string): unknown {
  try {
    const { value, broken } = readYaml(text, 'f.yaml');
    return {
      value,
      broken: broken.map((b) => [b.list, b.index, b.line, b.diagnostics.map(formatDiagnostic)]),
    };
  } catch (error) {
    if (error instanceof UserError) return error.diagnostics.map(formatDiagnostic);
    throw error;
  }
}

describe('topLists finds the block lists at the top of a document by indentation', () => {
  it("splits a root key's list into its items, each from its `-` line to the next", () => {
    const text =
      'id: x\ncases:\n  - id: a\n    input: q\n\n  # b next\n  - id: b\n  -\n    id: c\nafter: 1\n';
    expect(split(text)).toEqual([
      ['cases', ['  - id: a\n    input: q\n\n  # b next\n', '  - id: b\n', '  -\n    id: c\n']],
    ]);
    // The items start where their lines start: columns stay the file's.
    const [item] = topLists(text)[0]!.items;
    expect(item).toEqual({ start: 13, dash: 15, end: 48 });
  });

  it('finds a list at the margin, a quoted key, several lists, and a document that is a list', () => {
    expect(split('"cases": # the cases\n- a\n- b\nother:\n  - c\n')).toEqual([
      ['cases', ['- a\n', '- b\n']],
      ['other', ['  - c\n']],
    ]);
    expect(split('# heading\n---\n- a: 1\n- |\n  text\n')).toEqual([
      [undefined, ['- a: 1\n', '- |\n  text\n']],
    ]);
  });

  it('keeps comment lines, blank lines and lines indented with a tab in the item they stand in', () => {
    expect(split('l:\n  - a\n# margin\n\tb: 1\n  - c\n')).toEqual([
      ['l', ['  - a\n# margin\n\tb: 1\n', '  - c\n']],
    ]);
  });

  it('ends a list at a line indented as much that is no item, or less', () => {
    expect(split('m:\n  l:\n    - a\n  k: 1\nn:\n  - b\n   c: 2\n  d: 3\n')).toEqual([
      ['n', ['  - b\n   c: 2\n']],
    ]);
  });

  it('finds no list in a flow value, an anchored or tagged one, a nested one, or a second document', () => {
    expect(split('l: [a, b]\nm: &x\n  - a\nn: !!seq\n  - b\no:\n  p:\n    - c\n')).toEqual([]);
    expect(split('l:\n  - a\n---\nm:\n  - b\n')).toEqual([['l', ['  - a\n']]]);
    expect(split('a: 1\n- b\n')).toEqual([]);
  });

  it('reads CRLF and a byte-order mark', () => {
    expect(split('\ufeffl:\r\n  - a\r\n  - b\r\n')).toEqual([['l', ['  - a\r\n', '  - b\r\n']]]);
  });

  it('blanks the items asked for to empty ones, every offset and line kept', () => {
    const text = 'l:\n  - a: 1\n    b: [2]\n  - c\n';
    const blank = withoutItems(text, [topLists(text)[0]!.items[0]!]);
    expect(blank).toBe('l:\n  -     \n          \n  - c\n');
    expect(load(blank)).toEqual({ l: [null, 'c'] });
  });
});

describe('a text that cannot be read whole is read item by item', () => {
  it('reads the other cases of a file with a syntax error in one, which is placed', () => {
    // js-yaml reads the unclosed mapping on into case c, and fails there; case b fails alone, at its end.
    const text = 'id: x\ncases:\n  - id: a\n  - id: b\n    expect: {a: 1\n  - id: c\n';
    expect(outcome(text)).toEqual({
      value: { id: 'x', cases: [{ id: 'a' }, null, { id: 'c' }] },
      broken: [
        [
          'cases',
          1,
          4,
          ['f.yaml:5:18: not valid YAML: unexpected end of the stream within a flow collection'],
        ],
      ],
    });
  });

  it('blames the item whose unclosed bracket runs into the next one, and reads that one', () => {
    const text = 'cases:\n  - id: a\n    l: [1\n  - id: b\n    l: [2]\n';
    expect(outcome(text)).toEqual({
      value: { cases: [null, { id: 'b', l: [2] }] },
      broken: [
        [
          'cases',
          0,
          2,
          ['f.yaml:3:10: not valid YAML: unexpected end of the stream within a flow collection'],
        ],
      ],
    });
  });

  it('reads each case with a duplicate key, a tab or a bad tag as broken, in its words in place, and every other case', () => {
    const text = 'cases:\n  - id: a\n    id: b\n  - ok: 1\n  - id: c\n\tx: 1\n  - v: !!binary x\n  - ok: 2\n';
    expect(outcome(text)).toEqual({
      value: { cases: [null, { ok: 1 }, null, null, { ok: 2 }] },
      broken: [
        ['cases', 0, 2, ['f.yaml:3:5: not valid YAML: duplicated mapping key "id"']],
        ['cases', 2, 5, ['f.yaml:6:1: not valid YAML: tab characters must not be used in indentation']],
        ['cases', 3, 7, ['f.yaml:7:8: not valid YAML: unknown tag !<tag:yaml.org,2002:binary>']],
      ],
    });
  });

  it('reads an alias of an anchor in another item where it stands, and one of a broken item as broken', () => {
    const shared = 'cases:\n  - calls: &c [x]\n  - calls: *c\n  - bad: [\n';
    expect(outcome(shared)).toEqual({
      value: { cases: [{ calls: ['x'] }, { calls: ['x'] }, null] },
      broken: [
        [
          'cases',
          2,
          4,
          ['f.yaml:4:11: not valid YAML: unexpected end of the stream within a flow collection'],
        ],
      ],
    });
    const lost = 'cases:\n  - calls: &c [x\n  - calls: *c\n  - ok: 1\n';
    expect(outcome(lost)).toEqual({
      value: { cases: [null, null, { ok: 1 }] },
      broken: [
        [
          'cases',
          0,
          2,
          ['f.yaml:2:17: not valid YAML: unexpected end of the stream within a flow collection'],
        ],
        ['cases', 1, 3, ['f.yaml:3:12: not valid YAML: unidentified alias "c"']],
      ],
    });
  });

  it('places each case read item by item where it is written', () => {
    const text =
      'id: x\ncases:\n  - id: a\n    expect: {tools: {must_call: [x]}}\n  - id: b\n    x: [\n  - id: c\n';
    const spec = parseCasesText(text, 'f.cases.yaml');
    expect(spec.cases.map((c) => [c.id, c.line, c.place, c.places])).toEqual([
      [
        'a',
        3,
        { line: 3, column: 5 },
        { tools: { line: 4, column: 14 }, 'tools.must_call': { line: 4, column: 22 } },
      ],
      ['c', 7, { line: 7, column: 5 }, {}],
    ]);
    expect(spec.invalid.map((c) => [c.id, c.line, c.diagnostics.map(formatDiagnostic)])).toEqual([
      [
        'case 2',
        5,
        ['f.cases.yaml:6:9: not valid YAML: unexpected end of the stream within a flow collection'],
      ],
    ]);
  });

  it('fails the file, with every error found, when the rest of it cannot be read', () => {
    expect(outcome('id: [x\ncases:\n  - a: [\n  - b\n')).toEqual([
      'f.yaml:2:1: not valid YAML: missed comma between flow collection entries',
      'f.yaml:3:9: not valid YAML: unexpected end of the stream within a flow collection',
    ]);
    // A problem outside every list is the file's alone.
    expect(outcome('id: x\ncases:\n  - a\ntitle: [\n')).toEqual([
      'f.yaml:4:9: not valid YAML: unexpected end of the stream within a flow collection',
    ]);
  });

  it('reads a case that passes a limit only where it stands as broken, the rest within the limit', () => {
    // Each case's aliases are under the limit alone; the 1,001st passes it.
    const calls = `[${Array(9).fill('x').join(', ')}]`;
    const many = `cases:\n  - &c ${calls}\n${'  - [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n'.repeat(1001)}`;
    const { broken, value } = readYaml(many, 'f.yaml');
    expect(broken.map((b) => [b.index, b.diagnostics.map(formatDiagnostic)])).toEqual([
      [
        1001,
        [
          'f.yaml:1003:6: cannot expand the document: its aliases repeat more than 100,000 nodes (a "billion laughs" document?); needlework reads no further',
        ],
      ],
    ]);
    expect((value as { cases: unknown[] }).cases).toHaveLength(1002);
    // 511 levels in a case read alone, 513 where it stands.
    const deep = `cases:\n  - ${'['.repeat(511)}${']'.repeat(511)}\n  - ok\n`;
    expect(outcome(deep)).toEqual({
      value: { cases: [null, 'ok'] },
      broken: [
        [
          'cases',
          0,
          2,
          ['f.yaml:2:515: nested deeper than 512 levels of lists and objects; needlework reads no deeper'],
        ],
      ],
    });
  });

  it('reports the failure alone where the items were not cut as js-yaml reads them', () => {
    // The flow mapping's `}` at the margin ends its list to the splitter; js-yaml reads it, and fails at the tag.
    expect(outcome('a: 1\nl:\n- {\n\n}\nb: !!int x\n')).toEqual([
      'f.yaml:6:4: not valid YAML: cannot resolve a node with !<tag:yaml.org,2002:int> explicit tag',
    ]);
  });

  it('fails the file where leaving an item out does not leave its list as the file writes it', () => {
    // js-yaml would read case b into the list before it, and reads its blanked `-` there too.
    expect(outcome('cases:\n  - l:\n      -\n  - id: b\n')).toEqual([
      'f.yaml:4:3: an item indented less than the list before it, whose last item is empty: js-yaml would read it into that list; write the empty item as `- null`, or remove it',
    ]);
  });
});

describe('the repository specs edited at random', () => {
  const ROOT = join(import.meta.dirname, '../..');
  for (const file of ['examples/support/support.cases.yaml', 'examples/coding/coding.cases.yaml']) {
    it(`${file}: a text that fails whole is refused or read item by item, each item read as it reads alone`, () => {
      const original = readFileSync(join(ROOT, file), 'utf8');
      let recovered = 0;
      let failed = 0;
      for (const text of [...mutatedVariants(original, 300, 11), ...lineEditedVariants(original, 300, 5)]) {
        let whole = true;
        try {
          readYamlNodes(text);
        } catch {
          whole = false;
          failed++;
        }
        let read: ReturnType<typeof readYaml>;
        try {
          read = readYaml(text, file);
        } catch (error) {
          if (!(error instanceof UserError)) throw error;
          expect(whole, text).toBe(false);
          continue;
        }
        // A text that fails whole is never read as if it did not.
        expect(read.broken.length > 0, text).toBe(!whole);
        if (whole) continue;
        recovered++;
        for (const list of topLists(text)) {
          const broken = new Set(read.broken.filter((b) => b.list === list.key).map((b) => b.index));
          const values =
            list.key === undefined ? read.value : (read.value as Record<string, unknown>)[list.key];
          for (const [i, item] of list.items.entries()) {
            const path = list.key === undefined ? [String(i)] : [list.key, String(i)];
            if (broken.has(i)) {
              expect((values as unknown[])[i], text).toBeNull();
              expect(read.places.where(path)?.line, text).toBe(lineOf(text, item.dash));
              continue;
            }
            // An item that reads alone reads to the same value where it stands, placed at its first line.
            let alone: unknown;
            try {
              alone = (readYamlNodes(text.slice(item.start, item.end)).value as unknown[])[0];
            } catch {
              continue;
            }
            expect((values as unknown[])[i], text).toEqual(alone);
            if (/^-[ \t]+[^\s#]/.test(text.slice(item.dash)))
              expect(read.places.where(path)?.line, text).toBe(lineOf(text, item.dash));
          }
        }
      }
      // Most texts that fail whole keep their other items (226 of 355 and 165 of 295 at these seeds).
      expect(recovered / failed).toBeGreaterThan(0.5);
    });
  }
});
