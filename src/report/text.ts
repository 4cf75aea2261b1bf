/**
 * Text hygiene for reports. Everything a report shows may come from an agent or a test's error message, so it is
 * cleaned before it reaches a terminal-free file: colour codes stripped (a CI page shows them as `[31m` noise), and
 * characters XML 1.0 cannot represent removed (a single one makes the whole JUnit file unparseable for Jenkins).
 */

// CSI sequences (colours, cursor moves; ESC [ or the one-byte C1 form), OSC sequences (hyperlinks, titles) and the
// remaining two-byte escapes, as terminals and picocolors emit them.
const ANSI =
  /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

/** Removes terminal escape sequences (colours, hyperlinks) from text. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

// XML 1.0 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]. Everything else, lone
// surrogates included, is removed; the `u` flag makes a valid surrogate pair one code point so it survives.
const XML_FORBIDDEN = /[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

/** Removes every character XML 1.0 forbids (control characters, lone surrogates, U+FFFE/U+FFFF). */
export function stripXmlForbidden(text: string): string {
  return text.replace(XML_FORBIDDEN, '');
}

/** Text fit for an XML attribute or text node: colour codes stripped, forbidden characters removed. */
export function xmlSafe(text: string): string {
  return stripXmlForbidden(stripAnsi(text));
}
