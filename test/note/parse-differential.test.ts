import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBlocks } from '../../src/note/block-parser.js';
import { parseNote } from '../../src/note/parse.js';
import { mdastBlocks } from '../reference/mdast-blocks.js';
import { parseNote as parseNoteV1 } from '../reference/parse-note-v1.js';

/** `source` is read by the block parser to the blocks the full parser reads, and to the note the e2889b5 parser reads. */
function expectReadAlike(source: string): void {
  const name = JSON.stringify(source);
  expect(parseBlocks(source), name).toStrictEqual(mdastBlocks(source));
  expect(parseNote(source), name).toStrictEqual(parseNoteV1(source));
}

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
// them), citations in every form and place, brackets that stay text, and inline markup (emphasis, code, escapes,
// entities, HTML, links).
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
  // Control characters (NUL, a terminal's escape sequence, vertical tab, form feed): read by the block parser since
  // 2026-11-27, where one of them used to send the whole note to the full parser.
  // Code spans over lines, and a tab or a no-break space between a code span's spaces.
  '`a\nb`',
  '` \t `',
  '` \u00a0 `',
  // A `<` that starts no tag (`<cated at`), a tag over lines, addresses that begin with a
  // symbol, and an unquoted value that micromark ends at a `/`.
  '<cated at',
  '<b\nc=d>',
  '</b\n>',
  '[l](http://x\n.com)',
  '[l](x\n"t")',
  '[l][x\ny',
  'n<k',
  // Comments, CDATA sections, declarations and instructions in a line, read by the block parser since 2026-11-27,
  // and ones that never end (text, read as micromark reads an unticked backtick run).
  '<!-- c -->',
  '<!---->',
  '<!-->',
  '<?pi x?>',
  '<!DOCTYPE x>',
  '<![CDATA[x]]>',
  '<!--',
  '<?',
  '<![CDATA[',
  '<_a@b.c>',
  '</a@b.c>',
  '<a!b@c.d>',
  '<a c=d/e>',
  '\u0000',
  '\u0001',
  '\u000b',
  '\u000c',
  '\u001b[2J',
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
      // Trailing white space is a hard break or nothing in markdown: only a note with markup has it.
      return unsafe ? text : text.trimEnd();
    });

// A clean note is written in plain cited prose and lists (its text one run, read without the inline reader); any other
// note mixes in every construct CommonMark knows, line endings and indents included.
// A tab may be taken in part by a container's prefix (micromark then places the line's start past it).
const anyIndent = fc.constantFrom('', '', '', '  ', '  ', '    ', '      ', ' ', '   ', '\t', ' \t');
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
        '<span>',
        // A line's leading tag, read as micromark's HTML block reads its unquoted values.
        '<a b=c=d>',
        '<b c=d/e> f',
        '<i c=d =x>',
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
// A note may begin with a byte-order mark, as an editor on Windows writes one.
const note = fc
  .tuple(
    fc.constantFrom(true, true, false),
    fc.constantFrom('\n', '\n', '\n', '\r\n'),
    fc.boolean(),
    fc.constantFrom('', '', '', '\uFEFF'),
  )
  .chain(([clean, eol, finalEol, bom]) =>
    fc
      .array(line(clean), { minLength: 1, maxLength: 12 })
      .map((lines) => bom + lines.join(clean ? '\n' : eol) + (finalEol ? '\n' : '')),
  );

describe('parseNote agrees with the parser it replaces (test/reference/parse-note-v1.ts, commit e2889b5)', () => {
  it.each(fixtureNotes())('on the fixture note %s', (_, source) => {
    expect(parseNote(source, { file: 'note.md' })).toStrictEqual(parseNoteV1(source, { file: 'note.md' }));
  });

  it('on 10,000 generated notes', () => {
    fc.assert(
      fc.property(note, (source) => {
        expect(parseNote(source)).toStrictEqual(parseNoteV1(source));
      }),
      { numRuns: 10_000, seed: 12 },
    );
  }, 300_000);

  it('on control characters in links, code, emphasis, HTML, definitions and every container', () => {
    for (const c of CONTROLS)
      for (const construct of CONTROL_CONSTRUCTS)
        for (const wrap of [(s: string) => s, (s: string) => `- ${s}`, (s: string) => `> ${s}`])
          expectReadAlike(wrap(construct(c)));
  });
});

