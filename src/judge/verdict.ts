import type { ErrorObject, ValidateFunction } from 'ajv';
import { newAjv } from '../parse/ajv.js';
import type { Score } from './types.js';

/**
 * The verdict a judge must answer with. `rationale` comes first because structured-output decoders generate keys in
 * schema order, so the model reasons before it commits to a score (the G-Eval / LLM-RUBRIC habit of explanation
 * before rating). `score` is an enum rather than `minimum`/`maximum` because every constrained decoder we target
 * (OpenAI strict mode, vLLM guided decoding, llama.cpp's schema-to-grammar, Ollama's `format`) supports `enum`.
 * `additionalProperties: false` and every key required are what OpenAI's `strict: true` demands.
 */
export const VERDICT_SCHEMA = {
  type: 'object',
  properties: {
    rationale: {
      type: 'string',
      description: 'Two to four sentences: which anchor the material meets and why, citing the material.',
    },
    score: {
      type: 'integer',
      enum: [1, 2, 3, 4, 5],
      description: 'The anchor the material meets, 1 (worst) to 5 (best).',
    },
  },
  required: ['rationale', 'score'],
  additionalProperties: false,
} as const;

/** The name the schema is sent under (`response_format.json_schema.name`: letters, digits, `_` and `-`). */
export const VERDICT_SCHEMA_NAME = 'rubric_verdict';

/** What a valid answer looks like, as failure messages show it. */
export const VERDICT_EXPECTED =
  'a JSON object {"rationale": string, "score": integer 1 to 5} and nothing else';

export type VerdictCheck = { ok: true; score: Score; rationale: string } | { ok: false; problem: string };

let validator: ValidateFunction | undefined;

/** The verdict schema's validator, compiled on the first answer read (a run without a judge never needs it). */
function validate(data: unknown): boolean {
  validator ??= newAjv({ allErrors: true, strict: true }).compile(VERDICT_SCHEMA);
  return validator(data) as boolean;
}

/**
 * Reads a verdict from an answer's text. The answer is untrusted: it is parsed as JSON and checked against the
 * schema, never evaluated. A single markdown code fence around the JSON is accepted, since servers that do not
 * enforce the schema (llama.cpp issue #24097) often wrap JSON that way, and so is a leading reasoning block; prose
 * around the JSON is not.
 */
export function readVerdict(text: string): VerdictCheck {
  const body = unfence(stripThinking(text).trim());
  if (body === '') return { ok: false, problem: 'the answer is empty' };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { ok: false, problem: 'the answer is not JSON' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, problem: 'the answer is JSON but not an object' };
  }
  if (validate(value)) {
    const verdict = value as { rationale: string; score: Score };
    return { ok: true, score: verdict.score, rationale: verdict.rationale };
  }
  return { ok: false, problem: describe(validator?.errors ?? [], value as Record<string, unknown>) };
}

/**
 * Drops a leading `<think>...</think>` block: reasoning models served by older Ollama and llama.cpp builds write
 * their reasoning into `content` before the answer instead of into `reasoning_content`.
 */
function stripThinking(text: string): string {
  return text.replace(/^\s*<think>[\s\S]*?<\/think>/, '');
}

function unfence(text: string): string {
  const match = /^```[A-Za-z]*\s*\n([\s\S]*?)\n?```$/.exec(text);
  return match ? match[1]!.trim() : text;
}

/** The first problem, in words; `score` problems first because they are the ones that decide a result. */
function describe(errors: ErrorObject[], value: Record<string, unknown>): string {
  const ordered = [...errors].sort((a, b) => rank(a) - rank(b));
  const error = ordered[0];
  if (!error) return 'the answer does not match the verdict schema';
  if (error.keyword === 'required') return `${String(error.params.missingProperty)} is missing`;
  if (error.keyword === 'additionalProperties') {
    return `unexpected key "${String(error.params.additionalProperty)}"`;
  }
  if (error.instancePath === '/score') {
    return `score must be an integer from 1 to 5 (got ${JSON.stringify(value.score)})`;
  }
  if (error.instancePath === '/rationale') return 'rationale must be a string';
  return `${error.instancePath || 'the answer'} ${error.message ?? 'is invalid'}`;
}

function rank(error: ErrorObject): number {
  if (error.keyword === 'required') return 0;
  if (error.instancePath === '/score') return 1;
  if (error.instancePath === '/rationale') return 2;
  return 3;
}
