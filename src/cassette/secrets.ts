/** The text a secret is replaced with in anything a cassette or a recorded workup writes. */
export const REDACTED = '[REDACTED]';

/**
 * Object keys whose value is a credential, whatever it looks like: any name that ends in `token`, `key`, `secret(s)`,
 * `password(s)`, `passwd` or `credential(s)`, in any case and after any prefix (`apiKey`, `x-api-key`, `API_TOKEN`,
 * `clientSecret`, `db.password`, `gcpCredentials`), any name that holds `secret`, `password` or `credential`
 * anywhere (`secretValue`, `password_hash`), and the headers `authorization`, `proxy-authorization`, `cookie` and
 * `set-cookie`. Counts stay: the plural `tokens` (`max_tokens`, `inputTokens`) names a number of tokens, not one.
 * A field so named is replaced in requests and responses alike, so two calls that differ only in such a field share
 * one recording (name a tool's pagination argument `cursor`, not `pageToken`, if its pages must be told apart).
 */
const SECRET_KEY =
  /(?:token|key|secrets?|passwords?|passwd|credentials?|authorization|cookie)$|secret|password|credential/i;

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

/** A cheap first look: every shape above holds one of these, so a string without any is left as it is. */
const MAYBE_SECRET = /Bearer|Basic|sk-|AIza|AKIA|ASIA|gh[pousr]_|github_pat_|xox|hf_|eyJ/;

/** Keys seen so far and whether each names a credential: the same few keys (`role`, `content`, `type`) recur. */
const KEY_VERDICTS = new Map<string, boolean>();
const MAX_KEY_VERDICTS = 10_000;

/** True when an object key names a credential (see `SECRET_KEY`). */
export function isSecretKey(key: string): boolean {
  let secret = KEY_VERDICTS.get(key);
  if (secret === undefined) {
    secret = SECRET_KEY.test(key);
    if (KEY_VERDICTS.size >= MAX_KEY_VERDICTS) KEY_VERDICTS.clear();
    KEY_VERDICTS.set(key, secret);
  }
  return secret;
}

/**
 * The value with every credential replaced by `[REDACTED]`: the values of credential-named keys at any depth (see
 * `isSecretKey`) and any string part shaped like a known key or token. What a cassette writes and what the recorder
 * puts in a workup both pass through here, so no secret reaches a file that is committed or uploaded. A value with
 * nothing to redact is returned as it is (not copied); otherwise only the objects and arrays on the way to a secret
 * are copied.
 */
export function redactSecrets(value: unknown): unknown {
  if (typeof value === 'string') {
    return MAYBE_SECRET.test(value) ? value.replace(SECRET_VALUE, REDACTED) : value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      const redacted = redactSecrets(item);
      if (redacted !== item) {
        out ??= value.slice(0, i);
        out.push(redacted);
      } else out?.push(item);
    }
    return out ?? value;
  }
  let out: Record<string, unknown> | undefined;
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const item = (value as Record<string, unknown>)[key];
    const redacted =
      isSecretKey(key) && item !== null && item !== undefined && item !== REDACTED
        ? REDACTED
        : redactSecrets(item);
    if (redacted !== item && !out) {
      out = {};
      for (let j = 0; j < i; j++) out[keys[j]!] = (value as Record<string, unknown>)[keys[j]!];
    }
    if (out) out[key] = redacted;
  }
  return out ?? value;
}