describe('a `<` that starts no tag or autolink', () => {
  it('is text, read by the block parser as micromark reads it', () => {
    for (const source of [
      '- Ash Cell is co-l<cated at Compound-Alpha. [cite:g4]',
      'if n<k then the bound holds [cite:g1]',
      'a <b c=d/e> f',
      'mail <_a@b.c> or </a@b.c> [cite:g1]',
      'x <a!b@c.d> y',
      '> quoted <x-y z=///> text',
    ]) {
      expectReadAlike(source);
    }
  });

  it('begins a comment, CDATA section, declaration or instruction in a line, read by the block parser', () => {
    for (const source of [
      '- Ash Cell met Wren <!-- checked twice --> at the depot. [cite:g4]',
      'a <!--> b <!---> c <!-- x --- y --> d',
      'a <?php echo 1 ?> b <!DOCTYPE html> c <![CDATA[ x ]]]> d',
      // Never ended: text, and a text node that ends a line then ends as after an unticked run.
      '1. -<![CDATA[\n   <b>',
      '- a <!-- b\n  c <i>',
      'x <? y\n> z <b>',
      // Over lines, in every container.
      'a <!-- b\nc --> d',
      '> a <!-- b\n> c --> d\n> e',
      '- a <?x\n  y ?> z [cite:g1]',
      '1. a <!D\n   x> b',
    ]) {
      expectReadAlike(source);
    }
    // Over lines in an image's label, the alt text holds its value as micromark keeps it: the next line's indent after
    // its containers' prefixes, less 3 white space codes (a tab is one code and a virtual space for each further
    // column it fills; one that a prefix took in part leaves its virtual spaces, written as spaces).
    for (const [source, alt] of [
      ['![a <!-- b\n\tc --> d](u)', 'a <!-- b\n c --> d'],
      ['![a <!-- b\n\t\tc --> d](u)', 'a <!-- b\n \tc --> d'],
      ['![a <b\n    c=d> e](u)', 'a <b\n c=d> e'],
      ['- ![a <b\n \tc=d> e](u)', 'a <b\nc=d> e'],
      ['> ![a <?b\n>\t\tc?> e](u)', 'a <?b\n   c?> e'],
      ['![a <!-- b c --> d](u)', 'a <!-- b c --> d'],
    ]) {
      expectReadAlike(source!);
      expect(parseBlocks(source!)[0], source).toMatchObject({ paragraphs: [[{ text: alt }]] });
    }
  });

  it('begins a tag that goes on over lines, read by the block parser as micromark reads it', () => {
    for (const source of [
      'a <b\nc=d> e',
      'a <b c="d\ne"> f',
      'a </b\n c>',
      '- a <span\n  class="x"\n  id=y\n  /> b [cite:g1]',
      "> a <i\n> title='t'>b</i\n> > c",
      // No tag: text. micromark read it up to where it stopped, and a text node that ends a line it read twice ends
      // where the next line starts after the containers' prefixes.
      '1. a <b\n   c=d e=> <i>',
      '- x</bx\n  y:z</bx <i>',
      '- x</bx\n  <i>y\n  z\n  <i>',
    ]) {
      expectReadAlike(source);
    }
    // Read twice up to the `<` where the closing tag stopped: the first text ends where the next line's content starts
    // (10, not 8); the second ends at its line ending (19), which micromark read once.
    expect(parseBlocks('- x</bx\n  <i>y\n  z\n  <i>')[0]).toMatchObject({
      paragraphs: [
        [
          { text: 'x</bx\n', start: 2, end: 10 },
          { text: 'y\nz\n', start: 13, end: 19 },
        ],
      ],
    });
  });

  it('reads a line that starts inside a tab a container took in part, as micromark places it', () => {
    // The item takes 2 of the tab's 4 columns: a code span keeps the other 2 as spaces, and a text node read twice ends
    // past the tab (9), where micromark's offset stands.
    expect(parseBlocks('- `a\n\tb`')).toStrictEqual([
      { kind: 'bullet', paragraphs: [[{ text: 'a\n  b', start: 2, end: 8 }]] },
    ]);
    expect(parseBlocks('- x</bx\n\t<i>y\n\tz\n\t<i>')[0]).toMatchObject({
      paragraphs: [
        [
          { text: 'x</bx\n', start: 2, end: 9 },
          { text: 'y\nz\n', start: 12, end: 17 },
        ],
      ],
    });
    // A virtual space is content, where a space may be padding: `\n` + 1 virtual + 4 spaces loses its line ending and
    // one space.
    expect(parseBlocks('1. ``\n\t    `` d')[0]).toMatchObject({
      paragraphs: [[{ text: '    ' }, { text: ' d' }]],
    });
    for (const source of [
      '- `a\n\tb`',
      '1. ``a\n\t  b ``',
      '- x</bx\n\t<i>y\n\tz\n\t<i>',
      '> a `b\n>\t\tc` d',
      '1. ``\n\t    `` d',
    ])
      expectReadAlike(source);
  });

  it("reads a line's leading tag as micromark's HTML block does: an unquoted value ends at `/`, and `=` may follow it", () => {
    // Blocks to micromark (no segment), and no tag to the spec: `=` after a value starts another value.
    for (const source of ['<a c=d =x>', '- <a c=d =x>', '<a b=c=d>\n', '<a b=c/>', '</a \t>  ']) {
      expectReadAlike(source);
      expect(parseBlocks(source), source).toStrictEqual([]);
    }
    // No block to micromark, and a tag to the spec (the value `d/e` ends at its `/`): a paragraph, its text the tag.
    for (const source of ['> <b c=d/e> f', '<b c=d/e>', '<a b="c"d>', '<a b=c`d>', '<a:b>', '<a/b>']) {
      expectReadAlike(source);
      expect(parseBlocks(source), source).toHaveLength(1);
    }
    // Not on a paragraph's line: no HTML block of kind 7 interrupts one.
    expect(parseBlocks('p\n<a b=c=d>')).toStrictEqual([
      { kind: 'paragraph', paragraphs: [[{ text: 'p\n<a b=c=d>', start: 0, end: 11 }]] },
    ]);
    // Any other `<` that begins a paragraph is read here (a fuzzed `<` before a bullet's first word sent the note to
    // the full parser).
    for (const source of ['- <sh Cell is co-located. [cite:g4]', '<b\nc=d> e', '<b c="d"> e', '</b\n> e']) {
      expectReadAlike(source);
    }
  });
});

