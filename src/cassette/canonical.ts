import { createHash } from 'node:crypto';
import { isSecretKey, REDACTED, redactSecrets } from './secrets.js';

/**
 * JSON with object keys in byte order at every level, so equal values always serialise to equal text. Written in one
 * pass (no sorted copy of the value is made): the text of `JSON.stringify` of the value with every object's keys
 * sorted, `undefined`, function and symbol members left out (`null` in arrays), and `toJSON` not called (values are
 * JSON data by the time they are keyed: see the recorder's `plain`).
 */
export function stableJson(value: unknown): string {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') {
    return undefined as unknown as string; // as JSON.stringify gives for them
  }
  return write(value, false);
}

/**
 * `stableJson(redactSecrets(value))`, in one pass and without the redacted copy: the text a request is keyed by when
 * only its key is needed (a replay that finds it).
 */
export function redactedStableJson(value: unknown): string {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') {
    return undefined as unknown as string;
  }
  memoOn = true;
  try {
    return write(value, true);
  } finally {
    memoOn = false;
  }
}

/**
 * The canonical text of array items seen before, by their `JSON.stringify` text: an agent's model calls resend the
 * whole conversation each step, so all but the newest messages were made canonical already. Sound for JSON data (what
 * a cassette keys: see the recorder's `plain`), where equal `JSON.stringify` text means equal keys and values, and so
 * equal canonical text; used only by `redactedStableJson`, one level at a time (an item found in no memo is written
 * without looking its own items up). Cleared when it holds more than `MEMO_MAX_CHARS`.
 */
const memo = new Map<string, string>();
let memoChars = 0;
let memoOn = false;
/** Items shorter than this are written directly: looking them up would cost about as much. */
const MEMO_MIN_CHARS = 64;
const MEMO_MAX_CHARS = 16_000_000;

function writeItem(item: unknown, redact: boolean): string {
  if (!memoOn || item === null || typeof item !== 'object') return write(item, redact);
  const json = JSON.stringify(item);
  if (json === undefined || json.length < MEMO_MIN_CHARS) return write(item, redact);
  let text = memo.get(json);
  if (text === undefined) {
    memoOn = false;
    try {
      text = write(item, redact);
    } finally {
      memoOn = true;
    }
    if (memoChars + json.length + text.length > MEMO_MAX_CHARS) {
      memo.clear();
      memoChars = 0;
    }
    memo.set(json, text);
    memoChars += json.length + text.length;
  }
  return text;
}

/** Characters a JSON string must escape (and lone surrogates, which `JSON.stringify` writes as escapes). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

const QUOTED_REDACTED = JSON.stringify(REDACTED);

/** A string as JSON text: quoted as it is unless it holds a character to escape (then as `JSON.stringify` writes it). */
function quoted(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

function write(value: unknown, redact: boolean): string {
  switch (typeof value) {
    case 'string':
      return quoted(redact ? (redactSecrets(value) as string) : value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return JSON.stringify(value); // throws, as JSON.stringify does
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out += ',';
          const item = value[i];
          out +=
            item === undefined || typeof item === 'function' || typeof item === 'symbol'
              ? 'null'
              : writeItem(item, redact);
        }
        return `${out}]`;
      }
      const keys = sortedKeys(value);
      let out = '{';
      let first = true;
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i]!;
        const item = (value as Record<string, unknown>)[key];
        // As `redactSecrets` does: a credential-named key's value (but null) becomes the placeholder, whatever it is.
        const secret = redact && item !== null && item !== undefined && isSecretKey(key);
        if (!secret && (item === undefined || typeof item === 'function' || typeof item === 'symbol'))
          continue;
        if (first) first = false;
        else out += ',';
        out += `${quoted(key)}:${secret ? QUOTED_REDACTED : write(item, redact)}`;
      }
      return `${out}}`;
    }
    default:
      return 'null';
  }
}

/**
 * An object's own enumerable keys in the order a copy made with its keys sorted would list them: array-index keys
 * first, ascending (JavaScript lists them so in any object, whatever order they were added in), then the others in
 * code-unit order, as `Array.prototype.sort` orders strings; never `__proto__`. Objects have few keys, so an insertion sort of the keys
 * `for...in` gives (index keys first already) beats `Object.keys(...).sort()`.
 */
function sortedKeys(value: object): string[] {
  const keys: string[] = [];
  // An own `__proto__` key (JSON.parse makes them) is left out: the sorted copy's assignment never made it a key, and
  // the keys of cassettes written so far are hashed from that copy's text.
  for (const key in value) if (Object.hasOwn(value, key) && key !== '__proto__') keys.push(key);
  let start = 0;
  while (start < keys.length && isIndex(keys[start]!)) start++;
  for (let i = start + 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    while (j >= start && keys[j]! > key) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}

function isIndex(key: string): boolean {
  const first = key.charCodeAt(0);
  return first >= 48 && first <= 57 && /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 4294967295;
}

/** SHA-256 (hex) of a value's `stableJson`: the key a cassette files a request under. */
export function hashOf(value: unknown): string {
  return createHash('sha256').update(stableJson(value)).digest('hex');
}
