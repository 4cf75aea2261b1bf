// src/metrics/difflib.ts as it stood at commit 348d88e (a Map and a dozen small arrays per comparison), kept verbatim
// as the baseline of the differential test test/metrics/difflib-differential.test.ts. Not part of the package.
/**
 * Python's `difflib.SequenceMatcher(None, a, b)` (CPython `Lib/difflib.py`), for `ratio()` and
 * `get_matching_blocks()`, exactly. Seed 002 scores trajectory similarity as `SequenceMatcher(None, seq1,
 * seq2).ratio()`; that algorithm (Ratcliff/Obershelp "gestalt pattern matching" with CPython's refinements) is not
 * a longest common subsequence, and its "autojunk" heuristic changes the answer for sequences of 200 or more items,
 * so reproducing it step by step is the only way to give the reference's numbers.
 *
 * Elements are compared by value (`===` on strings, numbers and `null`, as Python's `==` on `str`, `int`/`float` and
 * `None`).
 */

/** A run of equal elements: `a[a..a+size) == b[b..b+size)` (Python's `Match(a, b, size)`). */
export interface MatchingBlock {
  a: number;
  b: number;
  size: number;
}

/** An element of a compared sequence (`null` stands for Python's `None`, as a missing tool name). */
export type SequenceElement = string | number | null;

/**
 * `SequenceMatcher(None, a, b).ratio()`: `2.0 * M / T`, where M is the number of elements in the matching blocks and
 * T = `len(a) + len(b)`; 1.0 when both sequences are empty (`_calculate_ratio`). In [0, 1].
 *
 * Not symmetric in general: the junk heuristic looks only at `b`, and ties in `find_longest_match` are broken by
 * position, so `ratio(a, b)` and `ratio(b, a)` can differ (as they do in Python).
 */
export function sequenceRatio(a: readonly SequenceElement[], b: readonly SequenceElement[]): number {
  const length = a.length + b.length;
  if (length === 0) return 1.0;
  let matches = 0;
  for (const block of matchingBlocks(a, b)) matches += block.size;
  return (2.0 * matches) / length;
}

/**
 * `SequenceMatcher(None, a, b).get_matching_blocks()`: the non-overlapping matching blocks in increasing order,
 * adjacent blocks collapsed, ending with the sentinel `{ a: len(a), b: len(b), size: 0 }`.
 *
 * As in `__chain_b`: with `autojunk` (always on here, Python's default), when `len(b) >= 200` every element that
 * occurs in `b` more than `len(b) // 100 + 1` times is "popular" and cannot start a match, though
 * `find_longest_match` still extends a match across it.
 */
export function matchingBlocks(
  a: readonly SequenceElement[],
  b: readonly SequenceElement[],
): MatchingBlock[] {
  const matcher = new Matcher(a, b);
  const la = a.length;
  const lb = b.length;
  const queue: [number, number, number, number][] = [[0, la, 0, lb]];
  const found: MatchingBlock[] = [];
  while (queue.length > 0) {
    const [alo, ahi, blo, bhi] = queue.pop() as [number, number, number, number];
    const m = matcher.findLongestMatch(alo, ahi, blo, bhi);
    if (m.size > 0) {
      found.push(m);
      if (alo < m.a && blo < m.b) queue.push([alo, m.a, blo, m.b]);
      if (m.a + m.size < ahi && m.b + m.size < bhi) queue.push([m.a + m.size, ahi, m.b + m.size, bhi]);
    }
  }
  found.sort((x, y) => x.a - y.a || x.b - y.b || x.size - y.size);
  const collapsed: MatchingBlock[] = [];
  let i1 = 0;
  let j1 = 0;
  let k1 = 0;
  for (const { a: i2, b: j2, size: k2 } of found) {
    if (i1 + k1 === i2 && j1 + k1 === j2) {
      k1 += k2;
    } else {
      if (k1) collapsed.push({ a: i1, b: j1, size: k1 });
      i1 = i2;
      j1 = j2;
      k1 = k2;
    }
  }
  if (k1) collapsed.push({ a: i1, b: j1, size: k1 });
  collapsed.push({ a: la, b: lb, size: 0 });
  return collapsed;
}

