import { createHash } from 'node:crypto';

/** JSON with object keys in byte order at every level, so equal values always serialise to equal text. */
export function stableJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

/** SHA-256 (hex) of a value's `stableJson`: the key a cassette files a request under. */
export function hashOf(value: unknown): string {
  return createHash('sha256').update(stableJson(value)).digest('hex');
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
