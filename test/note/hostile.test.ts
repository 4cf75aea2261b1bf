import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lintEstimativeLanguage } from '../../src/metrics/tradecraft/index.js';
import type { Note } from '../../src/model/note.js';
import { parseNote } from '../../src/note/parse.js';
import { lintEstimativeLanguage as lintV1 } from '../reference/lint-v1.js';
import { parseNote as parseNoteV1 } from '../reference/parse-note-v1.js';

// Inputs that took the parser or the lint superlinear time or crashed it (issue 25), each kept minimized as a recipe
// in fixtures/hostile/ and named after what it breaks: `before`, then `repeat` written `times` times, then `after`
// (up to 1 MB). bench/note.bench.mjs times each against the 1 s bound; here the results are pinned.
const DIR = new URL('./fixtures/hostile/', import.meta.url);
interface Recipe {
  before: string;
  repeat: string;
  times: number;
  after: string;
}
const recipe = (name: string): Recipe => JSON.parse(readFileSync(new URL(`${name}.json`, DIR), 'utf8'));
const build = ({ before, repeat, times, after }: Recipe, n = times): string =>
  before + repeat.repeat(n) + after;

const FULL: Record<string, (note: Note, source: string) => void> = {
  'citation-markers-fill-one-paragraph': (note) => {
    expect(note.citations).toHaveLength(110_000);
    expect(note.segments).toHaveLength(1);
    expect(note.segments[0]!.text).toBe('Halberd met Wren');
    expect(new Set(note.citations.map((c) => c.id))).toEqual(new Set(['g1']));
  },
  'emphasis-runs-that-pair-across-a-megabyte': (note) => {
    expect(note.segments[0]!.text).toBe('a'.repeat(500_000));
  },
  'emphasis-openers-that-never-close': (note, source) => {
    expect(note.segments[0]!.text).toBe(source.trim());
  },
  'link-brackets-that-never-close': (note, source) => {
    // All of it text, every bracket kept (sentences break after each `!`, and are tidied, so only spaces move).
    expect(note.segments[0]!.text.replace(/ /g, '')).toBe(source.replace(/ /g, ''));
  },
  'lint-phrases-hidden-by-emphasis-in-one-paragraph': (note, source) => {
    // Every phrase is found in the source past the emphasis that hides it from a verbatim search.
    const { likelihood } = lintEstimativeLanguage(note);
    expect(likelihood).toHaveLength(42_000);
    expect(likelihood[41_999]!.column).toBe(source.lastIndexOf('very *likely*') + 1);
    const small = build(recipe('lint-phrases-hidden-by-emphasis-in-one-paragraph'), 300);
    expect(lintEstimativeLanguage(parseNote(small))).toStrictEqual(lintV1(parseNote(small)));
  },
  'list-markers-nested-on-every-line': (note) => {
    // 100 KB of `- - - x`: micromark's document tokenizer took seconds (quadratic); each line is a bullet of its own.
    expect(note.segments).toHaveLength(5_900);
    expect(note.segments[5_899]!.text).toBe('x');
    expect(note.segments[5_899]!.position).toEqual({ line: 5_902, column: 7, offset: 12 + 5_899 * 18 + 6 });
    expect(note.citations).toHaveLength(5_900);
  },
  'link-definitions-after-every-claim': (note) => {
    // Definitions after the claims that use them, read by the block parser (no segment), each reference resolved.
    expect(note.segments).toHaveLength(6_944);
    expect(new Set(note.segments.map((s) => s.text))).toEqual(new Set(['Halberd met Wren at the depot.']));
    expect(note.citations).toHaveLength(6_944);
    expect(note.segments[6_943]!.position).toMatchObject({ line: 2 + 6_943 * 7 + 1, column: 3 });
  },
  // One control character, a NUL or a leading byte-order mark sent the whole note to the full parser (4-5 s of CPU):
  // now the block parser reads it.
  'control-character-in-a-megabyte-of-bullets': (note) => {
    expect(note.segments).toHaveLength(19_001);
    expect(note.segments[0]!.text).toBe('a\u0005 b');
    expect(note.citations).toHaveLength(19_001);
  },
  'nul-in-a-megabyte-of-bullets': (note) => {
    // Read as micromark reads it: U+FFFD.
    expect(note.segments[0]!.text).toBe('a\uFFFD b');
    expect(note.segments).toHaveLength(19_001);
  },
  // A NUL by an emphasis delimiter, which micromark reads with a quirk of its own (see `leftOf` in inline.ts).
  'nul-by-an-emphasis-delimiter-in-a-megabyte-of-bullets': (note) => {
    expect(note.segments[0]!.text).toBe('a **\uFFFD b');
    expect(note.segments).toHaveLength(19_001);
  },
  'byte-order-mark-before-a-megabyte-of-bullets': (note) => {
    expect(note.sections.map((s) => s.title)).toEqual(['Workup', 'Findings']);
    expect(note.segments).toHaveLength(19_000);
    expect(note.segments[18_999]!.position.line).toBe(19_004);
  },
  // A `<` before a word that starts no tag (a fuzzed letter) sent the whole note to the full parser: 4 s a MB.
  'less-than-before-a-word-in-a-megabyte-of-bullets': (note) => {
    expect(note.segments[0]!.text).toBe('Ash Cell is co-l<cated at Compound-Alpha.');
    expect(note.segments).toHaveLength(19_001);
  },
  // An HTML comment in a line, and a paragraph of comments, instructions and declarations that never close: both
  // were the full parser's (3.2 s; more than 10 minutes, micromark reading each to the paragraph's end).
  'html-comment-in-a-megabyte-of-bullets': (note) => {
    expect(note.segments[0]!.text).toBe('Ash Cell met Wren at the depot.');
    expect(note.segments).toHaveLength(19_001);
  },
  'comments-that-never-close-in-one-paragraph': (note, source) => {
    expect(note.segments).toHaveLength(1);
    expect(note.citations).toHaveLength(1);
    // All of it text (sentences break after each `!` and `?`, and are tidied, so only spaces move).
    expect(note.segments[0]!.text.replace(/ /g, '')).toBe(
      source.slice('# Workup\n\n'.length, -'[cite:g1]\n'.length).replace(/ /g, ''),
    );
  },
  // The same beside a tag over lines, which sent the whole note to micromark: more than 10 minutes (90 KB: 22 s).
  'comments-that-never-close-beside-a-tag-over-lines': (note) => {
    expect(note.segments).toHaveLength(2);
    expect(note.segments[1]!.text).toBe('Ash Cell met Wren at the depot.');
    expect(note.citations).toHaveLength(2);
  },
  // A line that is one tag with unquoted values (an HTML block, as micromark reads its values), and a paragraph that
  // begins with one that is no tag: each sent the whole note to the full parser (4.8 s and 3.6 s).
  'html-lines-with-unquoted-values-before-a-megabyte-of-bullets': (note) => {
    expect(note.segments).toHaveLength(19_001);
    expect(note.segments[0]!.text).toBe(
      '<img src=maps/depot.png> The depot map shows Ash Cell at the depot.',
    );
    expect(note.segments[0]!.position).toEqual({ line: 5, column: 1, offset: 51 });
  },
  // A tag on a lazy line, which micromark opens inside the block quote or item: the full parser's until 2026-11-27.
  'html-tag-on-a-lazy-line-before-a-megabyte-of-bullets': (note) => {
    expect(note.segments).toHaveLength(19_002);
    expect(note.segments.slice(0, 3).map((s) => s.text)).toEqual([
      'Ash Cell met Wren at the depot.',
      'Wren left the depot.',
      'Ash Cell is co-located at Compound-Alpha.',
    ]);
  },
  // Text that is not ASCII goes to Intl.Segmenter, whose time grows with what it is given times the sentences it
  // finds: a note's bullets given as one text took 17.8 s at 686 KB, and a fuzzed 272 KB paragraph 1.9 s.
  'accented-word-in-every-bullet-of-a-megabyte': (note) => {
    expect(note.segments).toHaveLength(11_900);
    expect(note.segments[0]!.sentences.map((s) => s.text)).toEqual([
      'Ash Cell is co-located at Compound-Alpha near Łódź.',
      'Wren met them there.',
    ]);
    expect(note.segments.every((s) => s.sentences.length === 2)).toBe(true);
  },
  'accented-paragraph-over-a-megabyte-of-lines': (note) => {
    expect(note.segments).toHaveLength(1);
    expect(note.segments[0]!.sentences).toHaveLength(1 + 6_600 * 2);
    expect(note.segments[0]!.sentences[1]!.text).toBe(
      'Halberd and Wren are linked through the Compound-Alpha facility.',
    );
    expect(note.citations).toHaveLength(6_600 * 2);
  },
  // White space that never reaches a line's end: the tokenizer finds the next construct with a regular expression,
  // whose look-behind keeps it from scanning the run again from each of its characters.
  'white-space-run-over-a-megabyte-of-one-line': (note) => {
    expect(note.segments.map((s) => s.text)).toEqual(['Ash Cell met Wren at the depot.']);
    expect(note.citations).toHaveLength(1);
  },
  'astral-characters-in-one-sentence': (note, source) => {
    expect(note.segments[0]!.text).toBe(source);
    const report = lintEstimativeLanguage(note);
    expect([report.likelihood, report.hedges, report.confidence, report.confusions]).toEqual([
      [],
      [],
      [],
      [],
    ]);
  },
};

