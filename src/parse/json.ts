import {
  isInteger,
  isSafeNumber,
  parse as parseLossless,
  stringify as stringifyLossless,
} from 'lossless-json';
import { UserError } from '../errors/index.js';
import { jsonTooDeep, TOO_DEEP } from './depth.js';
import { LineIndex } from './position.js';

// A run of 16 or more digits is the only way a JSON text can hold an integer past Number.MAX_SAFE_INTEGER
// (9007199254740991 has 16). Texts without one take the fast native parser.
const LONG_DIGITS = /\d{16,}/;

function keepUnsafeIntegers(value: string): number | string {
  return isInteger(value) && !isSafeNumber(value) ? value : Number(value);
}

function keepUnsafeBigints(value: string): number | bigint {
  return isInteger(value) && !isSafeNumber(value) ? BigInt(value) : Number(value);
}

// A long digit run where a JSON number stands: after `:`, `[` or `,`, before `,`, `]` or `}`.
const LONG_NUMBER = /([:[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g;
const MARK = '\u0000int:';
const NOT_FAST = Symbol('not fast');

/**
 * The native parser with every long integer quoted and marked first (`12345678901234567890` becomes the string
 * `"\u0000int:12345678901234567890"`), then turned back by a reviver: 10-20x faster than lossless-json on large
 * files. A digit run inside a string (ids and nanosecond times in OTLP) is left as it is. Should a match fall inside a
 * string after all, the inserted quote ends that string before a backslash, which is never valid JSON, so the native
 * parser fails and the caller falls back to lossless-json: the result is exact either way.
 */
function parseMarked(text: string, convert: (digits: string) => unknown): unknown {
  // A text that already holds the marker (escaped or raw) could be misread: lossless-json reads it.
  if (text.includes('u0000int:') || text.includes(MARK)) return NOT_FAST;
  let marked = false;
  const quoted = text.replace(LONG_NUMBER, (_, head: string, digits: string) => {
    marked = true;
    return `${head}"\\u0000int:${digits}"`;
  });
  try {
    if (!marked) return JSON.parse(text);
    return restore(JSON.parse(quoted), convert);
  } catch {
    return NOT_FAST;
  }
}

/**
 * Turns the marked strings of a parsed value back into integers, in place. A plain walk rather than a `JSON.parse`
 * reviver, which V8 runs several times slower on large files.
 */
function restore(root: unknown, convert: (digits: string) => unknown): unknown {
  const fix = (value: unknown): unknown =>
    typeof value === 'string' && value.startsWith(MARK) ? convert(value.slice(MARK.length)) : value;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const value = node[i];
        if (typeof value === 'object' && value !== null) stack.push(value);
        else node[i] = fix(value);
      }
    } else if (typeof node === 'object' && node !== null) {
      const record = node as Record<string, unknown>;
      for (const key in record) {
        const value = record[key];
        if (typeof value === 'object' && value !== null) stack.push(value);
        else if (typeof value === 'string') record[key] = fix(value);
      }
    }
  }
  return fix(root);
}

export interface ParseJsonOptions {
  /**
   * Give integers past 2^53 as `bigint` instead of decimal strings, where a reader must tell a number from a string
   * (span ids written as integers by some SDKs, as hex text by others). @default false
   */
  bigints?: boolean;
}

/**
 * Parses JSON, keeping every integer that exceeds JavaScript's safe range (trace ids, span ids, snowflake ids)
 * exactly, as its decimal string, instead of rounding it. A syntax error, or nesting deeper than `MAX_DEPTH`, becomes
 * a `UserError` at its line and column in `file`; `lineOffset` places a JSONL line within its file.
 */
export function parseJson(
  text: string,
  file: string,
  lineOffset = 0,
  options: ParseJsonOptions = {},
): unknown {
  const deep = jsonTooDeep(text);
  if (deep !== -1) {
    const where = new LineIndex(text).position(deep);
    throw new UserError({ file, line: where.line + lineOffset, column: where.column, message: TOO_DEEP });
  }
  try {
    if (!LONG_DIGITS.test(text)) return JSON.parse(text);
    const fast = parseMarked(text, options.bigints ? keepUnsafeBigints : keepUnsafeIntegers);
    if (fast !== NOT_FAST) return fast;
    return parseLossless(text, undefined, options.bigints ? keepUnsafeBigints : keepUnsafeIntegers);
  } catch (error) {
    throw syntaxError(text, file, lineOffset, error);
  }
}

/**
 * V8's JSON errors carry no position on Node 20, so the text is read again by lossless-json, whose errors say what
 * was expected and at which offset (only on this error path).
 */
function syntaxError(text: string, file: string, lineOffset: number, first: unknown): UserError {
  let message = first instanceof Error ? first.message : String(first);
  try {
    parseLossless(text);
  } catch (error) {
    if (error instanceof Error) message = error.message;
  }
  const at = / at position (\d+)/.exec(message);
  const where = at ? new LineIndex(text).position(Number(at[1])) : undefined;
  const reason = message.replace(/ at position \d+/, '');
  return new UserError({
    file,
    line: (where?.line ?? 1) + lineOffset,
    ...(where && { column: where.column }),
    message: text.trim() === '' ? 'expected a JSON value, found nothing' : `invalid JSON: ${reason}`,
  });
}

/**
 * `JSON.stringify` that also writes a `bigint` (an integer past 2^53 read with `bigints`), as the exact number it is
 * (`9007199254740993`, never rounded nor quoted), where `JSON.stringify` throws "Do not know how to serialize a
 * BigInt". Values without a bigint take the native path; only those with one pay for lossless-json's writer.
 */
export function stringifyJson(value: unknown, space?: number): string | undefined {
  try {
    return JSON.stringify(value, null, space);
  } catch (error) {
    if (!(error instanceof TypeError) || !/BigInt/i.test(error.message)) throw error;
    return stringifyLossless(value, undefined, space);
  }
}
