import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors/index.js';
import {
  CallCassette,
  CassetteMissError,
  defineCallCodec,
  hashOf,
  REDACTED,
  redactSecrets,
} from '../../src/index.js';
import { useTmpDir } from '../helpers/tmp.js';

const tmp = useTmpDir();

const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

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
      `no recorded tool call graph_query({"entity":"Halbard"}) in ${file} (replay mode never calls live); the nearest recorded one is tool call graph_query({"entity":"Halberd"}), which differs first at args.entity (character 5): recorded "Halberd", now "Halbard". Record it with NEEDLEWORK_CASSETTE=record (or auto).`,
    );
    expect(replay.misses).toEqual([miss]);
    expect(() => replay.assertNoMisses()).toThrow(miss as Error);
  });

  it('shows the first difference of two long requests wherever it lies, not their first 200 characters', async () => {
    const file = join(await tmp(), 'calls.json');
    const history = (last: string) => ({
      messages: [
        { role: 'system', content: 'You are an analyst. '.repeat(30) },
        { role: 'user', content: `Who links Halberd to ${last}? Answer with citations.` },
      ],
    });
    const recording = await CallCassette.open({ file, mode: 'auto' });
    await recording.call('model', 'openai:gpt-4.1', history('Wren'), () => ({ text: 'ok' }));
    await recording.call(
      'model',
      'openai:gpt-4.1',
      { messages: [{ role: 'user', content: 'hi' }] },
      () => ({}),
    );
    await recording.flush();
    const replay = await CallCassette.open({ file, mode: 'replay' });
    const miss = (await replay
      .call('model', 'openai:gpt-4.1', history('Orrin Vale'), never)
      .catch((e: unknown) => e)) as Error;
    expect(miss.message).toBe(
      `no recorded model call to openai:gpt-4.1 in ${file} (replay mode never calls live); the nearest recorded one is model call to openai:gpt-4.1, which differs first at args.messages[1].content (character 22): recorded "Who links Halberd to Wren? Answer with citations.", now "Who links Halberd to Orrin Vale? Answer with citations.". Record it with NEEDLEWORK_CASSETTE=record (or auto).`,
    );
  });

  it('keys each trial apart: three trials record three answers and replay each as recorded', async () => {
    const file = join(await tmp(), 'calls.json');
    const recording = await CallCassette.open({ file, mode: 'auto' });
    const answers = ['right', 'wrong', 'right'];
    for (const trial of [1, 2, 3]) {
      const view = recording.forTrial(trial);
      expect(await view.call('model', 'm', { q: 'who?' }, () => answers[trial - 1])).toBe(answers[trial - 1]);
      expect(view.use()).toMatchObject({ replayed: 0, live: 1, recording: 'none' });
    }
    await recording.flush();
    const body = JSON.parse(await readFile(file, 'utf8'));
    // Each entry is filed under the hash of its request, as cassettes always were: older cassettes still replay.
    for (const [hash, entry] of Object.entries(body.entries)) {
      expect(hash).toBe(hashOf((entry as { request: unknown }).request));
    }
    expect(
      Object.values(body.entries).map((e) => (e as { request: { trial: number } }).request.trial),
    ).toEqual(expect.arrayContaining([1, 2, 3]));

    const replay = await CallCassette.open({ file, mode: 'replay' });
    const replayed: unknown[] = [];
    for (const trial of [1, 2, 3]) {
      const view = replay.forTrial(trial);
      replayed.push(await view.call('model', 'm', { q: 'who?' }, never));
      expect(view.use()).toEqual({ file, mode: 'replay', replayed: 1, live: 0, recording: 'per-trial' });
    }
    expect(replayed).toEqual(answers);
    const fourth = (await replay
      .forTrial(4)
      .call('model', 'm', { q: 'who?' }, never)
      .catch((e: unknown) => e)) as Error;
    expect(fourth.message).toMatch(
      /^no recorded model call to m \(trial 4\) in .* the nearest recorded one is model call to m \(trial [123]\), the same call recorded for another trial \(this cassette holds no recording of trial 4\)\./,
    );
  });

  it('replays a recording made without trials in every trial, and says the trials share it', async () => {
    const file = join(await tmp(), 'calls.json');
    const old = await CallCassette.open({ file, mode: 'auto' });
    await old.call('tool', 't', { a: 1 }, () => 'once');
    await old.flush();
    for (const mode of ['replay', 'auto'] as const) {
      const replay = await CallCassette.open({ file, mode });
      for (const trial of [1, 2, 3]) {
        const view = replay.forTrial(trial);
        expect(await view.call('tool', 't', { a: 1 }, never)).toBe('once');
        expect(view.use()).toMatchObject({ replayed: 1, live: 0, recording: 'shared' });
      }
    }
  });

  it('creates the cassette folder when it saves', async () => {
    const file = join(await tmp(), 'cassettes', 'nested', 'agent.json');
    const recording = await CallCassette.open({ file, mode: 'record' });
    await recording.call('tool', 't', {}, () => 1);
    await recording.flush();
    expect(JSON.parse(await readFile(file, 'utf8')).version).toBe(1);
  });

  it('rejects a malformed entry when it loads, one line per entry naming the file, line and entry', async () => {
    const file = join(await tmp(), 'calls.json');
    const codec = defineCallCodec<{ n: number }>({
      name: 'test/counted',
      check: (json) => (typeof (json as { n?: unknown }).n === 'number' ? undefined : 'n is not a number'),
    });
    const recording = await CallCassette.open({ file, mode: 'record' });
    await recording.call('model', 'm', { q: 1 }, () => ({ n: 1 }), codec);
    await recording.forTrial(2).call('tool', 't', { q: 2 }, () => 2);
    await recording.flush();
    const text = await readFile(file, 'utf8');
    const broken = text.replace('"n": 1', '"n": "one"').replace('"trial": 2', '"trial": 0');
    await writeFile(file, broken);
    const error = (await CallCassette.open({ file, mode: 'replay' }).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(UserError);
    const lines = error.message.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines.find((line) => line.includes('model call'))).toMatch(
      new RegExp(
        `^${escapeRe(file)}:\\d+:5: entry "[0-9a-f]{12}" \\(model call m\\): n is not a number \\(expected test/counted; record it again\\)$`,
      ),
    );
    expect(lines.find((line) => line.includes('tool call'))).toMatch(
      new RegExp(
        `^${escapeRe(file)}:\\d+:5: entry "[0-9a-f]{12}" \\(tool call t, trial 0\\): request.trial is 0; expected a whole number from 1$`,
      ),
    );
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
