import { describe, expect, it } from 'vitest';
import { formatValue } from '../../src/report/format.js';
import { stripAnsi, stripXmlForbidden, xmlSafe } from '../../src/report/text.js';

describe('stripAnsi', () => {
  it('removes colours, cursor moves and OSC 8 hyperlinks, and keeps the text', () => {
    expect(stripAnsi('\u001b[1m\u001b[31mred\u001b[39m\u001b[22m \u001b[2K\u001b[1Gdone')).toBe('red done');
    expect(stripAnsi('see \u001b]8;;https://x.test\u0007the docs\u001b]8;;\u0007.')).toBe('see the docs.');
    expect(stripAnsi('\u009b31mC1 form\u009b0m')).toBe('C1 form');
  });
});

describe('stripXmlForbidden', () => {
  it('keeps tab, newline, carriage return and astral characters; drops controls, lone surrogates and U+FFFE/F', () => {
    expect(stripXmlForbidden('a\tb\nc\rd')).toBe('a\tb\nc\rd');
    expect(stripXmlForbidden('x\u0000\u0001\u000b\u001fy')).toBe('xy');
    expect(stripXmlForbidden('\uD83D\uDE00 ok \uD800 \uDC00 \uFFFE\uFFFF')).toBe('\u{1F600} ok   ');
  });

  it('xmlSafe does both, colour codes first', () => {
    expect(xmlSafe('\u001b[31mbad\u0007\u001b[0m')).toBe('bad');
  });
});

describe('formatValue', () => {
  it('writes scores to three decimals, counts with their unit, booleans and n/a', () => {
    expect(formatValue(0.123456)).toBe('0.123');
    expect(formatValue(4, 'queries')).toBe('4 queries');
    expect(formatValue(true)).toBe('yes');
    expect(formatValue(null)).toBe('n/a');
  });
});