const NOTHING: readonly number[] = [];

/**
 * The state `set_seqs` builds: both sequences as small integer ids (so equality is an integer compare) and `b2j`,
 * each non-popular element's positions in `b` in increasing order. `find_longest_match`'s per-row dictionary
 * `j2len` becomes two arrays indexed by position, told apart by a row stamp instead of being cleared. Plain arrays of
 * small integers, not typed arrays: a typed array past 64 bytes lives outside the heap, and allocating the ten or
 * so a short comparison needs cost more than the comparison itself.
 */
class Matcher {
  private readonly a: number[];
  private readonly b: number[];
  private readonly b2j: (number[] | undefined)[];
  private prevLen: number[];
  private prevStamp: number[];
  private curLen: number[];
  private curStamp: number[];
  private stamp = 0;

  constructor(a: readonly SequenceElement[], b: readonly SequenceElement[]) {
    const ids = new Map<SequenceElement, number>();
    const idOf = (x: SequenceElement): number => {
      let id = ids.get(x);
      if (id === undefined) {
        id = ids.size;
        ids.set(x, id);
      }
      return id;
    };
    this.b = b.map(idOf);
    this.a = a.map(idOf);
    const counts = zeros(ids.size);
    for (const id of this.b) counts[id] = (counts[id] as number) + 1;
    const n = b.length;
    const popularAbove = n >= 200 ? Math.floor(n / 100) + 1 : Number.POSITIVE_INFINITY;
    this.b2j = new Array(ids.size);
    for (let id = 0; id < ids.size; id++) {
      const count = counts[id] as number;
      if (count > 0 && count <= popularAbove) this.b2j[id] = [];
    }
    for (let j = 0; j < n; j++) this.b2j[this.b[j] as number]?.push(j);
    this.prevLen = zeros(n + 1);
    this.prevStamp = zeros(n + 1);
    this.curLen = zeros(n + 1);
    this.curStamp = zeros(n + 1);
  }

  /** `find_longest_match(alo, ahi, blo, bhi)` with no junk (`isjunk=None`), so its junk-extension loops never run. */
  findLongestMatch(alo: number, ahi: number, blo: number, bhi: number): MatchingBlock {
    const { a, b } = this;
    let besti = alo;
    let bestj = blo;
    let bestsize = 0;
    // Stamps of the previous row's entries (0 = none yet: nothing of j2len survives into a new call).
    let prev = 0;
    for (let i = alo; i < ahi; i++) {
      const row = ++this.stamp;
      const positions = this.b2j[a[i] as number] ?? NOTHING;
      const { prevLen, prevStamp, curLen, curStamp } = this;
      for (let t = 0; t < positions.length; t++) {
        const j = positions[t] as number;
        if (j < blo) continue;
        if (j >= bhi) break;
        // j2len.get(j - 1, 0) + 1; position j - 1 is stored at index j (index 0 stands for j = -1).
        const k = (prev !== 0 && prevStamp[j] === prev ? (prevLen[j] as number) : 0) + 1;
        curLen[j + 1] = k;
        curStamp[j + 1] = row;
        if (k > bestsize) {
          besti = i - k + 1;
          bestj = j - k + 1;
          bestsize = k;
        }
      }
      this.prevLen = curLen;
      this.prevStamp = curStamp;
      this.curLen = prevLen;
      this.curStamp = prevStamp;
      prev = row;
    }
    // Extend across elements b2j left out (the popular ones): the best match so far holds none of them.
    while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) {
      besti--;
      bestj--;
      bestsize++;
    }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) {
      bestsize++;
    }
    return { a: besti, b: bestj, size: bestsize };
  }
}

function zeros(size: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < size; i++) out.push(0);
  return out;
}
