// The syntax errors of a large YAML file are found in windows around js-yaml's failures (src/parse/yaml-window.ts):
// the diagnostics must be the ones the `yaml` package gives the whole file, or, where its parser leaves the list far
// from the end, the same ones up to a line that a last diagnostic names.
import { describe, expect, it } from 'vitest';
import { MAX_WINDOWS_LENGTH, WINDOW_FROM } from '../../src/parse/yaml-window.js';
import { seededInts } from '../helpers/seeded.js';
import { caseItem } from '../helpers/yaml-cases.js';
import { diagnostics, lightDiagnostics } from '../helpers/yaml-diagnostics.js';

/** The whole file's diagnostics, read by the `yaml` package. */
const whole = diagnostics;

/** The light path's diagnostics (read in windows), 'read' when it reads the text, or 'left to yaml'. */
function windowed(text: string): string[] | 'read' | 'left to yaml' {
  const found = lightDiagnostics(text);
  return found === undefined ? 'left to yaml' : found.length === 0 ? 'read' : found;
}

/** A cases file of `n` items at `column` (the list under `cases:`), and `after` past the list. */
const casesFile = (n: number, column = 2, after = '') =>
  `id: big\ncases:\n${Array.from({ length: n }, (_, i) => caseItem(i, column)).join('')}${after}`;

/** `text` with line `line` (from 1) replaced by `edit(line text)`. */
function editLine(text: string, line: number, edit: (line: string) => string): string {
  const lines = text.split('\n');
  lines[line - 1] = edit(lines[line - 1]!);
  return lines.join('\n');
}

/** The line (from 1) of the first line of `text` that holds `needle`. */
const lineOf = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length;

