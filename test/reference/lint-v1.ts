// src/metrics/tradecraft/lint.ts as it stood at commit 348d88e (a spread object per hit, a match array per rule tried),
// kept verbatim but for its import paths as the baseline of test/metrics/tradecraft-differential.test.ts. Not part of
// the package.

import {
  BAND_PATTERNS,
  CONFIDENCE_PATTERNS,
  CONFUSIONS,
  type ConfidenceLevel,
  type ConfusionRule,
  HEDGES,
  LIKELIHOOD_BANDS,
  type LikelihoodBand,
} from '../../src/metrics/tradecraft/terms.js';
import type { Note, SourcePosition } from '../../src/model/note.js';
import { LineIndex } from '../../src/parse/position.js';

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

interface Rule {
  regex: RegExp;
  make: (match: RegExpExecArray) => Found;
}

const edge = (pattern: string) => `(?<![\\p{L}\\p{N}_])(?:${pattern})(?![\\p{L}\\p{N}_])`;
const bands = new Map(LIKELIHOOD_BANDS.map((b) => [b.band, b]));

/** Each rule's pattern, in the order of `RULES`. */
const RULES_PATTERNS: readonly string[] = [
  ...CONFUSIONS.map((c) => c.pattern),
  ...CONFIDENCE_PATTERNS.map((c) => c.pattern),
  ...BAND_PATTERNS.map((b) => b.pattern),
  ...HEDGES.map((h) => h.pattern),
];

// Where two phrases start together and are as long, the earlier rule wins: a confusion over the terms inside it.
const RULES: readonly Rule[] = [
  ...CONFUSIONS.map(
    (c): Rule => ({
      regex: new RegExp(edge(c.pattern), 'giu'),
      make: () => ({ kind: 'confusion', rule: c.rule, message: c.message }),
    }),
  ),
  ...CONFIDENCE_PATTERNS.map(
    (c): Rule => ({
      regex: new RegExp(edge(c.pattern), 'giu'),
      make: (m) => ({ kind: 'confidence', level: c.level ?? (m[1]!.toLowerCase() as ConfidenceLevel) }),
    }),
  ),
  ...BAND_PATTERNS.map(
    (b): Rule => ({
      regex: new RegExp(edge(b.pattern), 'giu'),
      make: () => ({ kind: 'likelihood', band: bands.get(b.band)! }),
    }),
  ),
  ...HEDGES.map(
    (h): Rule => ({
      regex: new RegExp(edge(h.pattern), h.caseSensitive ? 'gu' : 'giu'),
      make: () => ({ kind: 'hedge', suggestion: h.suggestion }),
    }),
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
  const lines = new LineIndex(note.source);
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
      const found = scan(sentence.text);
      let cursor = sentence.position.offset;
      for (const { start, end, what } of found) {
        const text = sentence.text.slice(start, end);
        const at = locate(note.source, text, cursor);
        if (at !== undefined) cursor = at + 1;
        const position = lines.position(at ?? sentence.position.offset);
        const hit: PhraseHit = {
          text,
          section: segment.section,
          sentence: sentence.text,
          position,
          line: position.line,
          column: position.column,
        };
        if (what.kind === 'likelihood') report.likelihood.push({ ...hit, band: what.band });
        else if (what.kind === 'hedge') report.hedges.push({ ...hit, suggestion: what.suggestion });
        else if (what.kind === 'confidence') report.confidence.push({ ...hit, level: what.level });
        else report.confusions.push({ ...hit, rule: what.rule, message: what.message });
      }
    }
  }
  report.likelihoodStated = report.likelihood.length > 0;
  report.confidenceStated = report.confidence.length > 0;
  return report;
}

/** Any phrase of any rule: finds where the next phrase starts, so the rules are tried only there. */
// The word-start check comes first, so the many alternatives are tried only where a word begins.
const ANY = new RegExp(
  `(?<![\\p{L}\\p{N}_])(?:${[...BAND_PATTERNS.map((b) => b.pattern), ...HEDGES.map((h) => h.pattern), ...CONFIDENCE_PATTERNS.map((c) => c.pattern), ...CONFUSIONS.map((c) => c.pattern)].join('|')})(?![\\p{L}\\p{N}_])`,
  'giu',
);
const STICKY = RULES.map((rule) => ({
  ...rule,
  regex: new RegExp(rule.regex.source, rule.regex.flags.replace('g', 'y')),
}));

