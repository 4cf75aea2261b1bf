import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CallCassette, CassetteMissError, REDACTED, redactSecrets } from '../../src/index.js';
import { useTmpDir } from '../helpers/tmp.js';

const tmp = useTmpDir();

const never = () => {
  throw new Error('went live');
};

describe('CallCassette', () => {
  it('records in auto mode, then replays by canonical arguments whatever their key order', async () => {
    const file = join(await tmp(), 'calls.json');
    const recording = await CallCassette.open({ file, mode: 'auto' });
    let live = 0;
    const answer = () => {
      live++;
      return [{ subject: 'Halberd', relation: 'MEMBER_OF', object: 'Ash Cell' }];
    };
    await recording.call('tool', 'graph_query', { entity: 'Halberd', relation: 'MEMBER_OF' }, answer);
    await recording.call('tool', 'graph_query', { relation: 'MEMBER_OF', entity: 'Halberd' }, answer);
    expect(live).toBe(1);
    await recording.flush();

    const replay = await CallCassette.open({ file, mode: 'replay' });
    expect(
      await replay.call('tool', 'graph_query', { relation: 'MEMBER_OF', entity: 'Halberd' }, never),
    ).toEqual([{ subject: 'Halberd', relation: 'MEMBER_OF', object: 'Ash Cell' }]);
  });

  it('record mode always goes live and replaces the recorded answer', async () => {
    const file = join(await tmp(), 'calls.json');
    const first = await CallCassette.open({ file, mode: 'record' });
    await first.call('tool', 't', { a: 1 }, () => 'old');
    expect(await first.call('tool', 't', { a: 1 }, () => 'new')).toBe('new');
    await first.flush();
    const replay = await CallCassette.open({ file, mode: 'replay' });
    expect(await replay.call('tool', 't', { a: 1 }, never)).toBe('new');
  });

  it('records the error a tool raised and raises it again on replay; a model failure is not recorded', async () => {
    const file = join(await tmp(), 'calls.json');
    const recording = await CallCassette.open({ file, mode: 'auto' });
    const boom = () => {
      throw new Error('timeout after 5000 ms');
    };
    await expect(recording.call('tool', 't', {}, boom)).rejects.toThrow('timeout after 5000 ms');
    await expect(recording.call('model', 'm', {}, boom)).rejects.toThrow('timeout after 5000 ms');
    await recording.flush();
    const replay = await CallCassette.open({ file, mode: 'replay' });
    await expect(replay.call('tool', 't', {}, never)).rejects.toThrow('timeout after 5000 ms');
    await expect(replay.call('model', 'm', {}, never)).rejects.toThrow(CassetteMissError);
  });

  it('fails a replay miss naming the call and the nearest recorded one, and remembers it', async () => {
    const file = join(await tmp(), 'calls.json');
    const recording = await CallCassette.open({ file, mode: 'auto' });
    for (const entity of ['Halberd', 'Ash Cell', 'Compound-Alpha']) {
      await recording.call('tool', 'graph_query', { entity }, () => []);
    }
    await recording.call('tool', 'docs_search', { entity: 'Wren' }, () => []);
    await recording.flush();
    const replay = await CallCassette.open({ file, mode: 'replay' });
    const miss = await replay
      .call('tool', 'graph_query', { entity: 'Halbard' }, never)
      .catch((e: unknown) => e);
    expect((miss as Error).message).toBe(
      `no recorded tool call graph_query({"entity":"Halbard"}) in ${file} (replay mode never calls live); the nearest recorded one is graph_query({"entity":"Halberd"}). Record it with NEEDLEWORK_CASSETTE=record (or auto).`,
    );
    expect(replay.misses).toEqual([miss]);
    expect(() => replay.assertNoMisses()).toThrow(miss as Error);
  });

  it('needs the file to replay, and refuses an unknown mode or a foreign file', async () => {
    const dir = await tmp();
    await expect(CallCassette.open({ file: join(dir, 'none.json'), mode: 'replay' })).rejects.toThrow(
      'no such cassette',
    );
    await expect(CallCassette.open({ file: join(dir, 'x.json'), mode: 'strict' as never })).rejects.toThrow(
      'unknown cassette mode "strict"; expected one of: record, replay, auto, off',
    );
    const verdicts = join(dir, 'judge.json');
    await writeFile(
      verdicts,
      JSON.stringify({ version: 1, entries: { abc: { request: { model: 'm' }, response: {} } } }),
    );
    await expect(CallCassette.open({ file: verdicts, mode: 'auto' })).rejects.toThrow(
      'entries "abc" are not recorded calls (each needs request.kind "tool" or "model", request.name, and response.value or .error)',
    );
  });

  it('never writes a secret, and keys a call without its credentials', async () => {
    const file = join(await tmp(), 'calls.json');
    const recording = await CallCassette.open({ file, mode: 'auto' });
    const args = (key: string) => ({
      headers: { Authorization: `Bearer ${key}`, 'x-api-key': key },
      apiKey: key,
      prompt: `use the key ${key} and the token ghp_${'a'.repeat(36)}`,
    });
    const openai = 'sk-proj-abcdefghijklmnopqrstuvwxyz012345';
    await recording.call('model', 'm', args(openai), () => ({ echo: `Bearer ${openai}`, tokens: 12 }));
    await recording.flush();
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain('abcdefghijklmnop');
    expect(text).not.toContain('aaaaaaaaaa');
    expect(text).toContain('"tokens": 12');
    // Another key (CI's, or none at all) replays the same recording.
    const replay = await CallCassette.open({ file, mode: 'replay' });
    expect(await replay.call('model', 'm', args('sk-anotherkeyanotherkey0000'), never)).toMatchObject({
      tokens: 12,
    });
  });
});

describe('redactSecrets', () => {
  it.each([
    ['Bearer abcdefgh12345678', REDACTED],
    ['key sk-ant-api03-abcdefghijklmnop end', `key ${REDACTED} end`],
    ['AKIAABCDEFGHIJKLMNOP', REDACTED],
    ['xoxb-1234567890-abcdef', REDACTED],
    ['hf_abcdefghijklmnopqrstuvwxyzABCDEF', REDACTED],
    ['AIzaSyA1234567890abcdefghijklmnopqrstu', REDACTED],
    ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abcdefghijkl', REDACTED],
    ['the task is 42 tokens long', 'the task is 42 tokens long'],
  ])('%s', (input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  it('redacts the values of credential keys, and leaves counts named like them', () => {
    expect(
      redactSecrets({
        password: 'hunter2',
        Cookie: 'a=b',
        nested: [{ access_token: 'x' }],
        tokens: 5,
        max_tokens: 9,
      }),
    ).toEqual({
      password: REDACTED,
      Cookie: REDACTED,
      nested: [{ access_token: REDACTED }],
      tokens: 5,
      max_tokens: 9,
    });
  });
});
