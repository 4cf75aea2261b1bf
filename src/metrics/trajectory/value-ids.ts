import { compareCodePoints } from './python-json.js';

// Ids of the values every table knows from the start, and the tags that open a compound value's chain.
export const NULL = 0;
const TRUE = 1;
const FALSE = 2;
const OBJECT = 3;
const ARRAY = 4;
const FIRST_FREE = 5;

/** Pair slots a fresh table starts with (a power of two). */
const INITIAL_SLOTS = 1 << 12;
/**
 * When a numbering starts with the table past any of these, the table starts over: it is a memo, and a long-lived
 * process scoring many different runs must not hold every value it ever met. At these bounds the table holds at
 * most about 20 MB (the pair columns, 20 bytes a slot, at most half full, and the strings' characters).
 */
const MAX_IDS = 1 << 19;
const MAX_STRING_CHARS = 1 << 21;
const MAX_STAMP = 0x7fffffff;

/**
 * Ids of JSON values by content, kept from one numbering to the next (hash consing): two values get the same id
 * exactly when `pythonJsonDumps` writes the same text for them, but no text is built. Each scalar gets an id
 * (strings and numbers through maps of their own, so `"1"`, `1` and `true` stay apart as their JSON texts do), and a
 * compound value is the chain of its children's ids folded pair by pair (an object's keys in Python's code-point
 * order, as `sort_keys` writes them): since a pair id names its two halves, the final id names the tag and every
 * child in order, and `[]` is `ARRAY` itself.
 *
 * Ids depend only on content, so keeping them across comparisons changes no result; it spares every comparison
 * the cost of growing its own maps (most of the cost of numbering a trajectory's calls was building them). Pairs
 * live in an open-addressing table of integer columns, which also holds, per pair, the dense number the current
 * numbering gave it (`stamp` tells whether that number is the current numbering's). One table serves every numbering
 * in turn, so a value must not call back into the metrics while it is read (JSON data has no getters).
 */
class ValueTable {
  strings = new Map<string, number>();
  numbers = new Map<number, number>();
  /** Texts of the integers that only a `bigint` can hold (a `bigint` that fits a number is that number). */
  bigints = new Map<string, number>();
  stringChars = 0;
  next = FIRST_FREE;
  /** Pairs held, and the table's columns: a slot is empty when its id is 0 (no pair has id 0). */
  count = 0;
  mask = INITIAL_SLOTS - 1;
  lefts = new Int32Array(INITIAL_SLOTS);
  rights = new Int32Array(INITIAL_SLOTS);
  ids = new Int32Array(INITIAL_SLOTS);
  stamps = new Int32Array(INITIAL_SLOTS);
  dense = new Int32Array(INITIAL_SLOTS);
  stamp = 0;
  /** Keys of the objects being folded, one reusable list per nesting depth. */
  private readonly keyLists: string[][] = [];

  /** The id of a value: equal ids exactly when `pythonJsonDumps` writes equal texts. */
  value(v: unknown, depth: number): number {
    switch (typeof v) {
      case 'string':
        return this.string(v);
      case 'number':
        return this.number(v);
      case 'boolean':
        return v ? TRUE : FALSE;
      case 'bigint':
        return this.bigint(v);
      case 'object':
        if (v === null) return NULL;
        return Array.isArray(v) ? this.array(v, depth) : this.object(v as Record<string, unknown>, depth);
      default:
        // undefined, functions, symbols: `pythonJsonDumps` writes them `null`.
        return NULL;
    }
  }

  private array(list: readonly unknown[], depth: number): number {
    let id = ARRAY;
    for (let i = 0; i < list.length; i++) id = this.pair(id, this.value(list[i], depth + 1));
    return id;
  }

  private object(record: Record<string, unknown>, depth: number): number {
    // for-in walks the keys in Object.keys' order without building an array (V8 compiles for-in with
    // hasOwnProperty.call to a cache check; Object.hasOwn there cost twice as much); they are gathered in this
    // depth's list, put in code-point order when they are not in it already (most objects have one or two), then
    // folded.
    let keys = this.keyLists[depth];
    if (keys === undefined) {
      keys = [];
      this.keyLists[depth] = keys;
    }
    let n = 0;
    let sorted = true;
    for (const key in record) {
      if (!hasOwn.call(record, key)) continue;
      if (n > 0 && sorted && compareCodePoints(keys[n - 1] as string, key) > 0) sorted = false;
      keys[n++] = key;
    }
    if (!sorted) {
      if (n > 8) {
        keys.length = n;
        keys.sort(compareCodePoints);
      } else insertionSort(keys, n);
    }
    let id = OBJECT;
    for (let i = 0; i < n; i++) {
      const key = keys[i] as string;
      id = this.pair(this.pair(id, this.string(key)), this.value(record[key], depth + 1));
    }
    return id;
  }