/** Control characters, and where each may stand in a note. */
const CONTROLS = ['\u0000', '\u0001', '\u0005', '\u0008', '\u000b', '\u000c', '\u000e', '\u001b', '\u001f'];
const CONTROL_CONSTRUCTS: Array<(c: string) => string> = [
  (c) => `[a](x${c}y) [cite:g1]`,
  (c) => `[a](<x${c}y>)`,
  (c) => `[a](x "t${c}")`,
  (c) => `[a]( ${c}x)`,
  (c) => `<http://x${c}y>`,
  (c) => `<a${c}b@c.d>`,
  (c) => `<b ${c}a="1">x`,
  (c) => `<b a=${c}>x`,
  (c) => `\`a${c}b\``,
  (c) => `\` ${c} \``,
  (c) => `*a${c}*`,
  (c) => `*${c}a*`,
  (c) => `a*${c}`,
  (c) => `**${c}**`,
  (c) => `a_${c}_b`,
  (c) => `&am${c}p;`,
  (c) => `\\${c}`,
  (c) => `[r${c}]: http://x\n\n[r${c}]`,
  (c) => `[r]: http://x${c}\n\n[r]`,
  (c) => `![a${c}](b)`,
  (c) => `# a${c}`,
  (c) => `${c}# a`,
  (c) => `-${c}a`,
  (c) => `>${c}a`,
  (c) => `    ${c}code`,
  (c) => `\`\`\`${c}\nx\n\`\`\``,
  (c) => `a  ${c}\nb`,
  (c) => `a${c}  \nb`,
  (c) => `a\\${c}\nb`,
  (c) => `a\n===${c}`,
  (c) => `${c}<div>`,
  (c) => `a [cite:g1${c}]`,
  (c) => `a [cite:g1]${c}`,
  (c) => `Dr.${c} Smith. Next.`,
];

