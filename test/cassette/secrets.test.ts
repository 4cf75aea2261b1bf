// Credentials are redacted by field name as well as by value shape, in cassettes and in recorded workups alike.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CallCassette, createRecorder, isSecretKey, REDACTED, redactSecrets } from '../../src/index.js';
import { useTmpDir } from '../helpers/tmp.js';

const tmp = useTmpDir();

/** The words a credential's field name ends in, each in any mix of upper and lower case. */
const WORDS = [
  'token',
  'key',
  'secret',
  'secrets',
  'password',
  'passwords',
  'passwd',
  'credential',
  'credentials',
];
const anyCase = (word: string) =>
  fc
    .array(fc.boolean(), { minLength: word.length, maxLength: word.length })
    .map((upper) => [...word].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''));
/** Any prefix a field name may have: camelCase, snake_case, kebab-case, dotted, digits, or none. */
const prefix = fc.stringMatching(/^[A-Za-z0-9_.-]{0,12}$/);
const secretName = fc
  .tuple(prefix, fc.constantFrom(...WORDS).chain(anyCase))
  .map(([before, word]) => before + word);
/** A secret value that looks like no known key: only its field's name gives it away. */
const secretValue = fc.stringMatching(/^[a-z0-9]{6,16}$/).map((s) => `s3cr3t-${s}`);
/** Counts that are named like tokens and must stay. */
const countName = fc.constantFrom(
  'tokens',
  'max_tokens',
  'maxTokens',
  'inputTokens',
  'total_tokens',
  'num_tokens',
);

/** A JSON container holding `leaf` under `name`, `depth` levels deep, beside ordinary fields. */
const nested = (name: string, leaf: unknown) =>
  fc
    .array(fc.constantFrom('headers', 'providerOptions', 'openai', 'args', 'items', 'config'), {
      maxLength: 4,
    })
    .map((path) => {
      let value: unknown = { [name]: leaf, model: 'gpt-4.1' };
      for (const key of path.reverse()) value = key === 'items' ? [value, { q: 1 }] : { [key]: value };
      return value;
    });

const sample = fc
  .tuple(secretName, secretValue, fc.constantFrom('string', 'object', 'number'))
  .chain(([name, secret, kind]) => {
    const leaf = kind === 'string' ? secret : kind === 'object' ? { user: 'u', value: secret } : 4242;
    return nested(name, leaf).map((value) => ({ name, secret, leaf, value }));
  });

describe('redactSecrets: by field name', () => {
  it('redacts a field named like a credential, whatever its prefix, case, depth or value', () => {
    fc.assert(
      fc.property(sample, ({ name, secret, leaf, value }) => {
        expect(isSecretKey(name)).toBe(true);
        const text = JSON.stringify(redactSecrets(value));
        expect(text).not.toContain(secret);
        expect(text).not.toContain('4242');
        expect(text).toContain(`${JSON.stringify(name)}:${JSON.stringify(REDACTED)}`);
        expect(text).toContain('"model":"gpt-4.1"');
        // The input is left as it was.
        expect(JSON.stringify(value)).toContain(JSON.stringify(leaf));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps counts named with the plural "tokens", and returns a clean value itself', () => {
    fc.assert(
      fc.property(countName, fc.nat(), (name, n) => {
        const value = { usage: { [name]: n }, messages: [{ role: 'user', content: 'hello' }] };
        expect(redactSecrets(value)).toBe(value);
      }),
    );
  });

  it.each([
    ['apiKey'],
    ['x-api-key'],
    ['X-Goog-Api-Key'],
    ['api_token'],
    ['ACCESS_TOKEN'],
    ['clientSecret'],
    ['client_secret_value'],
    ['db.password'],
    ['password_hash'],
    ['gcpCredentials'],
    ['Authorization'],
    ['set-cookie'],
    ['key'],
    ['token'],
  ])('%s is a credential', (name) => expect(isSecretKey(name)).toBe(true));

  it.each([['tokens'], ['max_tokens'], ['outputTokens'], ['keys'], ['keyword'], ['tokenizer'], ['model']])(
    '%s is not',
    (name) => expect(isSecretKey(name)).toBe(false),
  );
});

describe('no credential reaches a file', () => {
  const args = (secret: string) => ({
    headers: { 'X-Custom-Token': secret },
    providerOptions: { acme: { api_token: secret, key: secret, credentials: { user: 'u', pass: secret } } },
    input: { query: 'Halberd', clientSecret: secret },
  });

  it('a cassette: in headers, providerOptions and tool arguments, of requests and responses', async () => {
    await fc.assert(
      fc.asyncProperty(secretValue, async (secret) => {
        const file = join(await tmp(), 'calls.json');
        const cassette = await CallCassette.open({ file, mode: 'record' });
        await cassette.call('model', 'm', args(secret), () => ({ echo: args(secret) }));
        await cassette.call('tool', 'lookup', args(secret).input, () => ({ sessionToken: secret }));
        await cassette.flush();
        expect(await readFile(file, 'utf8')).not.toContain(secret);
      }),
      { numRuns: 10 },
    );
  });

  it('a recorded workup: trajectory.json, provenance.jsonl, meta.json and note.md hold no key', async () => {
    const secret = 's3cr3t-abcdef123';
    const bearer = 'sk-proj-abcdefghijklmnopqrstuvwxyz012345';
    const recorder = createRecorder({
      id: 'run',
      input: `use ${bearer}`,
      meta: { provider: { apiKey: secret } },
      ledger: ({ output }) => (Array.isArray(output) ? output : undefined),
    });
    const id = recorder.toolCall('lookup', { query: 'Halberd', api_token: secret, auth: `Bearer ${secret}` });
    recorder.toolResult(id, { rows: 1, refreshToken: secret, text: `key ${bearer}` });
    const failed = recorder.toolCall('lookup', { password: secret });
    recorder.toolResult(failed, { error: `401 for ${bearer}` });
    recorder.answer(`Done with ${bearer}.`);
    recorder.note(`# Note\n\nThe key was ${bearer}. [cite:${id}]\n`);
    const dir = await recorder.save(await tmp());
    for (const name of ['trajectory.json', 'provenance.jsonl', 'meta.json', 'note.md']) {
      const text = await readFile(join(dir, name), 'utf8');
      expect(text, name).not.toContain(secret);
      expect(text, name).not.toContain('abcdefghijklmnop');
    }
    const ledger = await readFile(join(dir, 'provenance.jsonl'), 'utf8');
    expect(ledger).toContain(
      `lookup({\\"query\\":\\"Halberd\\",\\"api_token\\":\\"${REDACTED}\\",\\"auth\\":\\"${REDACTED}\\"})`,
    );
    // What the run did is kept: the error's own words around the key.
    expect(await readFile(join(dir, 'trajectory.json'), 'utf8')).toContain(`401 for ${REDACTED}`);
  });
});
