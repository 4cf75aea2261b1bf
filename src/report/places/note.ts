import type { Check } from '../../model/check.js';

/** A claim of the note that a check found wanting, where it stands in `note.md` (1-based). */
export interface ClaimPlace {
  kind: 'uncited' | 'unsupported';
  /** The claim as written. */
  text: string;
  line: number;
  column: number;
}

/**
 * The note places a check's evidence names: `evidence.uncited` and `evidence.unsupported` items, each `{ line,
 * column, text }` as citation recall and citation precision record them. An item without a line is left out and
 * counted in `unplaced`.
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
  if (typeof item !== 'object' || item === null) return undefined;
  const o = item as Record<string, unknown>;
  const line = o['line'];
  if (typeof line !== 'number' || !Number.isInteger(line) || line < 1) return undefined;
  const column = typeof o['column'] === 'number' && o['column'] >= 1 ? o['column'] : 1;
  const text = ['text', 'sentence', 'claim'].map((key) => o[key]).find((v) => typeof v === 'string');
  return { kind, text: typeof text === 'string' ? text : '', line, column };
}
