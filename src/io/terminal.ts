/**
 * Text from outside (a judge server's answer or error body, an agent's output, a file name) made safe to print on a
 * terminal. A terminal obeys the control characters in what it prints: `ESC ]0;...BEL` retitles the window,
 * `ESC [2J` clears it, a carriage return overwrites the line, and bidirectional overrides reorder what a reader sees
 * (CVE-2021-42574, "Trojan Source"). Each is written out as a visible escape instead (`\x1b`, `\r`, `\u202e`), so
 * the text reads the same and does nothing. Line feeds and tabs stay, being layout rather than commands.
 *
 * Escaped: C0 controls but tab and line feed (U+0000-U+0008, U+000B-U+001F), DEL (U+007F), the C1 controls
 * (U+0080-U+009F, among them the one-byte CSI U+009B), and the bidirectional embeddings, overrides and isolates
 * (U+202A-U+202E, U+2066-U+2069), the Unicode Bidirectional Algorithm's explicit formatting characters (UAX #9,
 * section 2).
 */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, escapeOne);
}

function escapeOne(char: string): string {
  const code = char.charCodeAt(0);
  if (code === 0x0d) return '\\r';
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}
