import type { Note, SourcePosition } from '../../model/note.js';
import { LineIndex } from '../../parse/position.js';
import { literalPrefixes, PrefixTrie } from './prefixes.js';
import {
  BAND_PATTERNS,
  CONFIDENCE_PATTERNS,
  CONFUSIONS,
  type ConfidenceLevel,
  type ConfusionRule,
  HEDGES,
  LIKELIHOOD_BANDS,
  type LikelihoodBand,
} from './terms.js';

/** One phrase found in the note. */
export interface PhraseHit {
  /** The phrase as written. */
  text: string;
  section: string;
  /** The sentence it stands in. */
  sentence: string;
  /** Where it stands in the note (1-based line and column). */
  position: SourcePosition;
  line: number;
  column: number;
}

export interface LikelihoodHit extends PhraseHit {
  band: LikelihoodBand;
}

export interface HedgeHit extends PhraseHit {
  /** What to write instead. */
  suggestion: string;
}

export interface ConfidenceHit extends PhraseHit {
  level: ConfidenceLevel;
}

export interface ConfusionHit extends PhraseHit {
  rule: ConfusionRule;
  message: string;
}

export interface TradecraftReport {
  /** ICD 203 likelihood terms used, each with its band and probability range. */
  likelihood: LikelihoodHit[];
  /** Non-standard hedges, each with what to write instead. */
  hedges: HedgeHit[];
  /** Statements of analytic confidence. */
  confidence: ConfidenceHit[];
  /** Phrases that confuse likelihood with confidence. */
  confusions: ConfusionHit[];
  /** Whether the note expresses likelihood in ICD 203 terms at least once. */
  likelihoodStated: boolean;
  /** Whether the note states its analytic confidence at least once (ICD 203 asks for both axes). */
  confidenceStated: boolean;
}

type Found =
  | { kind: 'likelihood'; band: LikelihoodBand }
  | { kind: 'hedge'; suggestion: string }
  | { kind: 'confidence'; level: ConfidenceLevel }
  | { kind: 'confusion'; rule: ConfusionRule; message: string };

/** A rule: its phrase as a sticky regex (tried where a phrase may start), and what a match of it is. */
interface Rule {
  /** The term's pattern, from which the prefixes it is tried at are read. */
  pattern: string;
  regex: RegExp;
  /**
   * `regex` without its lookbehind, tried after an ASCII character, which `scan` has already found to be no letter,
   * digit or underscore: a lookbehind over Unicode classes was a fifth of the lint's time.
   */
  afterAscii: RegExp;
  /** What the rule found: the same object for every match, except where it depends on the words matched. */
  found: Found | undefined;
  /** For a rule whose finding depends on the words matched (`found` undefined). */
  make?: (match: RegExpExecArray) => Found;
}

const bands = new Map(LIKELIHOOD_BANDS.map((b) => [b.band, b]));

/** A rule for a term's pattern, which matches only as whole words, ignoring case unless `caseSensitive`. */
function rule(
  pattern: string,
  found: Found | undefined,
  options: Pick<Rule, 'make'> & { caseSensitive?: boolean } = {},
): Rule {
  const flags = options.caseSensitive ? 'yu' : 'yiu';
  const phrase = `(?:${pattern})(?![\\p{L}\\p{N}_])`;
  return {
    pattern,
    regex: new RegExp(`(?<![\\p{L}\\p{N}_])${phrase}`, flags),
    afterAscii: new RegExp(phrase, flags),
    found,
    make: options.make,
  };
}

// Where two phrases start together and are as long, the earlier rule wins: a confusion over the terms inside it.
const RULES: readonly Rule[] = [
  ...CONFUSIONS.map((c) => rule(c.pattern, { kind: 'confusion', rule: c.rule, message: c.message })),
  ...CONFIDENCE_PATTERNS.map((c) =>
    rule(c.pattern, c.level === undefined ? undefined : { kind: 'confidence', level: c.level }, {
      make: (m) => ({ kind: 'confidence', level: m[1]!.toLowerCase() as ConfidenceLevel }),
    }),
  ),
  ...BAND_PATTERNS.map((b) => rule(b.pattern, { kind: 'likelihood', band: bands.get(b.band)! })),
  ...HEDGES.map((h) =>
    rule(h.pattern, { kind: 'hedge', suggestion: h.suggestion }, { caseSensitive: h.caseSensitive }),
  ),
];

