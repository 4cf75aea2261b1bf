import { describe, expect, it } from 'vitest';
import { jsonTooDeep, MAX_DEPTH } from '../../src/parse/depth.js';

describe('jsonTooDeep', () => {
  it('finds the first bracket past the limit, and none at the limit', () => {
    const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
    expect(jsonTooDeep(nested(MAX_DEPTH))).toBe(-1);
    expect(jsonTooDeep(nested(MAX_DEPTH + 1))).toBe(MAX_DEPTH);
    // The object opens level 1: its list's 512th bracket, at offset 6 + 511, is level 513.
    expect(jsonTooDeep(`{"a": ${nested(MAX_DEPTH + 5)}}`)).toBe(6 + MAX_DEPTH - 1);
  });

  it('counts no bracket inside a string, however many there are', () => {
    const shallow = JSON.stringify({ text: '[{'.repeat(2 * MAX_DEPTH), list: [[{ a: '[' }]] });
    expect(jsonTooDeep(shallow)).toBe(-1);
    // Past those strings, the nesting still counts.
    expect(jsonTooDeep(`[${shallow},${'['.repeat(MAX_DEPTH)}]`)).toBe(1 + shallow.length + 1 + MAX_DEPTH - 1);
  });
});