describe('hostile notes (test/note/fixtures/hostile)', () => {
  const names = readdirSync(DIR).map((file) => file.replace(/\.json$/, ''));

  it('are all pinned here', () => {
    expect(names.sort()).toEqual([...Object.keys(FULL), 'list-nested-4000-levels-on-one-line'].sort());
  });

  it.each(Object.keys(FULL))(
    '%s: parses as the e2889b5 parser does at a small size, and as pinned at 1 MB',
    (name) => {
      const r = recipe(name);
      const small = build(r, 300);
      expect(parseNote(small)).toStrictEqual(parseNoteV1(small));
      const source = build(r);
      FULL[name]!(parseNote(source), source);
    },
  );

  it('list-nested-4000-levels-on-one-line: refused with one line naming the place and the bound', () => {
    const source = build(recipe('list-nested-4000-levels-on-one-line'));
    expect(() => parseNote(source, { file: 'runs/w1/note.md' })).toThrowError(
      'runs/w1/note.md:1:1: lists or block quotes nested more than 32 levels deep; a note may nest at most 32',
    );
    // The place is the line that goes too deep; 32 levels still parse.
    const ok = `${'- '.repeat(32)}x`;
    expect(parseNote(`# Title\n\n${ok}`).segments.map((s) => s.text)).toEqual(['x']);
    expect(() => parseNote(`# Title\n\n${'> '.repeat(33)}x`)).toThrowError(
      'note:3:1: lists or block quotes nested more than 32 levels deep',
    );
  });
});
