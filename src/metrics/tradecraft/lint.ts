import type { Note, SourcePosition } from '../../model/note.js';
import { LineIndex } from '../../parse/position.js';
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

interface Rule {
  regex: RegExp;
  priority: number;
  make: (match: RegExpExecArray) => Found;
}

const edge = (pattern: string) => `(?<![\\p{L}\\p{N}_])(?:${pattern})(?![\\p{L}\\p{N}_])`;
const bands = new Map(LIKELIHOOD_BANDS.map((b) => [b.band, b]));

// Where two phrases start together and are as long, the earlier kind wins: a confusion over the terms inside it.
const RULES: readonly Rule[] = [
  ...CONFUSIONS.map(
    (c): Rule => ({
      regex: new RegExp(edge(c.pattern), 'giu'),
      priority: 0,
      make: () => ({ kind: 'confusion', rule: c.rule, message: c.message }),
    }),
  ),
  ...CONFIDENCE_PATTERNS.map(
    (c): Rule => ({
      regex: new RegExp(edge(c.pattern), 'giu'),
      priority: 1,
      make: (m) => ({ kind: 'confidence', level: c.level ?? (m[1]!.toLowerCase() as ConfidenceLevel) }),
    }),
  ),
  ...BAND_PATTERNS.map(
    (b): Rule => ({
      regex: new RegExp(edge(b.pattern), 'giu'),
      priority: 2,
      make: () => ({ kind: 'likelihood', band: bands.get(b.band)! }),
    }),
  ),
  ...HEDGES.map(
    (h): Rule => ({
      regex: new RegExp(edge(h.pattern), h.caseSensitive ? 'gu' : 'giu'),
      priority: 3,
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

/** Every phrase of a sentence, without overlaps, in order. */
function scan(text: string): Array<{ start: number; end: number; what: Found }> {
  const all: Array<{ start: number; end: number; priority: number; what: Found }> = [];
  for (const rule of RULES) {
    rule.regex.lastIndex = 0;
    for (let m = rule.regex.exec(text); m; m = rule.regex.exec(text)) {
      all.push({ start: m.index, end: m.index + m[0].length, priority: rule.priority, what: rule.make(m) });
    }
  }
  all.sort((a, b) => a.start - b.start || b.end - a.end || a.priority - b.priority);
  const kept: typeof all = [];
  let reach = 0;
  for (const hit of all) {
    if (hit.start < reach) continue;
    kept.push(hit);
    reach = hit.end;
  }
  return kept;
}

/**
 * Where a phrase of a sentence's plain text stands in the markdown source, at or after `from`: its words in order,
 * with any whitespace or emphasis marks between them. Undefined when markup hides it (the sentence's start is
 * used instead).
 */
function locate(source: string, phrase: string, from: number): number | undefined {
  const words = phrase.split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const regex = new RegExp(words.join('[\\s*_~`]+'), 'gu');
  regex.lastIndex = from;
  const match = regex.exec(source);
  return match?.index;
}
