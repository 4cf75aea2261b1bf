/**
 * A value as JSON data, exactly as `loadWorkup` would read it back from the JSON the recorder writes, so a recorded
 * workup equals its saved and reloaded self:
 * - an integer beyond Number.MAX_SAFE_INTEGER (a `bigint`, or a `number` that lost precision) becomes its decimal
 *   string, as the loader keeps such integers (a `number` as JSON prints it: that is all it still holds);
 * - `toJSON` is honoured (a `Date` becomes its ISO string); `NaN` and infinities become `null`, `-0` becomes `0`;
 * - `undefined`, functions and symbols are dropped from objects and become `null` in arrays;
 * - a `Map` becomes an object, a `Set` an array; a cycle becomes the string `[Circular]`.
 * A value that already is such data is returned as it is (not copied). Tool outputs come from arbitrary code, so this
 * never throws.
 */
export function plain(value: unknown): unknown {
  // Most tool inputs and outputs already are JSON data: checked without allocating, and kept as they are.
  return isJsonData(value, 0) ? value : convert(value, new Set());
}

/** Deeper than this, a value is copied by `convert`, which detects cycles. */
const MAX_CHECKED_DEPTH = 64;

/** True when `value` is JSON data that reads back the same: plain objects and arrays of safe values, no cycle. */
function isJsonData(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return (
        Number.isFinite(value) &&
        !Object.is(value, -0) &&
        (!Number.isInteger(value) || Number.isSafeInteger(value))
      );
    case 'object': {
      if (value === null) return true;
      if (depth >= MAX_CHECKED_DEPTH) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!isJsonData(value[i], depth + 1)) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return false;
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
      for (const key in value) {
        if (!isJsonData((value as Record<string, unknown>)[key], depth + 1)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

function convert(value: unknown, path: Set<object>): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) return null;
      if (Number.isInteger(value) && !Number.isSafeInteger(value) && Math.abs(value) < 1e21)
        return String(value);
      return value === 0 ? 0 : value;
    case 'bigint':
      return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
        ? Number(value)
        : value.toString();
    case 'object':
      return value === null ? null : object(value, path);
    default:
      return undefined;
  }
}

function object(value: object, path: Set<object>): unknown {
  if (path.has(value)) return '[Circular]';
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    try {
      return convert(toJSON.call(value), path);
    } catch {
      return String(value);
    }
  }
  path.add(value);
  try {
    if (Array.isArray(value) || value instanceof Set) {
      return Array.from(value as Iterable<unknown>, (item) => convert(item, path) ?? null);
    }
    const entries = value instanceof Map ? [...value] : Object.entries(value);
    const out: Record<string, unknown> = {};
    for (const [key, item] of entries) {
      const converted = convert(item, path);
      if (converted !== undefined) out[String(key)] = converted;
    }
    return out;
  } finally {
    path.delete(value);
  }
}
