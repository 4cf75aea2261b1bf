import { REDACTED, redactSecrets } from '../cassette/secrets.js';

/**
 * The forms a credential can take in a server's text: as sent, JSON-escaped (a server that echoes the request's
 * headers as JSON) and percent-encoded (one that echoes a URL). Empty for no key.
 */
export function secretForms(key: string | undefined): string[] {
  if (key === undefined || key === '') return [];
  const forms = new Set([key, JSON.stringify(key).slice(1, -1), encodeURIComponent(key)]);
  // Longest first, so a form that contains another is replaced whole.
  return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * What a judge server said (an error body, an answer), with every secret replaced by `[REDACTED]` before it can be
 * printed or written: each form of the key in use (so the request's `Authorization: Bearer <key>` echoed back
 * becomes `Bearer [REDACTED]`, whatever the key looks like), then every value shaped like a credential, by the same
 * rules as the cassettes (`redactSecrets`: bearer and basic values, OpenAI, Anthropic, Google, AWS, GitHub, Slack and
 * Hugging Face keys, JSON web tokens). A server that echoes its request, or a proxy that logs it, cannot make the run
 * publish the key in a terminal, a CI log, junit.xml or a report.
 */
export function redactServerText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return redactSecrets(out) as string;
}
