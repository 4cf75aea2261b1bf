/**
 * One problem found in a user's file: where it is and what was expected. Every loader reports bad input as
 * diagnostics, so the CLI, the Vitest plugin and the library all print the same `file:line:column: message`.
 */
export interface Diagnostic {
  /** The file (or folder) the problem is in, as the user named it. */
  file: string;
  /** 1-based line, when the problem has a place in a text file. */
  line?: number;
  /** 1-based column, when the problem has a place in a text file. */
  column?: number;
  /** The message: the data path when there is one, then what was expected. */
  message: string;
}

/** `file:line:column: message`, leaving out what is unknown. */
export function formatDiagnostic(d: Diagnostic): string {
  let where = d.file;
  if (d.line !== undefined) {
    where += `:${d.line}`;
    if (d.column !== undefined) where += `:${d.column}`;
  }
  return `${where}: ${d.message}`;
}
