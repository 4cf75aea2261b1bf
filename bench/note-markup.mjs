// The inline markup agents write in notes, one generator per kind, shared by bench/note.bench.mjs (which times each
// kind) and bench/score.bench.mjs (whose notes hold the mix). `rand` is the bench's seeded generator.

/** The entities the generated notes name. */
export const NAMES = [
  'Halberd',
  'Wren',
  'Ash Cell',
  'Compound-Alpha',
  'Marrow Logistics',
  'the courier',
  'Entity 7',
];

const PIECES = {
  plain: [() => ''],
  links: [
    (rand) =>
      ` (see [the ${pickWith(rand, NAMES)} file](https://example.com/files/${Math.floor(rand() * 100)}))`,
    () => ` per [the registry](http://registry.example.org/a_b "Registry")`,
  ],
  code: [
    (rand) => ` via \`graph.neighbors(${pickWith(rand, ['Halberd', 'Wren'])})\``,
    () => ' (query `q17`)',
  ],
  emphasis: [
    (rand) => ` — **${pickWith(rand, ['high', 'moderate', 'low'])} confidence**`,
    (rand) => ` and *probably* ${pickWith(rand, NAMES)}`,
    () => ' (_unconfirmed_)',
  ],
  html: [() => ' <sup>1</sup>', () => ' <b>confirmed</b>', () => '<br>'],
  images: [(rand) => ` ![map of ${pickWith(rand, NAMES)}](maps/${Math.floor(rand() * 9)}.png)`],
};
PIECES.mix = Object.values(PIECES).flat();
// Reference links and images (section 6.3: full, collapsed, shortcut), to the labels `DEFINITIONS` defines (one case
// folded, one never used) and to none; not in the mix, whose notes define nothing.
PIECES.references = [
  (rand) => ` (see [the ${pickWith(rand, NAMES)} file][registry])`,
  () => ` per [the Registry][]`,
  () => ` per [Ledger]`,
  () => ` ![map][maps]`,
  () => ` [not a reference]`,
];

/** The link reference definitions (section 4.7) a `references` note ends with: one unused, one a duplicate. */
export const DEFINITIONS = [
  '[registry]: https://registry.example.org/entries "The registry"',
  "[The registry]: <https://registry.example.org/> 'Registry'",
  '[ledger]:',
  '  https://example.com/ledger',
  '  (The ledger)',
  '[maps]: maps/index.png',
  '[unused]: https://example.com/unused',
  '[REGISTRY]: https://example.com/duplicate',
];

/** The kinds of inline markup with a generator (`mix` draws from all of them but `references`). */
export const INLINE_KINDS = Object.keys(PIECES);

/** One piece of markup of `kind` (empty for a kind without inline markup), to end a claim with. */
export function markup(kind, rand) {
  return pickWith(rand, PIECES[kind] ?? PIECES.plain)(rand);
}

/** A claim that opens with a bold label, as agents often write them, in `kind` (always in `emphasis`). */
export function lead(kind, rand) {
  return kind === 'emphasis' || (kind === 'mix' && rand() < 0.3) ? '**Finding:** ' : '';
}

/** A markdown table of `rows` cited rows. */
export function table(rows, rand) {
  const out = ['| Entity | Relation | Source |', '|---|---|---|'];
  for (let i = 0; i < rows; i++) out.push(`| ${pickWith(rand, NAMES)} | MEMBER_OF | [cite:g${1 + i}] |`);
  return out;
}

function pickWith(rand, list) {
  return list[Math.floor(rand() * list.length)];
}

/**
 * The block structures agents write notes in, each applied to a note's lines (headings, paragraphs and `- ` bullets):
 * Windows line endings, block quotes, ordered lists, tabs after markers and as indents, trailing double spaces (hard
 * breaks) with a continuation line, fenced code between the claims, several markers on one line, setext headings.
 */
export const BLOCK_KINDS = [
  'CRLF',
  'block quotes',
  'ordered lists',
  'tabs',
  'hard breaks',
  'code fences',
  'nested markers',
  'setext headings',
];

/** `lines` of a note written in the block structure `kind`, joined into its source. */
export function blockify(kind, lines) {
  let n = 0;
  const out = [];
  for (const line of lines) {
    const bullet = line.startsWith('- ');
    if (kind === 'block quotes' && (bullet || line === '')) out.push(line === '' ? '>' : `> ${line}`);
    else if (kind === 'ordered lists' && bullet) out.push(`${++n}. ${line.slice(2)}`);
    else if (kind === 'tabs' && bullet) out.push(`-\t${line.slice(2)}`);
    else if (kind === 'hard breaks' && bullet) out.push(`${line}  `, '  as the ledger shows');
    else if (kind === 'nested markers' && bullet) out.push(`- - - ${line.slice(2)}`);
    else if (kind === 'setext headings' && line.startsWith('#')) {
      const title = line.replace(/^#+ /, '');
      out.push(title, line.startsWith('## ') ? '---' : '===');
    } else out.push(line);
    if (kind === 'code fences' && bullet && ++n % 5 === 0)
      out.push('', '  ```json', '  {"query": "neighbors", "of": "Halberd"}', '  - not a claim', '  ```', '');
  }
  return out.join(kind === 'CRLF' ? '\r\n' : '\n');
}