// The block structure of CommonMark 0.31, sections 4-5, against the full parser (mdastBlocks, micromark 4) itself:
// container prefixes (block quotes, bullets, ordered markers, several on one line, tabs and partial tabs), every leaf
// start and its near misses, and every line ending, in any order.
const PREFIXES = [
  ...['', '', '', ' ', '  ', '   ', '    ', '\t', ' \t', '  \t', '>', '> ', '>\t', '>  '],
  ...['- ', '-\t', '* ', '+ ', '-', '-    ', '-     ', '  - ', '    - '],
  ...['1. ', '1) ', '2) ', '10. ', '1.', '1.  ', '0. ', '- - ', '> - ', '- > '],
];
const BODIES = [
  ...['claim [cite:g1]', 'a', 'b c', '', '', 'x\\', '\\', 'p  q', '1) x', '- x', '> q', '*em*', '`c`'],
  ...['```', '~~~', '``` js', '````', '~~~~', '```a`b', '---', '***', '___', '===', '- - -', '* * *', '--'],
  ...['# h', '## h ##', '###### h', '####### h', '#', '#x', '# h #x', '#\th'],
  ...['<div>', '</div>', '<div/>', '<!-- c -->', '<!--', '-->', '<pre>', '</pre>', '<script>', '<span>'],
  ...['<a href="x">', '</b>', '<?x', '?>', '<!X', '>', '<![CDATA[', ']]>', '<b>t</b>', '[l](u)', '<3'],
  ...['a  ', 'a   ', 'a \t', 'a\t', 'a ', 'claim [cite:g1]  '],
  ...[
    'AT&amp;T',
    '&#35;1',
    '&#x1F600;',
    '&copy; 2024',
    '&nosuch;',
    '&#0;',
    '&#xD800;',
    '*&amp;*',
    '&#9999999;',
  ],
  // 4.7 link reference definitions, their parts on lines of their own, and references to them.
  ...['[a]: /u', '[a]: /u "t"', '[B]:', '/v', '"t"', "'t", '(t)', '[a]', '[b][]', '[x][A]', '[a]: /u x'],
  '<http://x>',
];
const blockNote = fc
  .tuple(
    fc.constantFrom('\n', '\n', '\n', '\r\n', '\r'),
    fc.array(
      fc.tuple(
        fc.array(fc.constantFrom(...PREFIXES), { maxLength: 3 }),
        fc.constantFrom(...BODIES),
        fc.constantFrom(undefined, undefined, undefined, undefined, '\n', '\r\n', '\r'),
      ),
      { minLength: 1, maxLength: 10 },
    ),
    fc.boolean(),
  )
  .map(([eol, lines, last]) => {
    const text = lines.map(([prefixes, body, own]) => prefixes.join('') + body + (own ?? eol)).join('');
    return last ? text : text.slice(0, -1);
  });

/** The inputs issue 25 measured on the full parser, a few lines of each (the bench times them at 1 MB). */
const MEASURED: Record<string, string> = {
  'nested bullets on one line': '- - - x\n'.repeat(40),
  'CRLF bullets': '- claim one [cite:g1]\r\n'.repeat(40),
  'block quote lines': '> quoted claim [cite:g1]\n'.repeat(40),
  'an ordered list': '1. claim [cite:g1]\n'.repeat(40),
  'a tab after the marker': '-\tclaim [cite:g1]\n'.repeat(40),
  'trailing double spaces': '- claim [cite:g1]  \n'.repeat(40),
  'items nested 20 spaces deep': Array.from(
    { length: 40 },
    (_, i) => `${' '.repeat(2 * (i % 11))}- claim [cite:g1]\n`,
  ).join(''),
  'lone CR line endings': '# Title\r\r- claim [cite:g1]\rmore\r'.repeat(10),
  'a code fence in a list': '- claim [cite:g1]\n\n  ```js\n  - not a claim\n  ```\n- next [cite:g2]\n'.repeat(
    10,
  ),
  'setext headings': 'Findings\n===\n\nclaim [cite:g1]\nSub\n---\n'.repeat(10),
};

