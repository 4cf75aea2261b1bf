import type { Check } from '../../model/check.js';

/** A claim of the note that a check found wanting, where it stands in `note.md` (1-based). */
export interface ClaimPlace {
  kind: 'uncited' | 'unsupported';
  /** The claim as written. */
  text: string;
  line: number;
  column: number;
}

/** `12:3 "The claim." cites g6: ...`, as `describeUnsupported` writes an unsupported claim. */
const DESCRIBED = /^(\d+):(\d+) "(.*?)"(?: \[checked as "[^"]*"\])? cites /s;

/**
 * The note places a check's evidence names: `evidence.uncited` items (`{ line, column, text }`, as citation recall
 * records them) and `evidence.unsupported` items (the same objects, or the `L:C "claim" cites ...` lines citation
 * precision records). An item without a line is left out and counted in `unplaced`.
 */
export function claimPlaces(check: Check): { places: ClaimPlace[]; unplaced: number } {
  const places: ClaimPlace[] = [];
  let unplaced = 0;
  for (const kind of ['uncited', 'unsupported'] as const) {
    const list = check.evidence?.[kind];
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      const place = toPlace(kind, item);
      if (place) places.push(place);
      else unplaced++;
    }
  }
  return { places, unplaced };
}

function toPlace(kind: ClaimPlace['kind'], item: unknown): ClaimPlace | undefined {
  if (typeof item === 'string') {
    const match = DESCRIBED.exec(item);
    if (!match) return undefined;
    return { kind, text: match[3]!, line: Number(match[1]), column: Number(match[2]) };
  }
  if (typeof item !== 'object' || item === null) return undefined;
  const o = item as Record<string, unknown>;
  const line = o['line'];
  if (typeof line !== 'number' || !Number.isInteger(line) || line < 1) return undefined;
  const column = typeof o['column'] === 'number' && o['column'] >= 1 ? o['column'] : 1;
  const text = ['text', 'sentence', 'claim'].map((key) => o[key]).find((v) => typeof v === 'string');
  return { kind, text: typeof text === 'string' ? text : '', line, column };
}
