import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareCodePoints,
  pythonFloatRepr,
  pythonJsonDumps,
} from '../../src/metrics/trajectory/python-json.js';
import { jsonValue } from '../reference/arbitraries.js';
import { pythonUnavailable, runReference } from '../reference/python.js';

describe('pythonJsonDumps writes json.dumps(x, sort_keys=True)', () => {
  it.each([
    [{ b: 1, a: [1, 2, { d: null, c: true }] }, '{"a": [1, 2, {"c": true, "d": null}], "b": 1}'],
    [{}, '{}'],
    [[], '[]'],
    [null, 'null'],
    [
      'caf\u00e9 \u{1f600} "q" \\ \n\t\u0007\u007f',
      '"caf\\u00e9 \\ud83d\\ude00 \\"q\\" \\\\ \\n\\t\\u0007\\u007f"',
    ],
    [{ '\u{1f600}': 1, '\uff01': 2, z: 3 }, '{"z": 3, "\\uff01": 2, "\\ud83d\\ude00": 1}'],
    [
      [0.1, 1.25e-10, 1e-5, 0.0001, 123.456, -2.5e-7, 1e21, 1e300],
      '[0.1, 1.25e-10, 1e-05, 0.0001, 123.456, -2.5e-07, 1e+21, 1e+300]',
    ],
    [[1, -0, 9007199254740994, 1e20], '[1, 0, 9007199254740994, 100000000000000000000]'],
  ])('%j', (value, text) => {
    expect(pythonJsonDumps(value)).toBe(text);
  });

  it('writes floats as float.__repr__', () => {
    expect(pythonFloatRepr(1e16)).toBe('1e+16');
    expect(pythonFloatRepr(1234567890123456.8)).toBe('1234567890123456.8');
    expect(pythonFloatRepr(5e-324)).toBe('5e-324');
    expect(pythonFloatRepr(-0)).toBe('-0.0');
    expect(pythonFloatRepr(2)).toBe('2.0');
  });

  it('orders keys by code point, lone surrogates included', () => {
    expect(['\u{1f600}', '\uff01', '\ud800', 'a'].sort(compareCodePoints)).toEqual([
      'a',
      '\ud800',
      '\uff01',
      '\u{1f600}',
    ]);
  });

  it('gives the same text as CPython on 3,000 generated JSON values (live python3)', (ctx) => {
    if (pythonUnavailable) return ctx.skip(pythonUnavailable);
    const values = fc.sample(jsonValue, { numRuns: 3000, seed: 11 });
    const py = runReference<string[]>('json_dumps.py', values);
    values.forEach((v, i) => {
      expect(pythonJsonDumps(v), JSON.stringify(v)).toBe(py[i]);
    });
  });
});
