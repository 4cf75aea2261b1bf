import { type Diagnostic, UserError } from '../errors/index.js';
import { type ParseJsonOptions, parseJson } from './json.js';
import { jsonLocator } from './json-places.js';
import { checkSchema, type SchemaName } from './schema.js';

/** How many problems one file reports before it summarises the rest. */
export const MAX_REPORTED = 50;

/**
 * The first `max` problems of a file, and a last line counting the rest: a file with 100,000 problems is told in a
 * screenful, and says how many it has.
 */
export function firstProblems(
  problems: readonly Diagnostic[],
  file: string,
  what: string,
  max = MAX_REPORTED,
): Diagnostic[] {
  if (problems.length <= max) return [...problems];
  const shown = problems.slice(0, max);
  shown.push({ file, message: `and ${problems.length - max} more problems in this ${what}` });
  return shown;
}

/**
 * A JSON text checked against a shipped schema: its value, or a `UserError` with every problem at its line and column
 * (the text is scanned once for all of them). Integers past 2^53 stay exact (see `parseJson`).
 */
export function parseJsonDocument<T>(
  name: SchemaName,
  text: string,
  file: string,
  what: string,
  options: ParseJsonOptions = {},
): T {
  const value = parseJson(text, file, 0, options);
  const problems = checkSchema(name, value, file, jsonLocator(text));
  if (problems.length > 0) throw new UserError(firstProblems(problems, file, what));
  return value as T;
}
