import { isInteger, isSafeNumber, parse as parseLossless } from 'lossless-json';
import { UserError } from '../errors/index.js';
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

export interface ParseJsonOptions {
  /**
   * Give integers past 2^53 as `bigint` instead of decimal strings, where a reader must tell a number from a string
   * (span ids written as integers by some SDKs, as hex text by others). @default false
   */
  bigints?: boolean;
}

/**
 * Parses JSON, keeping every integer that exceeds JavaScript's safe range (trace ids, span ids, snowflake ids)
 * exactly, as its decimal string, instead of rounding it. A syntax error becomes a `UserError` at its line and
 * column in `file`; `lineOffset` places a JSONL line within its file.
 */
export function parseJson(
  text: string,
  file: string,
  lineOffset = 0,
  options: ParseJsonOptions = {},
): unknown {
  try {
    if (!LONG_DIGITS.test(text)) return JSON.parse(text);
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
