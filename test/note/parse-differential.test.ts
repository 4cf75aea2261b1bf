import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBlocks } from '../../src/note/block-parser.js';
import { parseNote } from '../../src/note/parse.js';
import { parseNote as parseNoteV1 } from '../reference/parse-note-v1.js';

const WORKUPS = new URL('../../fixtures/workups/', import.meta.url);

/** Every note the fixtures hold: each workup folder's note.md and the `note` of each single-file workup. */
function fixtureNotes(): Array<[string, string]> {
  const notes: Array<[string, string]> = [];
  for (const entry of readdirSync(WORKUPS, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      const file = new URL(`${entry.name}/note.md`, WORKUPS);
      try {
        notes.push([`${entry.name}/note.md`, readFileSync(file, 'utf8')]);
      } catch {
        // a workup without a note
      }
    } else if (entry.name.endsWith('.workup.json')) {
      const note = JSON.parse(readFileSync(new URL(entry.name, WORKUPS), 'utf8')).note;
      if (typeof note === 'string') notes.push([entry.name, note]);
    }
  }
  return notes;
}

// Inline pieces: plain words (ASCII and not), sentence ends (abbreviations, decimals, quotes and brackets after
// them), citations in every form and place, brackets that stay text, and every construct the scanner hands to the
// full parser (emphasis, code, escapes, entities, HTML, links).
const word = fc.constantFrom(
  'Halberd',
  'Wren',
  'Ash Cell',
  'Compound-Alpha',
  'café',
  'naïve Ωmega',
  '日本語',
  'emoji 🎉',
  'EMPLOYED_BY',
  'a__b',
  '2020',
  '42%',
  'e.g.',
  'Dr.',
  'U.S.',
  '~5 km',
  '#tag',
  'C#',
  '|',
  '=',
  '+',
  '-',
  '!',
  'x > y',
  '(aside)',
  '"quoted."',
  'Gaps & caveats',
  'AT&T',
  // What the ASCII sentence rules (src/note/ascii-sentences.ts) must read as Intl.Segmenter does.
  'U.S. Army',
  'etc. and',
  '3.14',
  'Why?!',
  'so...',
  'end." Then',
  'end.) then',
  'e.g. the',
  'A.B. Smith',
  'done.; next',
);
const cite = fc.constantFrom(
  '[cite:g1]',
  '[cite:g2,g3]',
  '[cite: g4, g5]',
  '[cite:g1][cite:g2]',
  '[cite:g1][cite:g1]',
  '[cite:]',
  '[cite:bad id]',
  '[g1]',
  '[x][y]',
  '![alt]',
  ']',
  '[',
);
const markup = fc.constantFrom(
  '*em*',
  '**bold**',
  '_em_',
  '__strong__',
  '`code`',
  '``a ` b``',
  '\\*',
  '\\[cite:g1\\]',
  '&amp;',
  '&#35;',
  '&copy;',
  '&nosuch;',
  '<b>x</b>',
  '<http://example.com>',
  '[link](http://example.com)',
  '[cite:g1](x)',
  '![img](a.png)',
  '\t',
  '  ',
  '\u00a0',
  '\\',
  'x_',
  '_x',
);
const space = fc.constantFrom(' ', ' ', ' ', '', '. ', '! ', '? ', ', ', '; ', '.', ': ');
const inline = (unsafe: boolean): fc.Arbitrary<string> =>
  fc
    .array(fc.tuple(unsafe ? fc.oneof(word, word, cite, markup) : fc.oneof(word, word, cite), space), {
      minLength: 1,
      maxLength: 8,
    })
    .map((parts) => {
      const text = parts.map(([a, b]) => a + b).join('');
      // Trailing white space is a hard break or nothing in markdown: the scanner leaves it to the full parser.
      return unsafe ? text : text.trimEnd();
    });

// A clean note is written only in what the scanner reads (so most of them take the fast path, and the test checks
// it); any other note mixes in every construct the full parser knows, line endings and indents included.
const anyIndent = fc.constantFrom('', '', '', '  ', '  ', '    ', '      ', ' ', '   ');
const cleanIndent = fc.constantFrom('', '', '', '', '', '', '  ', '  ', '    ');
const line = (clean: boolean): fc.Arbitrary<string> => {
  const text = inline(!clean);
  const kinds: Array<fc.WeightedArbitrary<string>> = [
    { weight: 3, arbitrary: fc.constant('') },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.integer({ min: 1, max: clean ? 6 : 7 }),
          clean ? fc.constant(' ') : fc.constantFrom(' ', '  ', ''),
          text,
        )
        .map(([d, gap, words]) => `${'#'.repeat(d)}${gap}${words}`),
    },
    {
      weight: 5,
      arbitrary: fc
        .tuple(
          clean ? cleanIndent : anyIndent,
          clean
            ? fc.constantFrom('- ', '* ', '+ ')
            : fc.constantFrom('- ', '* ', '+ ', '-  ', '1. ', '2) ', '-'),
          text,
        )
        .map(([i, m, words]) => i + m + words),
    },
    { weight: 4, arbitrary: fc.tuple(clean ? cleanIndent : anyIndent, text).map(([i, words]) => i + words) },
  ];
  if (!clean) {
    kinds.push({
      weight: 1,
      arbitrary: fc.constantFrom(
        '```',
        '~~~',
        '    code',
        '> quoted [cite:g1]',
        '---',
        '***',
        '===',
        '<div>',
        '[g1]: http://example.com',
        '-',
        ' ',
        '#',
        '# Title #',
      ),
    });
  }
  kinds.push({ weight: 1, arbitrary: fc.constantFrom('## Gaps & caveats', '# Provenance', '### Sub-gap') });
  return fc.oneof(...kinds);
};
const note = fc
  .tuple(fc.constantFrom(true, true, false), fc.constantFrom('\n', '\n', '\n', '\r\n'), fc.boolean())
  .chain(([clean, eol, finalEol]) =>
    fc
      .array(line(clean), { minLength: 1, maxLength: 12 })
      .map((lines) => lines.join(clean ? '\n' : eol) + (finalEol ? '\n' : '')),
  );

describe('parseNote agrees with the parser it replaces (test/reference/parse-note-v1.ts, commit e2889b5)', () => {
  it.each(fixtureNotes())('on the fixture note %s, read by the scanner', (_, source) => {
    expect(parseBlocks(source)).toBeDefined();
    expect(parseNote(source, { file: 'note.md' })).toStrictEqual(parseNoteV1(source, { file: 'note.md' }));
  });

  it('on 10,000 generated notes, at least 1,500 of them read by the scanner', () => {
    let scanned = 0;
    fc.assert(
      fc.property(note, (source) => {
        if (parseBlocks(source) !== undefined) scanned++;
        expect(parseNote(source)).toStrictEqual(parseNoteV1(source));
      }),
      { numRuns: 10_000, seed: 12 },
    );
    expect(scanned).toBeGreaterThanOrEqual(1_500);
  }, 300_000);
});