  string(s: string): number {
    return this.text(this.strings, s);
  }

  /** The id `map` holds for a text, given the next free id (and its characters counted) when it holds none. */
  private text(map: Map<string, number>, s: string): number {
    let id = map.get(s);
    if (id === undefined) {
      id = this.next++;
      map.set(s, id);
      this.stringChars += s.length;
    }
    return id;
  }

  /**
   * Numbers are told apart by value, as their Python texts are (shortest round-trip digits, integers exactly);
   * `Map` keys compare by SameValueZero, so `0` and `-0` meet (both written `0`) and NaN meets NaN.
   */
  private number(x: number): number {
    let id = this.numbers.get(x);
    if (id === undefined) {
      id = this.next++;
      this.numbers.set(x, id);
    }
    return id;
  }

  /** A `bigint` is written as its digits, which an integral number below 1e21 in magnitude also writes. */
  private bigint(b: bigint): number {
    const x = Number(b);
    if (Math.abs(x) < 1e21 && BigInt(x) === b) return this.number(x);
    return this.text(this.bigints, b.toString());
  }

  /** The id of the ordered pair `(left, right)`: equal pairs, equal ids. */
  pair(left: number, right: number): number {
    const s = this.slot(left, right);
    // Read after slot(): inserting may have grown the table, which replaces its columns.
    return this.ids[s] as number;
  }

  /** The slot holding the pair `(left, right)`, the pair given the next free id if the table held none. */
  slot(left: number, right: number): number {
    let s = this.probe(left, right);
    if (this.ids[s] !== 0) return s;
    // At most half full, so probes stay short; growing moves every slot, so the free slot is looked for again.
    if (2 * (this.count + 1) > this.mask + 1) {
      this.grow();
      s = this.probe(left, right);
    }
    this.count++;
    this.lefts[s] = left;
    this.rights[s] = right;
    this.ids[s] = this.next++;
    return s;
  }

  /** The slot holding `(left, right)`, or the empty slot where it would go (linear probing). */
  private probe(left: number, right: number): number {
    const { lefts, rights, ids, mask } = this;
    let h = Math.imul(left, 0x9e3779b1) ^ right;
    h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
    let s = (h ^ (h >>> 13)) & mask;
    while (ids[s] !== 0 && (lefts[s] !== left || rights[s] !== right)) s = (s + 1) & mask;
    return s;
  }

  private grow(): void {
    const { lefts, rights, ids, stamps, dense } = this;
    const size = 2 * lefts.length;
    this.mask = size - 1;
    this.lefts = new Int32Array(size);
    this.rights = new Int32Array(size);
    this.ids = new Int32Array(size);
    this.stamps = new Int32Array(size);
    this.dense = new Int32Array(size);
    for (let s = 0; s < lefts.length; s++) {
      if (ids[s] === 0) continue;
      const t = this.probe(lefts[s] as number, rights[s] as number);
      this.lefts[t] = lefts[s] as number;
      this.rights[t] = rights[s] as number;
      this.ids[t] = ids[s] as number;
      this.stamps[t] = stamps[s] as number;
      this.dense[t] = dense[s] as number;
    }
  }

  /** Whether the memo has grown past its bounds (or its stamps ran out) and should start over. */
  full(): boolean {
    return this.next >= MAX_IDS || this.stringChars >= MAX_STRING_CHARS || this.stamp >= MAX_STAMP;
  }
}

/** Sorts the first `n` keys in code-point order in place (cheaper than `Array.prototype.sort` for a few). */
function insertionSort(keys: string[], n: number): void {
  for (let i = 1; i < n; i++) {
    const key = keys[i] as string;
    let j = i - 1;
    while (j >= 0 && compareCodePoints(keys[j] as string, key) > 0) {
      keys[j + 1] = keys[j] as string;
      j--;
    }
    keys[j + 1] = key;
  }
}

const hasOwn = Object.prototype.hasOwnProperty;

let table = new ValueTable();

/**
 * The value table for one numbering, started over first when it has grown past its bounds. Only between numberings:
 * ids must stay the same for the whole of one.
 */
export function valueTable(): ValueTable {
  if (table.full()) table = new ValueTable();
  table.stamp++;
  return table;
}

export type { ValueTable };
