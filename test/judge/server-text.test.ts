import { describe, expect, it } from 'vitest';
import { redactServerText, secretForms } from '../../src/judge/server-text.js';

describe('redactServerText', () => {
  it('redacts the key in use as sent, JSON-escaped and percent-encoded, whatever it looks like', () => {
    const key = 'my"local/key+1';
    const said = [
      `Authorization: Bearer ${key}`,
      JSON.stringify({ headers: { authorization: `Bearer ${key}` } }),
      `GET /v1?api_key=${encodeURIComponent(key)}`,
    ].join('\n');
    expect(redactServerText(said, secretForms(key))).toBe(
      [
        'Authorization: Bearer [REDACTED]',
        '{"headers":{"authorization":"Bearer [REDACTED]"}}',
        'GET /v1?api_key=[REDACTED]',
      ].join('\n'),
    );
  });

  it('redacts values shaped like keys that are not the one in use, by the cassettes’ rules', () => {
    const aws = 'AKIA' + 'ABCDEFGHIJKLMNOP';
    const said = `other keys: sk-ant-${'x'.repeat(20)} ${aws} Basic dXNlcjpwYXNzd29yZA==`;
    expect(redactServerText(said, [])).toBe('other keys: [REDACTED] [REDACTED] [REDACTED]');
  });

  it('leaves text without secrets as it was, and has no forms for no key', () => {
    expect(secretForms(undefined)).toEqual([]);
    expect(secretForms('')).toEqual([]);
    expect(redactServerText('model overloaded, retry later', secretForms('k-123'))).toBe(
      'model overloaded, retry later',
    );
  });
});
