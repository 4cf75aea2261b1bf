import fc from 'fast-check';

/**
 * Notes written in each kind of inline markup agents use (and the block structures the issue names), for the
 * differential test of the scanner and its inline reader: plain cited prose with, on most lines, pieces of one kind,
 * near misses of that kind included (an unclosed code span, a run of `*` that closes nothing, a bracket that is no
 * link). `mix` draws from every kind. `references` adds lines of link reference definitions (section 4.7), before
 * and after the reference links that use them, in list items, quotes and paragraphs, and near misses of both.
 */
export const KINDS = [
  'links',
  'code',
  'emphasis',
  'html',
  'images',
  'tables',
  'nested lists',
  'mix',
  'references',
] as const;
export type Kind = (typeof KINDS)[number];

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
  'e.g.',
  'U.S. Army',
  '(aside)',
  '"quoted."',
  'AT&T',
  'x > y',
  '!',
  'is likely',
  'very unlikely',
);
const cite = fc.constantFrom(
  '[cite:g1]',
  '[cite:g2,g3]',
  '[cite: g4, g5]',
  '[cite:g1][cite:g2]',
  '[g1]',
  '[x][y]',
);

const PIECES: Record<Exclude<Kind, 'mix' | 'tables' | 'nested lists'>, readonly string[]> = {
  references: [
    // Full, collapsed and shortcut references, links and images, labels case-folded, spaced, escaped.
    '[Halberd]',
    '[halberd]',
    '[HALBERD]',
    '[the  cell]',
    '[The\nCell]',
    '[x][Halberd]',
    '[*em* x][wren]',
    '[Halberd][]',
    '[Wren] []',
    '![Halberd]',
    '![alt *b*][wren]',
    '![Halberd][]',
    '[Halberd](u)',
    '[a\\]b]',
    '[a\\]b][]',
    '[ẞ]',
    '[ss]',
    '[cite:g1]',
    '[cite:g2,g3]',
    // Near misses: undefined labels, a link in a link's text, a shortcut before `[`.
    '[nope]',
    '[x][nope]',
    '[Halberd][nope]',
    '[Halberd][',
    '[[Halberd]]',
    '[x [Halberd]]',
    '[[Halberd]][wren]',
    '![[Halberd]]',
    '[Halberd]:',
    '[`code`][wren]',
    ']',
    '[',
  ],
  links: [
    '[Halberd](https://example.com/h)',
    '[the cell](http://x.org/a_b "Title")',
    "[a](b 'single')",
    '[a](b (paren))',
    '[*emphasis* in a link](u)',
    '[code `x` here](u)',
    '[[cite:g1]](u)',
    '[cite:g1](x)',
    '[a [b](c) d](e)',
    '[outer [inner]](x)',
    '[x](<a b>)',
    '[x](a(b)c)',
    '[x]()',
    '[x](#frag)',
    '[]( x )',
    '[a]',
    '[a] (b)',
    ']',
    '[',
    '[link](url)*',
    '\\[not](a link)',
    '[a\\]b](c)',
  ],
  code: [
    '`code`',
    '`graph.neighbors(Halberd)`',
    '``a ` b``',
    '` a `',
    '` `',
    '`  `',
    '`*not em*`',
    '`[cite:g1]`',
    '`<b>`',
    '`a\\`',
    '`unclosed',
    '```three```',
    '``',
    '`a``b`',
    '\\`escaped`',
    // At a line's end, a hard break.
    'break\\',
    '`_x_`',
  ],
  emphasis: [
    '*em*',
    '**bold**',
    '***both***',
    '_em_',
    '__strong__',
    '**Finding:**',
    '*a **b** c*',
    '**a *b* c**',
    '*a*b',
    'a*b*',
    'a_b_',
    '_a_b',
    '*',
    '**',
    '***',
    '* a *',
    '*"quoted"*',
    '"*a*"',
    '**a*',
    '*a**',
    '***a*',
    'a**b**c',
    '_a **b_ c**',
    '*a _b* c_',
    '\\*not\\*',
    '*(x)*',
    'x*)',
    '(*x',
    '*🎉*',
    '**日本語**',
    '_café_',
    '*likely*',
    'very *likely*',
  ],
  html: [
    '<b>bold</b>',
    '<br>',
    '<br/>',
    '<br />',
    '<span class="x">a</span>',
    '<a href=\'u\' title="t">x</a>',
    '<sup>1</sup>',
    '<i data-x=1>',
    '</i>',
    '<http://example.com/a?b=c>',
    '<mailto:a@b.c>',
    '<a@example.com>',
    '<3',
    'a < b',
    '< x',
    '<>',
    '<-',
    '<kbd>Ctrl</kbd>',
    '<x-y z>',
  ],
  images: [
    '![alt](a.png)',
    '![](empty.png)',
    '![a *b* c](x)',
    '![a `c` d](x)',
    '![![inner](a)](b)',
    '![[cite:g1]](x)',
    '![x](y "t")',
    '![a <b>c</b>](x)',
    '![a **b**](x)',
    '![alt]',
    '!',
    '![',
    '!![x](y)',
    '[![x](y)](z)',
    '![x [y](z)](w)',
  ],
};

