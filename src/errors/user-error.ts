import { type Diagnostic, formatDiagnostic } from './diagnostic.js';

/**
 * A mistake in the user's input (a file that does not parse, a spec that breaks its schema, a path that does not
 * exist). The CLI prints its message without a stack trace and exits 1; anything else is a bug in needlework and is
 * printed with its stack.
 */
export class UserError extends Error {
  override name = 'UserError';
  readonly diagnostics: readonly Diagnostic[];

  constructor(diagnostics: Diagnostic | readonly Diagnostic[]) {
    const list = Array.isArray(diagnostics) ? diagnostics : [diagnostics as Diagnostic];
    super(list.map(formatDiagnostic).join('\n'));
    this.diagnostics = list;
  }
}

/** A command line that cannot be run as written (a missing argument, an unknown flag). The CLI exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export function isUserError(error: unknown): error is UserError {
  return error instanceof UserError;
}
