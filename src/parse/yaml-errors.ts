import type { Diagnostic } from '../errors/index.js';
import type { LineIndex } from './position.js';

/** How many YAML errors of one file are reported, each placed; the rest are counted (or, past a broken stretch, unread). */
export const MAX_YAML_ERRORS = 1000;

/** The `yaml` package's message for a key used twice in one mapping. */
export const DUPLICATE_KEY = 'Map keys must be unique';

/**
 * The first `MAX_YAML_ERRORS` errors as diagnostics at their line and column (placed in the text itself), and after
 * them `more`, by default how many others there are, when there are others.
 */
export function yamlErrors(
  errors: ReadonlyArray<{ offset: number; message: string }>,
  index: LineIndex,
  file: string,
  more = `and ${errors.length - MAX_YAML_ERRORS} more YAML errors`,
): Diagnostic[] {
  const diagnostics = errors.slice(0, MAX_YAML_ERRORS).map((error): Diagnostic => {
    const { line, column } = index.position(error.offset);
    return { file, line, column, message: firstLine(error.message) };
  });
  if (errors.length > MAX_YAML_ERRORS) diagnostics.push({ file, message: more });
  return diagnostics;
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}
