import type { Trajectory } from '../../model/index.js';
import { compareCodePoints, pythonJsonDumps } from './python-json.js';

/**
 * The identity seed 002 gives a tool call: the tuple `(s.tool_name, json.dumps(s.tool_input, sort_keys=True))`.
 * Two calls are the same call when the tool and the arguments' canonical text are the same; `tool_input: null` is
 * `"null"`, a different call from `{}` (as in Python). Encoded as one string so it can key a `Map`: the tool name as
 * a JSON string (or `null`), a space, then Python's JSON text.
 */
export function callKey(toolName: string | null, toolInput: unknown): string {
  // `?? null`: a step read from JSON without the field has the seed dataclass's default, None.
  return `${JSON.stringify(toolName ?? null)} ${pythonJsonDumps(toolInput ?? null)}`;
}

// Ids of the values every index knows from the start, and the tags that open a compound value's chain.
const NULL = 0;
const TRUE = 1;
const FALSE = 2;
const OBJECT = 3;
const ARRAY = 4;
const FIRST_FREE = 5;
// A pair of ids below 2^15 packs into one small integer (a V8 Smi, compared and hashed without allocation).
const PACKED_LIMIT = 1 << 15;

/**
 * Numbers the distinct calls met across the trajectories it is given, so a trajectory's calls become a small integer
 * array and the set operations of the metrics become array lookups.
 *
 * Two calls get the same id exactly when their `callKey`s are equal, but no key text is built: each value gets an id
 * (strings and numbers through a map of their own, so `"1"`, `1` and `true` stay apart as their JSON texts do), and a
 * compound value is the chain of its children's ids, folded pair by pair through one table (an object's keys in
 * Python's code-point order, as `sort_keys` writes them). Building and hashing Python's JSON text for every call was
 * two thirds of the seed 002 workload; the chain costs a few integer map look-ups per argument.
 */
export class CallIndex {
  private readonly strings = new Map<string, number>();
  private readonly numbers = new Map<number, number>();
  /** Texts of the integers that only a `bigint` can hold (a `bigint` that fits a number is that number). */
  private readonly bigints = new Map<string, number>();
  private readonly packedPairs = new Map<number, number>();
  private readonly widePairs = new Map<string, number>();
  /** The call id of each (tool, arguments) pair id, by pair id (holes where an id is not a call's). */
  private readonly callIds: number[] = [];
  private callCount = 0;
  private next = FIRST_FREE;

  /** Number of distinct calls seen so far (every call id is below it). */
  get size(): number {
    return this.callCount;
  }

  /**
   * The ids of a trajectory's tool calls (`tool_call` steps), in order, duplicates kept. A plain array: a typed
   * array this size lives outside the heap, and allocating one per call was a tenth of the seed 002 workload.
   */
  calls(trajectory: Trajectory): number[] {
    const steps = trajectory.steps;
    const out: number[] = [];
    for (const step of steps) {
      if (step.step_type !== 'tool_call') continue;
      // `?? null`: a step read from JSON without the field has the seed dataclass's default, None.
      const tool = step.tool_name == null ? NULL : this.string(step.tool_name);
      // A pair id identifies its two halves, so (tool, arguments) is one id; only calls are looked up here.
      const pair = this.pair(tool, this.value(step.tool_input));
      let id = this.callIds[pair];
      if (id === undefined) {
        id = this.callCount++;
        this.callIds[pair] = id;
      }
      out.push(id);
    }
    return out;
  }

  /** The id of a value: equal ids exactly when `pythonJsonDumps` writes equal texts. */
  private value(v: unknown): number {
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
        return Array.isArray(v) ? this.array(v) : this.object(v as Record<string, unknown>);
      default:
        // undefined, functions, symbols: `pythonJsonDumps` writes them `null`.
        return NULL;
    }
  }

  /**
   * A compound value is the fold of its children through `pair`, from its tag: since a pair id names its two halves,
   * the final id names the tag and every child in order, so no end marker is needed (`[]` is `ARRAY` itself).
   */
  private array(list: readonly unknown[]): number {
    let id = ARRAY;
    for (let i = 0; i < list.length; i++) id = this.pair(id, this.value(list[i]));
    return id;
  }

  private object(record: Record<string, unknown>): number {
    // for-in walks the keys in Object.keys' order without building the array; when two keys are out of Python's
    // order (rare: most objects have one or two keys, often written sorted), start again from sorted keys.
    let id = OBJECT;
    let previous: string | undefined;
    for (const key in record) {
      if (!Object.hasOwn(record, key)) continue;
      if (previous !== undefined && compareCodePoints(previous, key) > 0) return this.sortedObject(record);
      previous = key;
      id = this.pair(this.pair(id, this.string(key)), this.value(record[key]));
    }
    return id;
  }

  private sortedObject(record: Record<string, unknown>): number {
    const keys = Object.keys(record);
    if (keys.length > 8) keys.sort(compareCodePoints);
    else insertionSort(keys);
    let id = OBJECT;
    for (const key of keys) id = this.pair(this.pair(id, this.string(key)), this.value(record[key]));
    return id;
  }

  private string(s: string): number {
    return this.intern(this.strings, s);
  }

  /**
   * Numbers are told apart by value, as their Python texts are (shortest round-trip digits, integers exactly);
   * `Map` keys compare by SameValueZero, so `0` and `-0` meet (both written `0`) and NaN meets NaN.
   */
  private number(x: number): number {
    return this.intern(this.numbers, x);
  }

  /** A `bigint` is written as its digits, which an integral number below 1e21 in magnitude also writes. */
  private bigint(b: bigint): number {
    const x = Number(b);
    if (Math.abs(x) < 1e21 && BigInt(x) === b) return this.number(x);
    return this.intern(this.bigints, b.toString());
  }

  /** The id of the ordered pair `(left, right)`: equal pairs, equal ids. */
  private pair(left: number, right: number): number {
    if (left < PACKED_LIMIT && right < PACKED_LIMIT)
      return this.intern(this.packedPairs, left * PACKED_LIMIT + right);
    return this.intern(this.widePairs, `${left},${right}`);
  }

  /** The id `map` holds for `key`, given the next free id when it holds none. */
  private intern<K>(map: Map<K, number>, key: K): number {
    let id = map.get(key);
    if (id === undefined) {
      id = this.next++;
      map.set(key, id);
    }
    return id;
  }
}

/** Sorts a few keys in code-point order in place (cheaper than `Array.prototype.sort` with a comparator for a few). */
function insertionSort(keys: string[]): void {
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i] as string;
    let j = i - 1;
    while (j >= 0 && compareCodePoints(keys[j] as string, key) > 0) {
      keys[j + 1] = keys[j] as string;
      j--;
    }
    keys[j + 1] = key;
  }
}

/** `size` zeros in a plain array, for per-call-id marks (see `CallIndex.calls` on why not a typed array). */
export function zeros(size: number): number[] {
  return filled(size, 0);
}

function filled(size: number, value: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < size; i++) out.push(value);
  return out;
}
