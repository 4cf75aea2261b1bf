import { describe, expect, it } from 'vitest';
import { terminalSafe } from '../../src/io/terminal.js';

describe('terminalSafe', () => {
  it('writes out the escape sequences that retitle and clear a terminal, so they do nothing', () => {
    expect(terminalSafe('ok\u001b]0;pwned\u0007\u001b[2Jdone')).toBe('ok\\x1b]0;pwned\\x07\\x1b[2Jdone');
  });

  it('escapes carriage returns, DEL, the one-byte CSI and the other C1 controls', () => {
    expect(terminalSafe('real\rfake')).toBe('real\\rfake');
    expect(terminalSafe('a\u007fb\u009b2Jc\u0085')).toBe('a\\x7fb\\x9b2Jc\\x85');
    expect(terminalSafe('\u0000\u0008\u000b\u000c\u001f')).toBe('\\x00\\x08\\x0b\\x0c\\x1f');
  });

  it('escapes bidirectional overrides and isolates (Trojan Source), which reorder what a reader sees', () => {
    expect(terminalSafe('admin\u202e\u2066txt')).toBe('admin\\u202e\\u2066txt');
  });

  it('keeps line feeds, tabs and every printable character, astral ones included, and is idempotent', () => {
    const text = 'line 1\n\tline 2: café, 漢字, 🧵, «quotes»';
    expect(terminalSafe(text)).toBe(text);
    const once = terminalSafe('\u001b[31mred\u001b[0m');
    expect(terminalSafe(once)).toBe(once);
  });
});
