import { describe, expect, it } from 'vitest';
import { parseBlocks } from '../../src/note/block-parser.js';
import { parseNote } from '../../src/note/parse.js';
import { parseNote as parseNoteV1 } from '../reference/parse-note-v1.js';

const NOTE = `# Workup

## Findings

- Halberd is a member of Ash Cell [cite:g1]. Wren is co-located there. [cite:g2, g3]
- Ash Cell is funded by Kestrel Group [cite:g4][cite:g5] and nobody checked it.
  - A nested claim about the \\*cell\\*. [cite:g6]

A paragraph of **bold** prose &amp; a [link](https://example.com). It cites nothing.

## Gaps & caveats

- We did not query the document store.

### Sub-gap

- Nor the archive.

## Provenance

Queries g1 to g6.
`;

describe('parseNote', () => {
  const note = parseNote(NOTE, { file: 'note.md' });

  it('splits sections by heading and exempts Gaps & caveats and Provenance with their subsections', () => {
    expect(note.sections.map((s) => [s.title, s.depth, s.claims])).toEqual([
      ['Workup', 1, true],
      ['Findings', 2, true],
      ['Gaps & caveats', 2, false],
      ['Sub-gap', 3, false],
      ['Provenance', 2, false],
    ]);
  });

  it('makes a segment of each bullet (nested ones too) and each paragraph, as plain text without markers', () => {
    const findings = note.sections[1]!.segments;
    expect(findings.map((s) => [s.kind, s.text])).toEqual([
      ['bullet', 'Halberd is a member of Ash Cell. Wren is co-located there.'],
      ['bullet', 'Ash Cell is funded by Kestrel Group and nobody checked it.'],
      ['bullet', 'A nested claim about the *cell*.'],
      ['paragraph', 'A paragraph of bold prose & a link. It cites nothing.'],
    ]);
    expect(note.segments).toHaveLength(7);
  });

  it('reads the three citation forms', () => {
    expect(note.citations.map((c) => c.id)).toEqual(['g1', 'g2', 'g3', 'g4', 'g5', 'g6']);
  });

  it('gives each sentence its own citations, moving a trailing marker back to the sentence it follows', () => {
    const [first] = note.sections[1]!.segments;
    expect(first!.sentences.map((s) => [s.text, s.citations.map((c) => c.id)])).toEqual([
      ['Halberd is a member of Ash Cell.', ['g1']],
      ['Wren is co-located there.', ['g2', 'g3']],
    ]);
  });

  it('records where the last citation stands, so trailing prose is known to be uncited', () => {
    const [first, second, , paragraph] = note.sections[1]!.segments;
    expect(first!.text.slice(first!.lastCitationAt)).toBe('');
    expect(second!.text.slice(second!.lastCitationAt)).toBe(' and nobody checked it.');
    expect(paragraph!.lastCitationAt).toBe(-1);
  });

  it('keeps the source line and column of every sentence and citation, across escapes and entities', () => {
    const [first, , nested, paragraph] = note.sections[1]!.segments;
    expect(first!.position).toMatchObject({ line: 5, column: 3 });
    expect(first!.sentences[1]!.position).toMatchObject({ line: 5, column: 46 });
    expect(first!.citations.map((c) => `${c.id}@${c.position.line}:${c.position.column}`)).toEqual([
      'g1@5:35',
      'g2@5:72',
      'g3@5:72',
    ]);
    const at = (c: { position: { offset: number } }) => NOTE.slice(c.position.offset, c.position.offset + 9);
    expect(first!.citations.map(at)).toEqual(['[cite:g1]', '[cite:g2,', '[cite:g2,']);
    // `\\*cell\\*` is two characters longer in the source than in the text: the marker is still placed exactly.
    expect(nested!.citations[0]!.position).toMatchObject({ line: 7, column: 40 });
    expect(at(nested!.citations[0]!)).toBe('[cite:g6]');
    expect(paragraph!.sentences[1]!.position).toMatchObject({ line: 9, column: 68 });
  });

  // A wrapped bullet's text drops the next line's indent (and a block quote's `>`, and spaces before a line ending):
  // sentences and markers after the first line were placed that many columns too early, by this parser and the last.
  it('places what a wrapped bullet or block quote says on its later lines at its own column', () => {
    const source =
      '- Halberd met Wren\n  in Ash Cell. Wren paid. [cite:g1]\n\n> Quoted \n> twice. Then [cite:g2]\n\n- Spaced\t\n    out. [cite:g3]\n';
    const at = (position: { line: number; column: number; offset: number }, length: number) =>
      `${position.line}:${position.column} ${source.slice(position.offset, position.offset + length)}`;
    for (const parse of [parseNote, parseNoteV1]) {
      const placed = parse(source).segments.flatMap((segment) => [
        ...segment.sentences.map((s) => at(s.position, s.text.length)),
        ...segment.citations.map((c) => at(c.position, 9)),
      ]);
      expect(placed).toEqual([
        '1:3 Halberd met Wren',
        '2:3 in Ash Cell.',
        '2:16 Wren paid.',
        '2:27 [cite:g1]',
        '4:3 Quoted',
        '5:3 twice.',
        '5:10 Then',
        '5:15 [cite:g2]',
        '7:3 Spaced',
        '8:5 out.',
        '8:10 [cite:g3]',
      ]);
    }
  });

  it('names the section of each segment and whether it makes claims', () => {
    expect(note.segments.filter((s) => !s.claims).map((s) => [s.section, s.text])).toEqual([
      ['Gaps & caveats', 'We did not query the document store.'],
      ['Sub-gap', 'Nor the archive.'],
      ['Provenance', 'Queries g1 to g6.'],
    ]);
  });

  it('takes the exempt sections from options, compared loosely', () => {
    const custom = parseNote('## Caveats and gaps\n\n- x\n\n## Notes\n\n- y\n', {
      exemptSections: ['NOTES'],
    });
    expect(custom.sections.map((s) => s.claims)).toEqual([true, false]);
    const loose = parseNote('## Gaps and Caveats\n\n- x\n');
    expect(loose.sections[0]!.claims).toBe(false);
  });

  it('keeps text before the first heading as an untitled section and ignores code blocks', () => {
    const n = parseNote('Preamble claim. [cite:g1]\n\n```\n[cite:g9] not a claim\n```\n');
    expect(n.sections).toHaveLength(1);
    expect(n.sections[0]!.title).toBe('');
    expect(n.citations.map((c) => c.id)).toEqual(['g1']);
  });

  it('parses an empty note to no sections', () => {
    expect(parseNote('').segments).toEqual([]);
  });
});

