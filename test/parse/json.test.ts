import { describe, expect, it } from 'vitest';
import { parseJson } from '../../src/parse/json.js';

describe('parseJson keeps integers past 2^53 exact', () => {
  const text =
    '{"trace_id": 200754113673326459792359196831899614724, "ids": [10398286333944367643, 42, -9007199254740993],' +
    ' "time": "1780394410000000000", "nested": "{\\"id\\": 12345678901234567890}", "safe": 1000000000000000,' +
    ' "real": 12345678901234567.5}';

  it('as decimal strings by default, leaving digit runs inside strings alone', () => {
    expect(parseJson(text, 'f')).toEqual({
      trace_id: '200754113673326459792359196831899614724',
      ids: ['10398286333944367643', 42, '-9007199254740993'],
      time: '1780394410000000000',
      nested: '{"id": 12345678901234567890}',
      safe: 1000000000000000,
      real: 12345678901234568,
    });
  });

  it('as bigints when asked, so a reader can tell an integer from hex text', () => {
    expect(parseJson(text, 'f', 0, { bigints: true })).toMatchObject({
      trace_id: 200754113673326459792359196831899614724n,
      ids: [10398286333944367643n, 42, -9007199254740993n],
      time: '1780394410000000000',
    });
  });

  it('reads a text whose only long integers are inside strings with the native parser, and a string that looks like the marker as it is', () => {
    expect(parseJson('{"a": "x: 12345678901234567890}"}', 'f')).toEqual({ a: 'x: 12345678901234567890}' });
    expect(parseJson('["\\u0000int:5", 12345678901234567890]', 'f')).toEqual([
      '\u0000int:5',
      '12345678901234567890',
    ]);
  });
});
