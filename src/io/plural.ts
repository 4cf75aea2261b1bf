/**
 * A count and its noun as people read it: `1 segment`, `2 segments`; `many` for a noun whose plural is not the
 * singular with an `s` (`1 criterion`, `3 criteria`; `1 ledger entry`, `7 ledger entries`).
 */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}