/**
 * The tradecraft lint of seed 001, Thread 2 (ICD 203 estimative language), over the claim-making sections only
 * (what `Gaps & caveats` says about what is unknown is not a judgment). Every sentence is scanned for ICD 203
 * likelihood terms (mapped to their band and probability range), non-standard hedges (see `HEDGES`), statements of
 * analytic confidence (low, moderate, high) and phrases that confuse the two axes (see `CONFUSIONS`). Phrases
 * never overlap: at each place the longest phrase wins ("very unlikely" is band 2, not band 3 inside it; "probable
 * confidence" is a confusion, not a likelihood term). Case is ignored except for "may". Advisory: the report says
 * what it found and where, and passes no verdict.
 */
export function lintEstimativeLanguage(note: Note): TradecraftReport {
  const finder = new PhraseFinder(note.source);
  const report: TradecraftReport = {
    likelihood: [],
    hedges: [],
    confidence: [],
    confusions: [],
    likelihoodStated: false,
    confidenceStated: false,
  };
  for (const segment of note.segments) {
    if (!segment.claims) continue;
    for (const sentence of segment.sentences) {
      const count = scan(sentence.text);
      let cursor = sentence.position.offset;
      for (let k = 0; k < count; k++) {
        const text = sentence.text.slice(foundStarts[k] as number, foundEnds[k] as number);
        const what = foundWhats[k] as Found;
        const at = finder.locate(text, cursor);
        if (at !== undefined) cursor = at + 1;
        const position = finder.position(at ?? sentence.position.offset, sentence.position);
        // Each hit is written out whole: spreading a shared PhraseHit into each was half of the lint's time.
        const { section } = segment;
        const { line, column } = position;
        const sentenceText = sentence.text;
        if (what.kind === 'likelihood') {
          const { band } = what;
          report.likelihood.push({ text, section, sentence: sentenceText, position, line, column, band });
        } else if (what.kind === 'hedge') {
          const { suggestion } = what;
          report.hedges.push({ text, section, sentence: sentenceText, position, line, column, suggestion });
        } else if (what.kind === 'confidence') {
          const { level } = what;
          report.confidence.push({ text, section, sentence: sentenceText, position, line, column, level });
        } else {
          const { rule, message } = what;
          report.confusions.push({
            text,
            section,
            sentence: sentenceText,
            position,
            line,
            column,
            rule,
            message,
          });
        }
      }
    }
  }
  report.likelihoodStated = report.likelihood.length > 0;
  report.confidenceStated = report.confidence.length > 0;
  return report;
}

let byPrefix: PrefixTrie<Rule> | undefined;

/**
 * The rules to try where a phrase may start: those whose literal prefix the text there opens with. Built on the
 * first lint (about 6 ms), not when the module loads: a worker that imports the matchers may never lint.
 */
function rulesByPrefix(): PrefixTrie<Rule> {
  byPrefix ??= new PrefixTrie(RULES.map((r) => ({ value: r, prefixes: literalPrefixes(r.pattern) })));
  return byPrefix;
}

/** Letters, digits and underscore among ASCII characters: the edge every rule's phrase must start after. */
const WORD_CHAR = Uint8Array.from({ length: 128 }, (_, code) =>
  /[\p{L}\p{N}_]/u.test(String.fromCharCode(code)) ? 1 : 0,
);

// What `scan` found in the last sentence it scanned: start, end and finding of each phrase (reused, so that
// scanning a sentence allocates nothing but the findings that depend on the words matched).
const foundStarts: number[] = [];
const foundEnds: number[] = [];
const foundWhats: Found[] = [];

/**
 * Every phrase of a sentence, without overlaps, in order: from left to right, the longest phrase any rule matches
 * where the next phrase starts (the kind listed first winning a tie), then on from its end. Leaves them in
 * `foundStarts`, `foundEnds` and `foundWhats`, and returns how many there are.
 */
