import { hashOf } from '../cassette/canonical.js';
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
  return hashOf(canonicalRequest(request, model));
}

export { stableJson } from '../cassette/canonical.js';