describe('parseNote: a sentence that follows a trailing citation', () => {
  it('is a sentence of its own, though the segmenter runs it into the one before', () => {
    const note = parseNote(
      '- Wren is co-located at Compound-Alpha. [cite:g5] Wren visited the site twice in March.\n',
    );
    expect(
      note.segments[0]!.sentences.map((s) => [s.text, s.citations.map((c) => c.id), s.position.column]),
    ).toEqual([
      ['Wren is co-located at Compound-Alpha.', ['g5'], 3],
      ['Wren visited the site twice in March.', [], 51],
    ]);
  });
});

describe('parseNote: link reference definitions (CommonMark 4.7) and reference links (6.3)', () => {
  const SOURCE = `# Findings

- Halberd met Wren at [the depot][DEPOT]. [cite:g1]
- Per the [Ledger], Wren paid [cite:g2]; see ![the map][] too.
[depot]: https://example.com/depot "The depot"

[ledger]:
  https://example.com/ledger
  'The ledger'
[the map]: maps/1.png
[unused]: /u
Trailing [depot][] text.

[cite:g9]: /g9
[DEPOT]: /first-wins

A marker with a definition is a link: [cite:g9]. One without is a citation: [cite:g3]
`;

  it('reads definitions without the full parser, as no segment, and resolves references to them', () => {
    expect(parseBlocks(SOURCE)).toBeDefined();
    const note = parseNote(SOURCE);
    expect(note).toStrictEqual(parseNoteV1(SOURCE));
    expect(note.segments.map((s) => [s.kind, s.text])).toEqual([
      ['bullet', 'Halberd met Wren at the depot.'],
      // The definition on the bullet's next line continues its paragraph (a definition cannot interrupt one)
      // (and its `[depot]` is a shortcut reference to the definition further down).
      ['bullet', 'Per the Ledger, Wren paid; see too. depot: https://example.com/depot "The depot"'],
      ['paragraph', 'Trailing depot text.'],
      // A definition that comes after the links that use it, in another paragraph, defines them all the same.
      ['paragraph', 'A marker with a definition is a link: cite:g9. One without is a citation:'],
    ]);
    expect(note.citations.map((c) => c.id)).toEqual(['g1', 'g2', 'g3']);
  });

  it('places what follows the definitions of a paragraph at its own line and column', () => {
    const note = parseNote(SOURCE);
    const trailing = note.segments[2]!;
    expect(trailing.position).toMatchObject({ line: 12, column: 1 });
    expect(note.citations[2]!.position).toMatchObject({ line: 17, column: 77 });
  });

  it('makes a heading of what follows definitions over a setext underline, and none of definitions alone', () => {
    const note = parseNote('[a]: /a\nTitle [a]\n===\n\n- claim\n\n[b]: /b\n===\n');
    expect(note.sections.map((s) => [s.title, s.depth])).toEqual([['Title a', 1]]);
    expect(note.segments.map((s) => s.text)).toEqual(['claim', '===']);
  });
});