/**
 * The rules that can match where a phrase starts with a given ASCII character (lower-cased), in `STICKY`'s order:
 * only those are tried there. A phrase starting with any other character (under case folding, `ſ` reads as `s`
 * and the Kelvin sign as `k`) tries every rule.
 */
const BY_FIRST = new Map<string, typeof STICKY>();
{
  const firsts = STICKY.map((_, i) => firstChars(RULES_PATTERNS[i]!));
  for (let code = 0; code < 128; code++) {
    const c = String.fromCharCode(code).toLowerCase();
    if (BY_FIRST.has(c)) continue;
    BY_FIRST.set(
      c,
      STICKY.filter((_, i) => firsts[i] === undefined || firsts[i]!.has(c)),
    );
  }
}

/**
 * Every phrase of a sentence, without overlaps, in order: from left to right, the longest phrase any rule matches
 * where the next phrase starts (the kind listed first winning a tie), then on from its end.
 */
function scan(text: string): Array<{ start: number; end: number; what: Found }> {
  const kept: Array<{ start: number; end: number; what: Found }> = [];
  ANY.lastIndex = 0;
  for (let m = ANY.exec(text); m; m = ANY.exec(text)) {
    const start = m.index;
    let best: { end: number; rule: Rule; match: RegExpExecArray } | undefined;
    const first = text.charCodeAt(start);
    for (const rule of first < 128 ? BY_FIRST.get(String.fromCharCode(first).toLowerCase())! : STICKY) {
      rule.regex.lastIndex = start;
      const match = rule.regex.exec(text);
      if (match && (!best || start + match[0].length > best.end))
        best = { end: start + match[0].length, rule, match };
    }
    if (!best) {
      // The case-insensitive finder saw a phrase only a case-sensitive rule knows ("May"): step past it.
      ANY.lastIndex = start + 1;
      continue;
    }
    kept.push({ start, end: best.end, what: best.rule.make(best.match) });
    ANY.lastIndex = best.end;
  }
  return kept;
}

/**
 * Where a phrase of a sentence's plain text stands in the markdown source, at or after `from`: its words in order,
 * with any whitespace or emphasis marks between them. Undefined when markup hides it (the sentence's start is
 * used instead).
 */
function locate(source: string, phrase: string, from: number): number | undefined {
  const verbatim = source.indexOf(phrase, from);
  if (verbatim !== -1 && !source.slice(from, verbatim).includes('\n\n')) return verbatim;
  const words = phrase.split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const regex = new RegExp(words.join('[\\s*_~`]+'), 'gu');
  regex.lastIndex = from;
  const match = regex.exec(source);
  return match?.index;
}

/**
 * The lower-cased first characters a phrase of `pattern` can start with, read from the pattern's first item (a
 * letter or digit, `\\d`, or a group of alternatives; a lookbehind before it is skipped); undefined when the pattern
 * starts any other way, so that its rule is tried everywhere.
 */
function firstChars(pattern: string): Set<string> | undefined {
  let rest = pattern;
  if (rest.startsWith('(?<=') || rest.startsWith('(?<!')) rest = rest.slice(closing(rest) + 1);
  if (rest.startsWith('\\d')) return new Set('0123456789');
  if (/^[A-Za-z0-9]/.test(rest)) return new Set(rest[0]!.toLowerCase());
  if (!rest.startsWith('(')) return undefined;
  const end = closing(rest);
  if (/^[?*{]/.test(rest.slice(end + 1))) return undefined; // an optional group: what follows may start the phrase
  const inner = rest.slice(rest.startsWith('(?:') ? 3 : 1, end);
  const out = new Set<string>();
  for (const alternative of topLevelAlternatives(inner)) {
    const chars = firstChars(alternative);
    if (chars === undefined) return undefined;
    for (const c of chars) out.add(c);
  }
  return out;
}

/** The index of the `)` closing the group that opens `pattern`. */
function closing(pattern: string): number {
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === '(') depth++;
    else if (pattern[i] === ')' && --depth === 0) return i;
  }
  return pattern.length;
}

function topLevelAlternatives(pattern: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === '(') depth++;
    else if (pattern[i] === ')') depth--;
    else if (pattern[i] === '|' && depth === 0) {
      out.push(pattern.slice(from, i));
      from = i + 1;
    }
  }
  out.push(pattern.slice(from));
  return out;
}
