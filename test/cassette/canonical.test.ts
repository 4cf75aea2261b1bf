// The one-pass canonical JSON must give the very text the sorted-copy version gave, or every recorded cassette's keys
// would change: checked against that version (kept here as the reference) on generated values.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactedStableJson, stableJson } from '../../src/cassette/canonical.js';
import { redactSecrets } from '../../src/cassette/secrets.js';

/** The earlier stableJson: a copy with every object's keys sorted, then JSON.stringify. */
function reference(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) out[key] = sortKeys(v);
  }
  return out;
}

describe('stableJson', () => {
  it('gives the text of the sorted copy, for JSON values and for objects holding undefined, NaN, -0, dates, escapes, lone surrogates or index keys', () => {
    const loose = fc.anything({
      values: [
        fc.string(),
        fc.string({ unit: 'binary' }),
        fc.double(),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.constant(undefined),
        fc.date({ noInvalidDate: true }),
      ],
      withNullPrototype: true,
      key: fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.nat().map(String)),
    });
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), loose), (value) => {
        expect(stableJson(value)).toBe(reference(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('redactedStableJson is stableJson of the redacted value, in one pass', () => {
    const key = fc.oneof(
      fc.string(),
      fc.constantFrom('apiKey', 'x-api-key', 'password', 'tokens', 'Authorization'),
    );
    const leaf = fc.oneof(
      fc.jsonValue(),
      fc.constant(undefined),
      fc.constant('Bearer abcdefgh12345678'),
      fc.constant('sk-proj-abcdefghijklmnopqrstuv'),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node')), fc.dictionary(key, tie('node'))),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        expect(redactedStableJson(v)).toBe(stableJson(redactSecrets(v)));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives the same text for a conversation resent with one more message, its messages written once', () => {
    const message = fc.record({
      role: fc.constantFrom('user', 'assistant', 'tool'),
      content: fc.array(
        fc.record({ type: fc.constant('text'), text: fc.string({ minLength: 40 }), apiKey: fc.string() }),
        { minLength: 1, maxLength: 3 },
      ),
    });
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 8 }), (messages) => {
        for (let n = 1; n <= messages.length; n++) {
          const args = { prompt: messages.slice(0, n), temperature: 0 };
          expect(redactedStableJson(args)).toBe(stableJson(redactSecrets(args)));
          // The same messages with their keys in another order: other JSON text, the same canonical text.
          const reordered = {
            temperature: 0,
            prompt: args.prompt.map(({ role, content }) => ({ content, role })),
          };
          expect(redactedStableJson(reordered)).toBe(stableJson(redactSecrets(args)));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('sorts keys at every depth and leaves out what JSON leaves out', () => {
    expect(stableJson(JSON.parse('{"__proto__":{"a":1},"b":2}'))).toBe('{"b":2}');
    expect(stableJson({ b: [{ z: 1, a: undefined, f: () => 1 }, undefined], a: 'x' })).toBe(
      '{"a":"x","b":[{"z":1},null]}',
    );
    expect(stableJson(undefined)).toBeUndefined();
  });
});
