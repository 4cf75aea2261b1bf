/** The text a secret is replaced with in anything a cassette writes. */
export const REDACTED = '[REDACTED]';

/** Object keys whose value is a credential, whatever it looks like (header names and option names alike). */
const SECRET_KEY =
  /^(?:authorization|proxy-authorization|x-api-key|api[-_]?key|apikey|x-goog-api-key|(?:access|refresh|id|auth|session|bearer)[-_]?token|client[-_]?secret|secret(?:[-_]?key)?|password|passwd|cookie|set-cookie|private[-_]?key)$/i;

/**
 * Credentials recognisable by their shape, wherever they stand in a string: bearer and basic auth values, OpenAI,
 * Anthropic, Google, AWS, GitHub, Slack and Hugging Face keys, and JSON web tokens.
 */
const SECRET_VALUE = new RegExp(
  [
    String.raw`\b(?:Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}`,
    String.raw`\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}`,
    String.raw`\bAIza[0-9A-Za-z_-]{30,}`,
    String.raw`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`,
    String.raw`\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}`,
    String.raw`\bgithub_pat_[A-Za-z0-9_]{30,}`,
    String.raw`\bxox[abposr]-[A-Za-z0-9-]{10,}`,
    String.raw`\bhf_[A-Za-z0-9]{30,}`,
    String.raw`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`,
  ].join('|'),
  'g',
);

/**
 * A copy of a JSON value with every credential replaced by `[REDACTED]`: the values of credential keys
 * (`authorization`, `apiKey`, `x-api-key`, `password`, ...) and any string part shaped like a known key or token.
 * Everything a cassette writes passes through here, so no secret reaches a file that is committed.
 */
export function redactSecrets(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(SECRET_VALUE, REDACTED);
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) && item !== null && item !== undefined ? REDACTED : redactSecrets(item);
  }
  return out;
}
