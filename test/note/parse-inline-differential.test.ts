import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseNote } from '../../src/note/parse.js';
import { parseNote as parseNoteV1 } from '../reference/parse-note-v1.js';
import { KINDS, notesOf } from './inline-kinds.js';

// 1,250 notes of each of the 8 kinds: 10,000 in all, each parsed as the parser at e2889b5 parses it.
describe('parseNote agrees with the e2889b5 parser on notes with inline markup', () => {
  it.each(KINDS)(
    'on 1,250 generated notes with %s',
    (kind) => {
      fc.assert(
        fc.property(notesOf(kind), (source) => {
          expect(parseNote(source)).toStrictEqual(parseNoteV1(source));
        }),
        { numRuns: 1_250, seed: 24 },
      );
    },
    120_000,
  );
});

// Random strings over the characters inline markup is made of, in one paragraph: every way delimiters, brackets,
// backticks, escapes and angle brackets can meet.
describe('parseNote agrees with the e2889b5 parser on random inline markup', () => {
  it('on 10,000 paragraphs of up to 48 markup characters', () => {
    const character = fc.constantFrom(
      ...['*', '*', '_', '_', '`', '[', ']', '(', ')', '!', '<', '>', '\\', 'a', 'b', ' ', ' ', '\n'],
      ...['"', "'", '.', 'p', '=', '🎉', 'é', '-', ':', '/', '@', '#', '&'],
    );
    fc.assert(
      fc.property(fc.array(character, { minLength: 1, maxLength: 48 }), (characters) => {
        const source = `w ${characters.join('')} z`;
        expect(parseNote(source)).toStrictEqual(parseNoteV1(source));
      }),
      { numRuns: 10_000, seed: 24 },
    );
  }, 120_000);
});

// The same characters in a paragraph after link reference definitions of labels they may spell (section 4.7), so
// that brackets make full, collapsed and shortcut references (section 6.3) and every near miss of them.
describe('parseNote agrees with the e2889b5 parser on random inline markup against link definitions', () => {
  it('on 10,000 paragraphs of up to 32 markup characters', () => {
    const character = fc.constantFrom(
      ...['*', '_', '`', '[', '[', ']', ']', '(', ')', '!', '\\', 'a', 'A', 'b', ' ', ' ', '\n', ':', '/'],
    );
    const definitions = '[a]: /a\n[B b]: /b "t"\n[a\\]]: /c\n[]]: /no\n\n';
    fc.assert(
      fc.property(fc.array(character, { minLength: 1, maxLength: 32 }), (characters) => {
        const source = `${definitions}w ${characters.join('')} z`;
        expect(parseNote(source)).toStrictEqual(parseNoteV1(source));
      }),
      { numRuns: 10_000, seed: 47 },
    );
  }, 120_000);
});

// Plain text whose lines end in spaces and tabs (hard breaks and dropped white space, read without the inline
// tokenizer), with every line ending, at the top level, in a bullet and in a block quote.
describe('parseNote agrees with the e2889b5 parser on white space at the ends of lines', () => {
  it('on 10,000 paragraphs of up to 40 pieces', () => {
    const piece = fc.constantFrom(
      ...['a', 'b', 'cd', '.', '. ', '[cite:g1]', '[x]', '!', ' ', ' ', '  ', '\t', ' \t', '\t ', '   '],
      ...['\n', '\n', '  \n', '   \n', ' \n', '\t\n', '  \r\n', '\r\n', '  \r', '\n  ', '\n\t'],
    );
    fc.assert(
      fc.property(
        fc.constantFrom('', '- ', '> ', '1. '),
        fc.array(piece, { minLength: 1, maxLength: 40 }),
        (container, pieces) => {
          const source = `${container}w ${pieces.join('').replace(/\n(?!$)/g, container === '> ' ? '\n> ' : '\n   ')} z`;
          expect(parseNote(source)).toStrictEqual(parseNoteV1(source));
        },
      ),
      { numRuns: 10_000, seed: 24 },
    );
  }, 120_000);
});
