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
  // M is the sum of the blocks' sizes, which collapsing adjacent blocks does not change: the blocks are not kept.
  return (2.0 * matchBlocks(a, b)) / length;
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
  const found: MatchingBlock[] = [];
  matchBlocks(a, b, found);
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
  collapsed.push({ a: a.length, b: b.length, size: 0 });
  return collapsed;
}

// The working state of one comparison, kept between comparisons (each runs to its end before the next starts, and
// nothing here calls out), so a comparison allocates nothing once the buffers are large enough. Typed arrays
// allocated once: the cost of a short comparison used to be mostly its own dozen small arrays.
/** Both sequences as small integer ids (so equality is an integer compare). */
let aIds = new Int32Array(256);
let bIds = new Int32Array(256);
/** `b2j` in one array: the positions in `b` of id `x`, increasing, are `positions[starts[x] .. starts[x + 1])`. */
let starts = new Int32Array(257);
/** Where the next position of each id goes while `positions` is filled. */
let cursor = new Int32Array(257);
let positions = new Int32Array(256);
/**
 * `find_longest_match`'s per-row dictionary `j2len` as two rows of lengths indexed by position (position j - 1 at
 * index j, so index 0 stands for j = -1), told apart from stale entries by a row stamp instead of being cleared.
 */
let prevLen = new Int32Array(257);
let prevStamp = new Int32Array(257);
let curLen = new Int32Array(257);
let curStamp = new Int32Array(257);
let stamp = 0;
/** The queue of `get_matching_blocks`: (alo, ahi, blo, bhi) quadruples. */
let queue = new Int32Array(256);
/** Element ids for one comparison. */
const ids = new Map<SequenceElement, number>();

/**
 * The matching blocks of `get_matching_blocks` before sorting and collapsing, pushed to `found` when given; returns
 * the sum of their sizes.
 */
function matchBlocks(
  a: readonly SequenceElement[],
  b: readonly SequenceElement[],
  found?: MatchingBlock[],
): number {
  const la = a.length;
  const lb = b.length;
  prepare(a, b);
  let matched = 0;
  let top = 0;
  queue[top++] = 0;
  queue[top++] = la;
  queue[top++] = 0;
  queue[top++] = lb;
  while (top > 0) {
    const bhi = queue[--top] as number;
    const blo = queue[--top] as number;
    const ahi = queue[--top] as number;
    const alo = queue[--top] as number;
    findLongestMatch(alo, ahi, blo, bhi);
    const i = besti;
    const j = bestj;
    const k = bestsize;
    if (k > 0) {
      matched += k;
      found?.push({ a: i, b: j, size: k });
      // Each push is of a range the popped one holds, so the queue never holds more than 4 * (la + 1) entries.
      if (alo < i && blo < j) {
        queue[top++] = alo;
        queue[top++] = i;
        queue[top++] = blo;
        queue[top++] = j;
      }
      if (i + k < ahi && j + k < bhi) {
        queue[top++] = i + k;
        queue[top++] = ahi;
        queue[top++] = j + k;
        queue[top++] = bhi;
      }
    }
  }
  return matched;
}

/** `set_seqs`: the ids of both sequences and `b2j` (each non-popular element's positions in `b`). */
function prepare(a: readonly SequenceElement[], b: readonly SequenceElement[]): void {
  const la = a.length;
  const lb = b.length;
  if (aIds.length < la) aIds = new Int32Array(2 * la);
  if (bIds.length < lb) {
    bIds = new Int32Array(2 * lb);
    positions = new Int32Array(2 * lb);
    prevLen = new Int32Array(2 * lb + 1);
    prevStamp = new Int32Array(2 * lb + 1);
    curLen = new Int32Array(2 * lb + 1);
    curStamp = new Int32Array(2 * lb + 1);
  }
  if (queue.length < 4 * (la + 1)) queue = new Int32Array(8 * (la + 1));
  ids.clear();
  for (let j = 0; j < lb; j++) bIds[j] = idOf(b[j] as SequenceElement);
  for (let i = 0; i < la; i++) aIds[i] = idOf(a[i] as SequenceElement);
  const n = ids.size;
  if (starts.length < n + 1) {
    starts = new Int32Array(2 * n + 1);
    cursor = new Int32Array(2 * n + 1);
  }
  // Count each id's occurrences in b at starts[id + 1], with 0 for a popular id (so it owns no positions), then
  // sum: id x's positions go in starts[x] .. starts[x + 1]. An id of b with an empty range is a popular one.
  starts.fill(0, 0, n + 1);
  for (let j = 0; j < lb; j++) {
    const x = (bIds[j] as number) + 1;
    starts[x] = (starts[x] as number) + 1;
  }
  if (lb >= 200) {
    const popularAbove = Math.floor(lb / 100) + 1;
    for (let x = 1; x <= n; x++) if ((starts[x] as number) > popularAbove) starts[x] = 0;
  }
  for (let x = 1; x <= n; x++) starts[x] = (starts[x] as number) + (starts[x - 1] as number);
  cursor.set(starts.subarray(0, n));
  for (let j = 0; j < lb; j++) {
    const x = bIds[j] as number;
    const at = cursor[x] as number;
    if (at === starts[x + 1]) continue;
    positions[at] = j;
    cursor[x] = at + 1;
  }
  if (stamp > 0x3fffffff) {
    prevStamp.fill(0);
    curStamp.fill(0);
    stamp = 0;
  }
}

function idOf(x: SequenceElement): number {
  let id = ids.get(x);
  if (id === undefined) {
    id = ids.size;
    ids.set(x, id);
  }
  return id;
}

/** The result of the last `findLongestMatch` (kept in variables, so that no object is made per call). */
let besti = 0;
let bestj = 0;
let bestsize = 0;

/** `find_longest_match(alo, ahi, blo, bhi)` with no junk (`isjunk=None`), so its junk-extension loops never run. */
function findLongestMatch(alo: number, ahi: number, blo: number, bhi: number): void {
  const a = aIds;
  const b = bIds;
  let bi = alo;
  let bj = blo;
  let size = 0;
  // Stamp of the previous row's entries (0 = none yet: nothing of j2len survives into a new call).
  let prev = 0;
  for (let i = alo; i < ahi; i++) {
    const row = ++stamp;
    const x = a[i] as number;
    const end = starts[x + 1] as number;
    const pl = prevLen;
    const ps = prevStamp;
    const cl = curLen;
    const cs = curStamp;
    for (let t = starts[x] as number; t < end; t++) {
      const j = positions[t] as number;
      if (j < blo) continue;
      if (j >= bhi) break;
      // j2len.get(j - 1, 0) + 1; position j - 1 is stored at index j (index 0 stands for j = -1).
      const k = (prev !== 0 && ps[j] === prev ? (pl[j] as number) : 0) + 1;
      cl[j + 1] = k;
      cs[j + 1] = row;
      if (k > size) {
        bi = i - k + 1;
        bj = j - k + 1;
        size = k;
      }
    }
    prevLen = cl;
    prevStamp = cs;
    curLen = pl;
    curStamp = ps;
    prev = row;
  }
  // Extend across elements b2j left out (the popular ones): the best match so far holds none of them.
  while (bi > alo && bj > blo && a[bi - 1] === b[bj - 1]) {
    bi--;
    bj--;
    size++;
  }
  while (bi + size < ahi && bj + size < bhi && a[bi + size] === b[bj + size]) size++;
  besti = bi;
  bestj = bj;
  bestsize = size;
}
