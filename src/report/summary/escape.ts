/**
 * Escaping for GitHub Actions workflow commands (`::error file=...,line=...::message`), as the Actions toolkit does
 * it (`@actions/core`, `command.ts`): a message may not hold a raw `%`, CR or LF; a property value not those, nor the
 * `:` and `,` that delimit properties.
 */
export function escapeCommandData(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

/** A workflow-command property value (`file=`, `title=`): `escapeCommandData` plus `:` and `,`. */
export function escapeCommandProperty(text: string): string {
  return escapeCommandData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

/**
 * Text for a Markdown table cell of the job summary. The text may come from an agent's note, so HTML is escaped
 * (GitHub renders the summary's inline HTML), `|` cannot end the cell and line breaks stay inside it.
 */
export function markdownCell(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('|', '\\|')
    .replace(/\r?\n/g, '<br>');
}
