import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonLocator } from '../../src/parse/json-places.js';
import { documentPlaces } from '../helpers/yaml-document.js';

/** Every data path of a JSON value, as `locate` takes them. */
function paths(value: unknown, prefix: string[] = [], out: string[][] = []): string[][] {
  out.push(prefix);
  if (Array.isArray(value)) for (const [i, item] of value.entries()) paths(item, [...prefix, String(i)], out);
  else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) paths(item, [...prefix, key], out);
  return out;
}

describe('jsonLocator', () => {
  it('places every value and key where the yaml package places them, from one scan', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), fc.constantFrom(undefined, 2), (value, indent) => {
        const text = JSON.stringify({ root: value }, null, indent);
        const reference = documentPlaces(text);
        const place = jsonLocator(text);
        for (const path of paths(JSON.parse(text))) {
          expect(place(path)).toEqual(reference(path));
          if (path.length > 0) {
            const parent = path.slice(0, -1);
            const key = path.at(-1)!;
            expect(place(parent, key)).toEqual(reference(parent, key));
          }
        }
      }),
      { numRuns: 300, seed: 25 },
    );
  });

  it('places a path that leaves the document at its nearest existing parent', () => {
    const text = '{\n  "steps": [\n    {"step_id": 1}\n  ]\n}';
    const place = jsonLocator(text);
    expect(place(['steps', '0', 'tool_name'])).toEqual({ line: 3, column: 5 });
    expect(place(['steps', '7'])).toEqual({ line: 2, column: 12 });
    expect(place(['steps', '0'], 'step_id')).toEqual({ line: 3, column: 6 });
  });
});