// Examples of sections 4-5 of the spec, written here (the spec's own file is not in the repository), each with what
// it tests.
const SPEC_EXAMPLES: Array<[string, string]> = [
  ['4.1 thematic breaks of each character, spaced, indented', '***\n---\n___\n - - -\n   **  * ** * **\n'],
  ['4.1 a thematic break interrupts a paragraph', 'Foo\n***\nbar\n'],
  ['4.1 a thematic break wins over a list item', '* Foo\n* * *\n* Bar\n'],
  [
    '4.2 ATX headings, closing sequences, escapes',
    '# foo\n## foo ##\n### foo ###   \n#### foo ### b\n# foo#\n#5 bolt\n\\## foo\n',
  ],
  ['4.2 empty ATX headings', '## \n#\n### ###\n'],
  ['4.3 setext headings over several lines', 'Foo *bar\nbaz*\n====\n\n  Foo\n      ---\n'],
  ['4.3 a setext underline is no lazy continuation', '> Foo\n---\n'],
  ['4.3 a paragraph, then a thematic break', 'Foo\nbar\n---\nbaz\n'],
  ['4.4 indented code, with blank lines and tabs', '    a simple\n      indented code block\n\n\tchunk2\n'],
  ['4.4 indented code cannot interrupt a paragraph', 'Foo\n    bar\n'],
  ['4.4 a list item, then indented code in it', '  - foo\n\n    bar\n'],
  ['4.5 fences of backticks and tildes, longer closers', '```\n<\n >\n```\n~~~~\naaa\n~~~\n~~~~\n'],
  ['4.5 an unclosed fence runs to the end', '```\n\naaa\n'],
  ['4.5 a fence closed by its container', '> ```\n> aaa\n\nbbb\n'],
  ['4.5 info strings with backticks are no fence', '``` aa ```\nfoo\n'],
  ['4.5 a fence interrupts a paragraph', 'foo\n```\nbar\n```\nbaz\n'],
  [
    '4.6 HTML block kinds 1-5 and their ends',
    '<pre>\nx\n</pre>\nokay\n\n<!-- a\nb -->\nok\n\n<?php\n?>\nok\n\n<!DOC\n>\nok\n\n<![CDATA[\n]]>\nok\n',
  ],
  ['4.6 HTML block kind 6 ends at a blank line', '<div>\n*hello*\n\nclaim\n</div>\n'],
  ['4.6 HTML block kind 7 cannot interrupt a paragraph', 'Foo\n<a href="bar">\nbaz\n\n<a href="bar">\nbaz\n'],
  [
    '4.8 paragraphs with leading and trailing white space',
    '  aaa\n bbb\n\naaa\n             bbb\n                                       ccc\n',
  ],
  ['4.8 hard breaks in a paragraph, by spaces and by backslash', 'aaa     \nbbb     \nccc\\\nddd\n'],
  ['4.9 blank lines of spaces and tabs', '  \n\naaa\n  \t\n# aaa\n\n  \n'],
  ['5.1 block quotes with and without the space, lazy lines', '> # Foo\n> bar\nbaz\n>baz\n   > qux\n'],
  ['5.1 a blank line ends a block quote', '> foo\n\n> bar\n'],
  ['5.1 nested block quotes and laziness', '>>> foo\n> bar\n>>baz\n'],
  ['5.1 a tab after the quote marker', '>\t\tfoo\n'],
  [
    '5.2 list items with several paragraphs',
    '1.  A paragraph\n    with two lines.\n\n        indented code\n\n    > A block quote.\n',
  ],
  ['5.2 content indented too little for the item', '- one\n\n two\n'],
  ['5.2 an item that begins blank', '-\n  foo\n-\n  ```\n  bar\n  ```\n-\n      baz\n'],
  ['5.2 an item begins with at most one blank line', '-\n\n  foo\n'],
  [
    '5.2 empty items, and an empty item cannot interrupt a paragraph',
    '- foo\n-\n- bar\n\nfoo\n*\n\nfoo\n1.\n',
  ],
  [
    '5.2 ordered start numbers, and only 1 interrupts a paragraph',
    '123456789. ok\n\n1234567890. not ok\n\n0. ok\n\nThe number of\n14. windows\n\nThe number of\n1. window\n',
  ],
  ['5.2 several markers on one line', '- - foo\n1. - 2. foo\n- # Foo\n- Bar\n  ---\n  baz\n'],
  ['5.2 tabs in list items and partial tabs', '-\tfoo\n\n\tbar\n - foo\n   - bar\n\t - baz\n'],
  ['5.2 an item with indented code after five spaces', '-    one\n\n     two\n-     code\n'],
  [
    '5.3 lists of different markers, and a change of delimiter',
    '- foo\n- bar\n+ baz\n1. foo\n2. bar\n3) baz\n',
  ],
  ['5.3 loose and tight lists read the same', '- a\n- b\n\n- c\n\n- a\n  - b\n\n    c\n- d\n'],
];