function scan(text: string): number {
  const trie = rulesByPrefix();
  let count = 0;
  let start = 0;
  while (start < text.length) {
    // Every rule's phrase starts after a character that is not a letter, digit or underscore (a non-ASCII one is
    // left to the rules' own lookbehind).
    const before = start === 0 ? 32 : text.charCodeAt(start - 1);
    const rules = before < 128 && WORD_CHAR[before] === 1 ? undefined : trie.at(text, start);
    if (rules === undefined || rules.length === 0) {
      start++;
      continue;
    }
    let bestEnd = -1;
    let best: Rule | undefined;
    const ascii = before < 128;
    // A sticky regex's test() leaves lastIndex at the end of its match: no match array is made per rule tried.
    for (const rule of rules) {
      const regex = ascii ? rule.afterAscii : rule.regex;
      regex.lastIndex = start;
      if (regex.test(text) && regex.lastIndex > bestEnd) {
        bestEnd = regex.lastIndex;
        best = rule;
      }
    }
    if (!best) {
      start++;
      continue;
    }
    let what = best.found;
    if (what === undefined) {
      const regex = ascii ? best.afterAscii : best.regex;
      regex.lastIndex = start;
      what = best.make!(regex.exec(text)!);
    }
    foundStarts[count] = start;
    foundEnds[count] = bestEnd;
    foundWhats[count] = what;
    count++;
    start = bestEnd;
  }
  return count;
}

/**
 * Finds where the phrases of a note's sentences stand in its markdown source, in time linear in the source however
 * many phrases there are: a search that looked further than `NEAR` is remembered, per phrase, for the next search
 * from a later place that the found place (or the end, when none was found) still answers. Most phrases stand a few
 * characters from where the search starts, and are looked for directly.
 */
class PhraseFinder {
  private lines: LineIndex | undefined;
  private readonly verbatim = new Map<string, Search>();
  private readonly spread = new Map<string, Search>();
  // The first blank line, and the first line ending, at or after where they were last looked for.
  private readonly blank: Search = { from: Number.POSITIVE_INFINITY, at: -1 };
  private readonly newline: Search = { from: Number.POSITIVE_INFINITY, at: -1 };

  constructor(private readonly source: string) {}

  /**
   * Where a phrase of a sentence's plain text stands in the source, at or after `from`: verbatim with no blank line
   * before it, else its words in order with any whitespace or emphasis marks between them. Undefined when markup
   * hides it (the sentence's start is used instead).
   */
  locate(phrase: string, from: number): number | undefined {
    const { source } = this;
    let verbatim = recall(this.verbatim, phrase, from);
    if (verbatim === undefined) {
      verbatim = source.indexOf(phrase, from);
      if (verbatim === -1 || verbatim - from > NEAR) remember(this.verbatim, phrase, from, verbatim);
    }
    if (verbatim !== -1) {
      const blank = this.blank;
      if (!(blank.from <= from && (blank.at === -1 || blank.at >= from))) {
        blank.from = from;
        blank.at = source.indexOf('\n\n', from);
      }
      if (blank.at === -1 || blank.at + 2 > verbatim) return verbatim;
    }
    let at = recall(this.spread, phrase, from);
    if (at === undefined) {
      const words = phrase.split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      const regex = new RegExp(words.join('[\\s*_~`]+'), 'gu');
      regex.lastIndex = from;
      at = regex.exec(source)?.index ?? -1;
      remember(this.spread, phrase, from, at);
    }
    return at === -1 ? undefined : at;
  }

  /** Line and column of an offset at or after a sentence's start: on the sentence's line, or found in the index. */
  position(offset: number, sentence: SourcePosition): SourcePosition {
    if (offset >= sentence.offset) {
      const memo = this.newline;
      if (!(memo.from <= sentence.offset && (memo.at === -1 || memo.at >= sentence.offset))) {
        memo.from = sentence.offset;
        memo.at = this.source.indexOf('\n', sentence.offset);
      }
      if (memo.at === -1 || memo.at >= offset)
        return { line: sentence.line, column: sentence.column + (offset - sentence.offset), offset };
    }
    this.lines ??= new LineIndex(this.source);
    return this.lines.position(offset);
  }
}

/** How far a direct search may look before its answer is remembered. */
const NEAR = 512;

/** What a remembered search answers for a search from `from`: its place (-1: none), or undefined if it cannot tell. */
function recall(memo: Map<string, Search>, key: string, from: number): number | undefined {
  if (memo.size === 0) return undefined;
  const last = memo.get(key);
  return last && last.from <= from && (last.at === -1 || last.at >= from) ? last.at : undefined;
}

function remember(memo: Map<string, Search>, key: string, from: number, at: number): void {
  const last = memo.get(key);
  if (last) {
    last.from = from;
    last.at = at;
  } else memo.set(key, { from, at });
}

/** A search remembered: where it started and what it found (-1: nothing). */
interface Search {
  from: number;
  at: number;
}