describe('a large YAML file with syntax errors is read in windows around them', () => {
  const big = casesFile(1200);

  it('is large enough to be windowed, and reads whole when nothing is wrong', () => {
    expect(big.length).toBeGreaterThan(WINDOW_FROM);
    expect(windowed(big)).toBe('read');
    expect(whole(big)).toEqual([]);
  });

  const ERRORS: Record<string, (text: string) => string> = {
    'a tab as indentation near the end': (t) =>
      editLine(t, lineOf(t, 'id: c1195'), (l) => l.replace('  - id', '\t- id')),
    'a stray ] in the first item': (t) => editLine(t, lineOf(t, 'answer: "R0."'), (l) => `${l} ]`),
    'a key indented one space less, in the middle': (t) =>
      editLine(t, lineOf(t, 'line 601'), (l) => l.replace('      line', '   line')),
    'an item indented one space more': (t) => editLine(t, lineOf(t, 'id: c599'), (l) => ` ${l}`),
    'a quote left open': (t) =>
      editLine(t, lineOf(t, 'answer: "R600."'), (l) => l.replace('"R600."', '"R600.')),
    'a flow list left open': (t) =>
      editLine(t, lineOf(t, 'id: 600 }'), (l) => l.replace('{ name: b }]', '{ name: b }')),
    'errors at the start, in the middle and at the end (three windows)': (t) =>
      editLine(
        editLine(
          editLine(t, lineOf(t, 'id: c3\n'), (l) => `${l} ]`),
          lineOf(t, 'id: c601\n'),
          (l) => `${l}: :`,
        ),
        lineOf(t, 'id: c1199\n'),
        (l) => l.replace('  -', '\t-'),
      ),
    'an error in the mapping after the list': (t) => `${t}tail:\n  a: 1\n   b: 2\n`,
    'an error in a nested list of an item': (t) => editLine(t, lineOf(t, 'x1198'), (l) => `${l}\n   - z`),
    // A syntax error to the yaml package that js-yaml reads through: the windows open where its lexer cuts short.
    "a quoted scalar continued at its mapping's indentation": (t) =>
      editLine(t, lineOf(t, 'id: c602\n') + 2, (l) => l.replace('      two', '    two')),
    // js-yaml reads an item less indented after an empty one into the empty one's list; to the yaml package it
    // stands at its mapping's column: errors there, read in windows as at a failure of js-yaml's.
    "an empty item, and one at its mapping's column after it": (t) =>
      editLine(t, lineOf(t, 'line 601') + 4, (l) => l.replace('      - b', '      -\n    - b')),
    'a duplicate key in an item, among other errors': (t) =>
      editLine(
        editLine(t, lineOf(t, 'id: c700\n'), (l) => `${l}\n    id: again`),
        lineOf(t, 'id: c1000'),
        (l) => `${l} ]`,
      ),
  };
  for (const [name, edit] of Object.entries(ERRORS)) {
    it(`${name}: as the yaml package reports it`, () => {
      const text = edit(big);
      const expected = whole(text);
      expect(expected.length).toBeGreaterThan(0);
      expect(windowed(text)).toEqual(expected);
    });
  }

  // Flow lists are cut at their items, between the commas the yaml lexer reads at the list's own level.
  const item = (i: number) =>
    [`{ id: c${i}, v: [1, 2] }`, `"quoted, ${i}"`, `'single ${i}'`, `plain text ${i}`, `[nested, ${i}]`][
      i % 5
    ]!;
  const items = (n: number, separator: string) =>
    Array.from({ length: n }, (_, i) => item(i)).join(separator);
  const FLOW: Record<string, string> = {
    'a stray ] at the end of a flow list on one line': `id: a\nrequired_path:\n  relations: [${items(9000, ', ')}, ]]\n`,
    'a quote left open in a flow list over many lines': `id: f\ncases: [\n  ${items(6000, ',\n  ').replace('"quoted, 3001"', '"quoted, 3001')}\n]\n`,
    'a block item in a flow list over many lines, and a comma missing at the end': `id: f\ncases: [\n  ${items(6000, ',\n  ').replace("'single 2'", '- x').replace(', plain text 5998', ' plain text 5998 x: [')}\n]\n`,
    "a line of a flow list over many lines at its block's indentation": `id: f\ncases: [\n  ${items(6000, ',\n  ').replace('\n  plain text 5003', '\nplain text 5003')}\n]\n`,
    'a stray } in a flow list in a flow mapping': `a: { b: [\n    ${items(6000, ',\n    ').replace('plain text 3003', 'plain text 3003 }')}\n  ] }\n`,
  };
  for (const [name, text] of Object.entries(FLOW)) {
    it(`${name}: as the yaml package reports it`, () => {
      expect(text.length).toBeGreaterThan(WINDOW_FROM);
      const expected = whole(text);
      expect(expected.length).toBeGreaterThan(0);
      expect(windowed(text)).toEqual(expected);
    });
  }

  it('stops with a last diagnostic where the parser leaves the list, when much of the file is left', () => {
    // A line at the margin inside an item makes what follows an implicit key to the `yaml` parser, and the items after
    // it a list of its own: what that parser reads after the window is not the file as js-yaml read it.
    const text = casesFile(8000, 0, 'tail: 1\n').replace(
      '- id: c101\n  plain: some text\n',
      '- id: c101\n  plain: text |\nt\n',
    );
    expect(text.length).toBeGreaterThan(WINDOW_FROM + MAX_WINDOWS_LENGTH);
    const found = windowed(text) as string[];
    const line = lineOf(text, 'plain: text |') + 1;
    expect(found[0]).toBe(`f.yaml:${line}:1: Implicit keys need to be on a single line`);
    const note = /^f\.yaml: and maybe more YAML errors after line (\d+); needlework read no further$/.exec(
      found.at(-1)!,
    );
    expect(note).not.toBeNull();
    // The whole file's diagnostics up to that line are these; its others come after it.
    const last = Number(note![1]);
    expect(last).toBeGreaterThan(line + 100);
    const expected = whole(text);
    expect(found.slice(0, -1)).toEqual(expected.filter((d) => Number(d.split(':')[1]) <= last));
    expect(expected.at(-1)).toMatch(/^f\.yaml:\d+:1: The : indicator must be at most 1024 chars/);
  });

  it('reads a short rest whole when the parser leaves the list, as the yaml package does', () => {
    const text = casesFile(1500, 0, 'tail: 1\n').replace(
      '- id: c1403\n  plain: some text\n',
      '- id: c1403\n  plain: text |\nt\n',
    );
    const expected = whole(text);
    expect(expected.at(-1)).toMatch(/^f\.yaml:\d+:1: The : indicator must be at most 1024 chars/);
    expect(windowed(text)).toEqual(expected);
  });

  it('reads in windows a file whose anchors and aliases all stand before the item that fails', () => {
    const tab = (t: string) => editLine(t, lineOf(t, 'id: c1195'), (l) => l.replace('  - id', '\t- id'));
    const text = tab(big.replace('- id: case-0', '- id: &first case-0').replace('id: c1\n', 'id: *first\n'));
    const expected = whole(text);
    expect(expected.length).toBeGreaterThan(0);
    expect(windowed(text)).toEqual(expected);
  });

  it('finds no error where js-yaml reads an item apart that the yaml package reads as one of a list around', () => {
    // An item less indented after an empty one that is an item of the list around to the yaml package: no error
    // there, but values js-yaml reads apart, read around that item (test/parse/yaml-item-window.test.ts).
    const apart = big.replace("  - - x604\n    - 'y'\n", "  - - x604\n    -\n  - 'y'\n");
    expect(apart).not.toBe(big);
    expect(whole(apart)).toEqual([]);
    expect(windowed(apart)).toBe('read');
  });

  it('leaves to the yaml package what it cannot cut alike', () => {
    const tab = (t: string) => editLine(t, lineOf(t, 'id: c1195'), (l) => l.replace('  - id', '\t- id'));
    // A small file: read whole (tens of milliseconds).
    expect(windowed(tab(casesFile(1196)).slice(-20_000))).toBe('left to yaml');
    // An alias after the start of the windows: an item cut from the anchor it names would read apart.
    const anchored = tab(big.replace('- id: case-0', '- id: &first case-0'));
    expect(windowed(anchored.replace('id: c1197', 'id: *first'))).toBe('left to yaml');
    const inFailing = anchored.replace(/(line 1195\n(?:.*\n){2}.*)- a\n/, '$1- *first\n');
    expect(inFailing).not.toBe(anchored);
    expect(windowed(inFailing)).toBe('left to yaml');
    // A quoted scalar the yaml lexer cuts short before the failure: an error js-yaml does not see.
    expect(windowed(tab(big.replace('    two lines"', '  two lines"')))).toBe('left to yaml');
    // A failure in the head, before the list.
    expect(windowed(big.replace('id: big', 'id: big: x'))).toBe('left to yaml');
  });

  it.each([
    ['', 27],
    // An anchor in the first item and its alias in the second: errors after them are read in windows.
    [' whose first items hold an anchor and its alias', 28],
  ])('agrees with the yaml package on 30 large files%s with seeded errors', (kind, seed) => {
    const anchored = (t: string) =>
      kind ? t.replace('- id: case-0', '- id: &first case-0').replace('id: c1\n', 'id: *first\n') : t;
    const int = seededInts(seed);
    const MARKS = ['\t', ']', '}', ': ', '\n- ', '"', "'", '[', '{', ' |\n', '? ', ' #', '\n---\n', 'x'];
    let read = 0;
    let noted = 0;
    for (let k = 0; k < 30; k++) {
      let text = anchored(casesFile(1400 + int(700), int(2) * 2, int(2) ? 'tail: 1\n' : ''));
      for (let edits = 1 + int(3); edits > 0; edits--) {
        const at = int(text.length);
        text =
          int(4) === 0
            ? text.slice(0, at) + text.slice(at + 1)
            : text.slice(0, at) + MARKS[int(MARKS.length)] + text.slice(at);
      }
      const found = windowed(text);
      if (typeof found === 'string') continue;
      read++;
      const expected = whole(text);
      const note = /^f\.yaml: and maybe more YAML errors after line (\d+); needlework read no further$/.exec(
        found.at(-1)!,
      );
      if (!note) {
        expect(found, text).toEqual(expected);
        continue;
      }
      noted++;
      const last = Number(note[1]);
      expect(found.slice(0, -1), text).toEqual(expected.filter((d) => Number(d.split(':')[1]) <= last));
    }
    // Most of them are read in windows, not left to the yaml package.
    expect(read).toBeGreaterThan(15);
    expect(noted).toBeLessThan(read / 4);
  });
});