// Link reference definitions (section 4.7) and the reference links of section 6.3 that use them, each with what it
// tests: every one read without the full parser.
const DEFINITION_EXAMPLES: Array<[string, string]> = [
  ['4.7 a definition, then a shortcut reference to it', '[foo]: /url "title"\n\n[foo] [cite:g1]\n'],
  [
    '4.7 white space and line endings around the parts',
    "   [foo]: \n      /url  \n           'the title'  \n\n[foo]\n",
  ],
  ['4.7 a label and a title over lines', "[Foo\nbar]: /url 'title\nline1\nline2\n'\n\n[foo bar]\n"],
  ['4.7 an angle-bracketed destination, empty', '[foo]: <>\n\n[foo]\n'],
  ['4.7 a title not separated from an angle destination', '[foo]: <bar>(baz)\n\n[foo]\n'],
  [
    '4.7 escapes in the label, destination and title',
    '[foo\\]bar]: /u\\(rl "ti\\"tle"\n\n[foo\\]bar] [foo]bar]\n',
  ],
  ['4.7 a definition after the links that use it', '[foo]\n\n[foo]: url\n'],
  [
    '4.7 the first of duplicate definitions wins; unused ones',
    '[foo]\n\n[foo]: first\n[FOO]: second\n[bar]: unused\n',
  ],
  ['4.7 labels matched after case folding', '[ẞ]: /u\n\n[ss] [SS] [ß] [Ǆ]\n[ǆ]: /v\n'],
  ['4.7 a definition with no destination is text', '[foo]:\n\n[foo]\n'],
  ['4.7 a title followed by more text: no definition', '[foo]: /url "title" ok\n'],
  ['4.7 a title on the next line followed by text: a definition without it', '[foo]: /url\n"title" ok\n'],
  ['4.7 indented code is no definition', '    [foo]: /url "title"\n\n[foo]\n'],
  ['4.7 a definition cannot interrupt a paragraph', 'Foo\n[bar]: /baz\n\n[bar]\n'],
  [
    '4.7 a definition then a setext underline',
    '[foo]: /url\nBar\n===\n[foo]\n\n[a]: /a\n===\n[a]: /b\n---\n',
  ],
  [
    '4.7 several definitions, then a paragraph',
    '[foo]: /foo-url "foo"\n[bar]: /bar-url\n  "bar"\n[baz]: /baz-url\nthen [foo], [bar], [baz]\n',
  ],
  [
    '4.7 definitions in a block quote and a list',
    '[foo]\n\n> [foo]: /url\n- [bar]: /b\n  [bar] in the item\n- [x]: /x\n',
  ],
  ['4.7 a definition with a lazy line', '> [foo]:\n/url\n\n[foo]\n'],
  [
    '4.7 a label of only white space, and a 999-character label',
    `[ ]: /u\n[${'a'.repeat(999)}]: /v\n[${'b'.repeat(1000)}]: /w\n\n[${'a'.repeat(999)}]\n`,
  ],
  [
    '6.3 full references, case folded, with emphasis',
    '[Bar]: /u\n\n[foo *bar*][BAR] [*x*][bar] ![alt *b*][bar]\n',
  ],
  [
    '6.3 collapsed and shortcut references, and images of both',
    '[foo]: /u\n\n[foo][] [Foo] ![foo][] ![foo] [foo] []\n',
  ],
  [
    '6.3 a link holds no link: the inner reference wins',
    '[foo]: /u\n\n[x [foo] y][foo] [[foo]][foo] [[foo]]\n',
  ],
  ['6.3 an inline resource before a reference', '[foo]: /u\n\n[foo](/v) [foo]() [foo][]\n'],
  [
    '6.3 a `(` that opens no resource: a shortcut after a defined label, else text',
    '[foo]: /u\n\n[foo](not a resource) ![foo](a "b" c) [bar](b c) [foo](<1) [foo](b(c d) [foo](b "c\n',
  ],
  ['6.3 an undefined full label, and a shortcut before `[`', '[foo]: /u\n\n[foo][bar] [foo][ [bar][foo]\n'],
  [
    '6.3 a citation marker with and without its definition',
    '[cite:g1]: /g1\n\nclaim [cite:g1] and [cite:g2]\n# [cite:g1]\n',
  ],
];

