import { closest } from '../errors/closest.js';
import { UsageError } from '../errors/index.js';

/** How a flag is written on the command line: cac names `--out-dir` `outDir`. */
export function flagName(name: string): string {
  return `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** `value` (a flag's, as typed) as a number; a usage error naming the flag and what it expects when it is not one. */
function asNumber(value: unknown, flag: string, expected: string): number {
  // cac turns numeric-looking values into numbers; anything else stays the text typed (or `true` for no value).
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value)
        : NaN;
  if (!Number.isFinite(n)) throw new UsageError(`${flag} expects ${expected}, got ${typed(value)}`);
  return n;
}

/** A value as the user typed it, for a message. */
function typed(value: unknown): string {
  if (Array.isArray(value)) return `${value.length} values (${value.map(String).join(', ')})`;
  return String(value);
}

/** A `--flag <n>` that must be a whole number of at least `min`; undefined when not given. */
export function wholeNumber(options: Record<string, unknown>, name: string, min = 1): number | undefined {
  const value = options[name];
  if (value === undefined) return undefined;
  const expected = min === 0 ? 'a whole number (0 or more)' : `a whole number of at least ${min}`;
  const n = asNumber(value, flagName(name), expected);
  if (!Number.isInteger(n) || n < min)
    throw new UsageError(`${flagName(name)} expects ${expected}, got ${typed(value)}`);
  return n;
}

/**
 * A `--flag <x>` that must be a number (non-negative unless `negative`); undefined when not given. Ranges narrower
 * than that (a significance level) are checked where the value is used.
 */
export function numberOption(
  options: Record<string, unknown>,
  name: string,
  { negative = false }: { negative?: boolean } = {},
): number | undefined {
  const value = options[name];
  if (value === undefined) return undefined;
  const expected = negative ? 'a number' : 'a non-negative number';
  const n = asNumber(value, flagName(name), expected);
  if (!negative && n < 0) throw new UsageError(`${flagName(name)} expects ${expected}, got ${typed(value)}`);
  return n;
}

/** A `--flag <value>` given at most once; undefined when not given. cac makes a repeated flag an array. */
export function single(options: Record<string, unknown>, name: string, what: string): string | undefined {
  const value = options[name];
  if (value === undefined) return undefined;
  if (Array.isArray(value))
    throw new UsageError(`${flagName(name)} takes one ${what}; it was given ${value.length} times`);
  return String(value);
}

/** What a command accepts, as cac keeps it: each option's raw spelling (`--out-dir <dir>`, `--nli-model, --model <dir>`). */
interface OptionsOf {
  options: ReadonlyArray<{ rawName: string }>;
}

/**
 * cac's "Unknown option `--watchh`", with the nearest option of the command (or the global ones) it may have meant:
 * "unknown option --watchh (did you mean --watch?)". Other messages are returned as they are.
 */
export function explainUnknownOption(
  message: string,
  command: OptionsOf | undefined,
  global: OptionsOf,
): string {
  const unknown = /^Unknown option `(-{1,2})([^`]+)`$/.exec(message);
  if (!unknown) return message;
  const typedFlag = unknown[1] === '-' ? `-${unknown[2]}` : flagName(unknown[2]!);
  const flags = [...(command?.options ?? []), ...global.options].flatMap(
    (o) => o.rawName.match(/--?[A-Za-z][\w-]*/g) ?? [],
  );
  // A one-letter typo is too short to guess from (`-2` is no near miss of `-h`).
  const near = unknown[1] === '-' ? undefined : closest(typedFlag, flags);
  return `unknown option ${typedFlag}${near ? ` (did you mean ${near}?)` : ''}`;
}