const TABLE_ROWS = [
  '| Entity | Relation | Source |',
  '|---|---|---|',
  '| --- | :---: | ---: |',
  '| Halberd | MEMBER_OF | [cite:g1] |',
  '| Wren | CO_LOCATED | [cite:g2,g3] |',
  '| a | b |',
  '|a|b|',
  '| `x` | *y* |',
];

const space = fc.constantFrom(' ', ' ', ' ', '. ', ', ', '; ', ': ', '');

/**
 * Link reference definitions (section 4.7) and their near misses: duplicates, unused ones, titles of every kind and
 * over lines, a destination on the next line, labels over lines and escaped, a title followed by more text (no
 * definition, or one without its title), a definition then a setext underline, one in a block quote.
 */
const DEFINITIONS = [
  '[Halberd]: https://example.com/h',
  '[halberd]: /duplicate "Duplicate"',
  "[WREN]: <https://x.org/w> 'Wren'",
  '[the cell]: /c (t)',
  '[unused]: /u',
  '[a\\]b]: /escaped',
  '[cite:g1]: /g1',
  '[ß]: /sharp-s',
  '[The\nCell]: /two-lines',
  '[Halberd]: /h "a title\nover lines"',
  '[wren]:\n/next-line',
  '[wren]: /w\n"title on its own line"',
  '[Halberd]: /h "t" more text',
  '[Halberd]: /h\n"t" more text',
  '[Halberd]: /h\nA heading after a definition\n===',
  '[Halberd]: /h\n===',
  '[Halberd]: /h\n---',
  '[wren]: /w [Halberd]: /h',
  '[Halberd]: <a b> x',
  '[]: /empty',
  '[ ]: /blank',
  '[Halberd] : /space',
  '> [wren]: /q\n> quoted [wren]',
  '[wren]: /w\n[Halberd]: /h\ntext after [wren] them',
];

function inline(kind: Kind): fc.Arbitrary<string> {
  const markup =
    kind === 'mix'
      ? fc.constantFrom(...Object.values(PIECES).flat())
      : kind === 'tables' || kind === 'nested lists'
        ? fc.constantFrom(...PIECES.emphasis.slice(0, 6), ...PIECES.links.slice(0, 4), '`code`')
        : fc.constantFrom(...PIECES[kind]);
  return fc
    .tuple(word, fc.array(fc.tuple(space, fc.oneof(word, word, cite, markup, markup)), { maxLength: 8 }))
    .map(([first, parts]) => first + parts.map(([a, b]) => a + b).join(''));
}

type Line = {
  type: 'blank' | 'heading' | 'bullet' | 'text' | 'row' | 'section' | 'definition';
  depth: number;
  text: string;
};

function line(kind: Kind): fc.Arbitrary<Line> {
  const text = inline(kind);
  const depth = fc.integer({ min: 0, max: kind === 'nested lists' ? 6 : 2 });
  const of = (type: Line['type']) =>
    fc.tuple(depth, text).map(([d, t]): Line => ({ type, depth: d, text: t }));
  const lines: Array<fc.WeightedArbitrary<Line>> = [
    { weight: 3, arbitrary: fc.constant({ type: 'blank', depth: 0, text: '' }) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 1, max: 4 }), text)
        .map(([d, t]): Line => ({ type: 'heading', depth: d, text: t })),
    },
    { weight: kind === 'nested lists' ? 12 : 5, arbitrary: of('bullet') },
    { weight: 4, arbitrary: of('text') },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('## Gaps & caveats', '# Provenance', '### Findings')
        .map((t): Line => ({ type: 'section', depth: 0, text: t })),
    },
  ];
  if (kind === 'tables' || kind === 'mix')
    lines.push({
      weight: 6,
      arbitrary: fc.constantFrom(...TABLE_ROWS).map((t): Line => ({ type: 'row', depth: 0, text: t })),
    });
  if (kind === 'references')
    lines.push({
      weight: 4,
      arbitrary: fc
        .tuple(depth, fc.constantFrom(...DEFINITIONS))
        .map(([d, t]): Line => ({ type: 'definition', depth: d, text: t })),
    });
  return fc.oneof(...lines);
}

/**
 * Notes of one kind, 1 to 14 lines, nested as agents nest them: a bullet or a line of text indented to the text of
 * an open item (two spaces a level), a list reset by a heading.
 */
export function notesOf(kind: Kind): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.array(line(kind), { minLength: 1, maxLength: 14 }),
      fc.boolean(),
      fc.constantFrom('- ', '* ', '+ '),
    )
    .map(([lines, finalEol, marker]) => {
      let open = 0;
      let previous: Line['type'] = 'blank';
      const out = lines.map((l) => {
        let written: string;
        if (l.type === 'blank') written = '';
        else if (l.type === 'heading') {
          open = 0;
          written = `${'#'.repeat(l.depth)} ${l.text}`;
        } else if (l.type === 'section') {
          open = 0;
          written = l.text;
        } else {
          const d = Math.min(l.depth, open);
          if (l.type === 'bullet') {
            written = '  '.repeat(d) + marker + l.text;
            open = d + 1;
          } else {
            // A definition over lines has each line indented to the item's text (or it would continue it lazily).
            written = '  '.repeat(d) + l.text.replace(/\n/g, `\n${'  '.repeat(d)}`);
            if (previous === 'blank' || previous === 'heading' || previous === 'section') open = d;
          }
        }
        previous = l.type;
        return written;
      });
      return out.join('\n') + (finalEol ? '\n' : '');
    });
}