describe('parseBlocks reads the block structure as the full parser does (mdastBlocks)', () => {
  it.each(DEFINITION_EXAMPLES)('on %s', (_, source) => {
    expect(parseBlocks(source)).toStrictEqual(mdastBlocks(source));
  });

  it.each(Object.entries(MEASURED))('on %s', (_, source) => {
    expect(parseBlocks(source)).toStrictEqual(mdastBlocks(source));
  });

  it.each(SPEC_EXAMPLES)('on spec %s', (_, source) => {
    expect(parseBlocks(source)).toStrictEqual(mdastBlocks(source));
  });

  it('on 20,000 generated notes of every block construct', () => {
    fc.assert(
      fc.property(blockNote, (source) => {
        expect(parseBlocks(source)).toStrictEqual(mdastBlocks(source));
      }),
      { numRuns: 20_000, seed: 25 },
    );
  }, 300_000);

  it('reads a NUL beside an emphasis delimiter as micromark does, its quirk included', () => {
    // micromark keeps a NUL as a chunk of its own: where emphasis opens with the end of a run just before one, the text
    // left of the run is sliced to that chunk, the whole run's end (`**\0*` is `**` and emphasis, where the CommonMark
    // reference reads `*`, as micromark reads `**\uFFFD*`).
    expect(mdastBlocks('**\u0000*')).not.toStrictEqual(mdastBlocks('**\uFFFD*'));
    expect(parseBlocks('**\u0000*')).toStrictEqual([
      {
        kind: 'paragraph',
        paragraphs: [
          [
            { text: '**', start: 0, end: 1 },
            { text: '\uFFFD', start: 2, end: 3 },
          ],
        ],
      },
    ]);
    for (const source of [
      '__\u0000_',
      ';***\u0000****',
      '***\u0000*a*b*',
      '# **\u0000*',
      '![**\u0000*](u)',
      '- a **\u0000*x*',
    ])
      expect(parseBlocks(source), JSON.stringify(source)).toStrictEqual(mdastBlocks(source));
    const piece = fc.constantFrom(
      '*',
      '**',
      '***',
      '_',
      '__',
      '\u0000',
      '\u0000',
      'a',
      ' ',
      '.',
      '`',
      '[',
      '](x)',
      '\n',
      '\uFFFD',
    );
    const wrap = fc.constantFrom(
      (s: string) => s,
      (s: string) => `- ${s}`,
      (s: string) => `> ${s}`,
      (s: string) => `# ${s}`,
      (s: string) => `![${s}](u)`,
      (s: string) => `[${s}]\n\n[${s}]: /u`,
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 14 }), wrap, (pieces, around) => {
        const source = around(pieces.join(''));
        expect(parseBlocks(source)).toStrictEqual(mdastBlocks(source));
      }),
      { numRuns: 5_000, seed: 27 },
    );
  });

  it('reads a code span over lines as micromark keeps it, and takes off only spaces and line endings as padding', () => {
    for (const source of [
      'a `b\n   c` d',
      '- a ``b\n  c\r\n  d`` e [cite:g1]',
      '> a `b\n>    c` d\n> e',
      '1. a `\n   b\n   ` c',
      '> a `b\nc` d',
      'a ` \t ` b ` \u00a0 ` c `  ` d',
    ]) {
      expectReadAlike(source);
    }
    // A tab or a no-break space is content: only the spaces around it are padding (a trim() took them all).
    expect(parseBlocks('a ` \t ` b')[0]).toMatchObject({
      paragraphs: [[{ text: 'a ' }, { text: '\t' }, { text: ' b' }]],
    });
    // The next line's indent is the code's, though the paragraph's text leaves it out.
    expect(parseBlocks('a `b\n   c` d')[0]).toMatchObject({
      paragraphs: [[{ text: 'a ' }, { text: 'b\n   c' }, { text: ' d' }]],
    });
  });

  it('reads indented code on a line that ends containers and opens none as micromark does: it ends at the line', () => {
    // micromark's code-indented.js ends code at the end of a "lazy" line (one that ends containers and opens none):
    // the next line finds no code, so an empty item there does not interrupt, and an indented line opens new code.
    // An item that began blank, and a blank line after it, end at the next line that is not blank.
    for (const source of [
      '*\n\n    a\n*',
      '*\n\n\n    a\n*',
      '> *\n>\n>     a\n> *',
      '>     c1\n    c2\n-\nx',
      '>     c1\n    c2\n    c3\n-\nx',
      '>     c1\n    c2\n\n-',
      '*\n\n    a\n    b\n*',
      '> > a\n>\n>     c\n> -',
      '>  - \n  \n  \tc\n-',
      'a\n\n    a\n*',
    ]) {
      expectReadAlike(source);
    }
    // An empty item after one-line code; a paragraph `-` after code that goes on (c3 is new code, not lazy).
    expect(parseBlocks('*\n\n    a\n*')).toStrictEqual([]);
    expect(parseBlocks('>     c1\n    c2\n    c3\n-\nx')).toStrictEqual([
      { kind: 'paragraph', paragraphs: [[{ text: '-\nx', start: 23, end: 26 }]] },
    ]);
    // What one note left of this reading is not carried into the next (the parser is shared).
    parseBlocks('*\n\n');
    expect(parseBlocks('    c\n> *')).toStrictEqual([
      { kind: 'paragraph', paragraphs: [[{ text: '*', start: 8, end: 9 }]] },
    ]);
  });

  it('reads link resources and full reference labels over lines, and where micromark gives up on them', () => {
    for (const source of [
      '[a](\nhttp://x\n"t\nu"\n) b',
      '- [a](http://x\n  "t") b [cite:g1]',
      '> [a](x\n> .com) b <i>',
      '[a](x\ty) b',
      '[a](x(y\tz)) b',
      `[a](${'('.repeat(33)}x${')'.repeat(33)}) b`,
      '[a](<x\ny>) b',
      '- [a][x  \n  y[ z',
      '- [a][x\n  <i>y[ z',
      '[a][b\nc] d\n\n[b c]: /u',
      // A `(` in a `(…)` title: title to micromark (not to the spec).
      '[a](x (b(c))) d',
    ]) {
      expectReadAlike(source);
    }
    // micromark reads the label after `[a]` to the `[` on the next line even where no definition could match, and the
    // hard break before it, read twice, ends where that line's content starts (12, not 10).
    expect(parseBlocks('- [a][x  \n  y[ z')[0]).toMatchObject({
      paragraphs: [
        [
          { text: '[a][x', start: 2, end: 7 },
          { text: ' ', start: 7, end: 12 },
          { text: 'y[ z', start: 12, end: 16 },
        ],
      ],
    });
  });

  it('reads an HTML block on a lazy line as micromark does: a whole-line tag inside the deepest container', () => {
    // A line that is one tag (kind 7) ends the paragraph and opens inside the block quote or item, so a line that
    // goes on the item goes on the block; kinds 1-6 interrupt the paragraph and close the containers, as in the spec.
    for (const source of [
      '> a\n<span>\nb',
      '- a\n<span>\n  b',
      '> > a\n<span>\n> b',
      '> > a\n> <div>\n> b',
      '> a\n<!-- x\nb -->\nc',
      '- a\r\n<i b=c>\r\n  - d',
      '- a\n<div>\n  b',
    ]) {
      expectReadAlike(source);
    }
    expect(parseBlocks('- a\n<span>\n  b')).toStrictEqual([
      { kind: 'bullet', paragraphs: [[{ text: 'a', start: 2, end: 3 }]] },
    ]);
    expect(parseBlocks('- a\n<div>\n  b')).toStrictEqual([
      { kind: 'bullet', paragraphs: [[{ text: 'a', start: 2, end: 3 }]] },
    ]);
    expect(parseBlocks('> > a\n<span>\n> b')).toStrictEqual([
      { kind: 'paragraph', paragraphs: [[{ text: 'a', start: 4, end: 5 }]] },
      { kind: 'paragraph', paragraphs: [[{ text: 'b', start: 15, end: 16 }]] },
    ]);
  });

  it("counts a label as micromark does: a tab as the columns it fills, and each next line's indent", () => {
    const a = (n: number) => 'a'.repeat(n);
    for (const source of [
      // 996 + a tab at column 997 (3 columns) + 1: 1,000, no definition; after `> `, the tab is at column 999 (1
      // column): 998, a definition.
      `[${a(996)}\tb]: /u\n`,
      `> [${a(996)}\tb]: /u\n`,
      `[${a(997)}\tb]: /u\n`,
      `[${a(994)}\tb]: /u\n`,
      // 998 letters over two lines: the next line's 3 spaces of indent make 1,001 (no definition), none make 998.
      `[${a(500)}\n   ${a(498)}]: /u\n`,
      `[${a(500)}\n${a(498)}]: /u\n`,
      `- [${a(500)}\n  \t${a(495)}]: /u\n`,
      // The same in a full reference.
      `[x][${a(500)}\n   ${a(498)}]\n\n[${a(500)} ${a(498)}]: /u\n`,
      `[x][${a(497)}\n ${a(498)}]\n\n[${a(497)} ${a(498)}]: /u\n`,
      `[a\tb]: /u\n\n[a b]`,
    ])
      expectReadAlike(source);
    expect(parseBlocks(`[${a(996)}\tb]: /u\n`)).toHaveLength(1);
    expect(parseBlocks(`> [${a(996)}\tb]: /u\n`)).toStrictEqual([]);
    expect(parseBlocks(`[${a(500)}\n   ${a(498)}]: /u\n`)).toHaveLength(1);
    expect(parseBlocks(`[${a(500)}\n${a(498)}]: /u\n`)).toStrictEqual([]);
  });

  it('reads control characters, a byte-order mark and character references as micromark does', () => {
    expect(parseBlocks('a\u0000b')).toStrictEqual(mdastBlocks('a\u0000b'));
    // A leading byte-order mark is dropped, and offsets counted from the text after it, as micromark does.
    expect(parseBlocks('\uFEFF# T\n\n- a [cite:g1]')).toStrictEqual(
      mdastBlocks('\uFEFF# T\n\n- a [cite:g1]'),
    );
    expect(parseBlocks('\uFEFF# T\n\n- a [cite:g1]')).toStrictEqual(parseBlocks('# T\n\n- a [cite:g1]'));
    expect(parseBlocks('a\u0000b')).toStrictEqual([
      { kind: 'paragraph', paragraphs: [[{ text: 'a\uFFFDb', start: 0, end: 3 }]] },
    ]);
    // Character references are read here, decoded as micromark decodes them.
    for (const source of ['AT&amp;T &copy; &#35; &#x1F600; &#0; &nosuch; &#xD800;', '# R&amp;D\n\n*&amp;*'])
      expect(parseBlocks(source)).toStrictEqual(mdastBlocks(source));
    expect(parseBlocks('AT&amp;T')).toStrictEqual([
      { kind: 'paragraph', paragraphs: [[{ text: 'AT&T', start: 0, end: 8 }]] },
    ]);
    // With no `]:` in the note, a bracket opens no definition: read here.
    expect(parseBlocks('[a] b')).toStrictEqual(mdastBlocks('[a] b'));
  });
});
