/**
 * Python's `json.dumps(value, sort_keys=True)` with its defaults (`ensure_ascii=True`, separators `", "` and
 * `": "`), character for character. Seed 002 keys every tool call by `json.dumps(tool_input, sort_keys=True)`, so a
 * key that differs from Python's by one space or one escape would split or merge calls the reference keeps apart or
 * together; writing Python's exact text makes our keys equal Python's.
 *
 * Rules, after CPython's `json.encoder` (`encode_basestring_ascii`, `float.__repr__`, `sort_keys`):
 * - `null`, `true`, `false` as in JSON; a string is quoted, with `\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f`, and every
 *   other code unit outside `' '..'~'` as `\uXXXX` in lowercase hex (characters past U+FFFF as their surrogate
 *   pair, which is how CPython writes them too);
 * - object keys sorted by code point (Python's `str` order, not JavaScript's UTF-16 order);
 * - a number with an integral value below 1e21 in magnitude is written as Python writes an `int` (these are the
 *   numbers `JSON.stringify` writes without an exponent, so Python reads them back as `int`); any other as
 *   `float.__repr__` (shortest round-trip digits, scientific when the decimal exponent is below -4 or 16 and above,
 *   as `1e-05`, `1.5e+16`, `1e+300`).
 *
 * One divergence is unavoidable: `JSON.parse` cannot tell `1.0` from `1`, so a float literal with an integral value
 * (`{"n": 1.0}`, `{"n": 1e5}`) is written as an `int` here (`1`, `100000`) and as a float by Python (`1.0`,
 * `100000.0`). Every other JSON value gives Python's text. (needlework's JSON loader keeps an integer past 2^53 as its
 * decimal string, which is written here as a string; two such calls still compare equal to each other.)
 * `undefined` and functions (not JSON) are written `null`, as `JSON.stringify` does inside arrays.
 */
export function pythonJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return pythonNumber(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return value.toString();
    case 'object':
      break;
    default:
      return 'null';
  }
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ', ';
      out += pythonJsonDumps(value[i]);
    }
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length > 1) keys.sort(compareCodePoints);
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (i > 0) out += ', ';
    out += `${quote(key)}: ${pythonJsonDumps(record[key])}`;
  }
  return `${out}}`;
}

// Printable ASCII except `"` and `\` passes through; everything else is escaped.
const NEEDS_ESCAPE = /[^ !#-[\]-~]/;

function quote(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return `"${s}"`;
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c) {
      out += s[i];
      continue;
    }
    switch (c) {
      case 0x22:
        out += '\\"';
        break;
      case 0x5c:
        out += '\\\\';
        break;
      case 0x0a:
        out += '\\n';
        break;
      case 0x0d:
        out += '\\r';
        break;
      case 0x09:
        out += '\\t';
        break;
      case 0x08:
        out += '\\b';
        break;
      case 0x0c:
        out += '\\f';
        break;
      default:
        out += `\\u${c.toString(16).padStart(4, '0')}`;
    }
  }
  return `${out}"`;
}

/**
 * Python's `str` ordering: by code point. JavaScript's default sort compares UTF-16 code units, which puts a
 * character past U+FFFF (stored as a surrogate pair, 0xD800-0xDFFF) before U+E000-U+FFFF; Python puts it after. A
 * lone surrogate is its own code point, as in a Python `str`.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let k = 0; k < n; k++) {
    const x = a.charCodeAt(k);
    const y = b.charCodeAt(k);
    if (x === y) continue;
    // Away from surrogates, code units order as code points do; with one at the first difference, walk by code point.
    if ((x & 0xf800) !== 0xd800 && (y & 0xf800) !== 0xd800) return x - y;
    return compareByCodePoint(a, b);
  }
  return a.length - b.length;
}

function compareByCodePoint(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(i) as number;
    if (x !== y) return x - y;
    i += x > 0xffff ? 2 : 1;
  }
  return a.length - b.length;
}

/** An integral value below 1e21 as a Python `int`, any other as Python's `float.__repr__` (JSON spelling of NaN, ±inf). */
function pythonNumber(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Number.POSITIVE_INFINITY) return 'Infinity';
  if (x === Number.NEGATIVE_INFINITY) return '-Infinity';
  if (Number.isInteger(x) && Math.abs(x) < 1e21) {
    return Number.isSafeInteger(x) ? String(x === 0 ? 0 : x) : BigInt(x).toString();
  }
  return pythonFloatRepr(x);
}

/**
 * `float.__repr__` (CPython `float_repr_style == 'short'`): the shortest digits that round-trip (the same digits
 * JavaScript picks), laid out as `format(x, 'r')`: fixed notation when the decimal exponent is in [-4, 16), with at
 * least one digit after the point; otherwise `d.ddde±XX` with at least two exponent digits.
 */
export function pythonFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  const [mantissa, exp] = Math.abs(x).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  const e = Number(exp);
  if (e < -4 || e >= 16) {
    const body = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const magnitude = String(Math.abs(e)).padStart(2, '0');
    return `${sign}${body}e${e < 0 ? '-' : '+'}${magnitude}`;
  }
  if (e < 0) return `${sign}0.${'0'.repeat(-e - 1)}${digits}`;
  const whole = digits.length > e + 1 ? digits.slice(0, e + 1) : digits.padEnd(e + 1, '0');
  const frac = digits.length > e + 1 ? digits.slice(e + 1) : '0';
  return `${sign}${whole}.${frac}`;
}
