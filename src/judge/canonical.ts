import { createHash } from 'node:crypto';
import type { JudgeRequest } from './types.js';
import { VERDICT_SCHEMA, VERDICT_SCHEMA_NAME } from './verdict.js';

/**
 * Everything that decides a judge's answer, and nothing else: the model, the messages, the verdict schema and the
 * sampling parameters. The API key and the base URL are left out on purpose, so a cassette recorded against one
 * endpoint replays against any other serving the same model, and holds no secret.
 */
export interface CanonicalRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
  schema: { name: string; schema: unknown };
  temperature: number | null;
  seed: number | null;
  maxTokens: number | null;
  sample: number | null;
}

export function canonicalRequest(request: JudgeRequest, model: string): CanonicalRequest {
  return {
    model,
    messages: request.messages.map(({ role, content }) => ({ role, content })),
    schema: { name: VERDICT_SCHEMA_NAME, schema: VERDICT_SCHEMA },
    temperature: request.temperature ?? null,
    seed: request.seed ?? null,
    maxTokens: request.maxTokens ?? null,
    sample: request.sample ?? null,
  };
}

/** SHA-256 (hex) of the request's canonical JSON: keys sorted at every level, no whitespace. */
export function requestHash(request: JudgeRequest, model: string): string {
  return createHash('sha256')
    .update(stableJson(canonicalRequest(request, model)))
    .digest('hex');
}

/** JSON with object keys in byte order at every level, so equal values always serialise to equal text. */
export function stableJson(value: unknown): string {
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
