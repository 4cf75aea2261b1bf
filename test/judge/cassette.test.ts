import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { criterionVerdict, rubricVerdict } from '../../src/checks/rubric.js';
import { UserError } from '../../src/errors/index.js';
import { requestHash } from '../../src/judge/canonical.js';
import { Cassette } from '../../src/judge/cassette.js';
import { CassetteJudge } from '../../src/judge/cassette-judge.js';
import { createJudgeFromSpec } from '../../src/judge/from-spec.js';
import { OpenAICompatibleJudge } from '../../src/judge/openai.js';
import type { JudgeRequest } from '../../src/judge/types.js';
import { scoreRubric } from '../../src/rubric/score.js';
import type { RubricScore } from '../../src/rubric/types.js';
import { criterion, rubric, scriptedJudge, workup } from '../rubric/helpers.js';
import { type FakeJudgeServer, startFakeJudge, verdict } from './fake-server.js';

let dir: string;
let server: FakeJudgeServer | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'needlework-cassette-'));
});
afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

const REQUEST: JudgeRequest = {
  messages: [{ role: 'user', content: 'Score this.' }],
  temperature: 0,
  sample: 0,
  context: { rubric: 'icd-203', criterion: 'alternatives', sample: 1, workup: 'grounded' },
};

/** A fake server whose score depends on the prompt, so a replayed answer can be told from a fresh one. */
async function serve(): Promise<FakeJudgeServer> {
  server = await startFakeJudge((request) => {
    const text = request.body.messages.at(-1)!.content;
    const score = (text.length % 5) + 1;
    return {
      content: verdict(score, `length ${text.length}`),
      usage: { prompt_tokens: 200, completion_tokens: 30 },
    };
  });
  return server;
}

const LIVE = { model: 'judge-model', env: {}, prices: { 'judge-model': { input: 1, output: 2 } } };

/** Fails the test if anything tries the network. */
function forbidNetwork() {
  const fetch = vi.fn(() => Promise.reject(new Error('the network was used')));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

/** A rubric score with what may differ between a live and a replayed run (cache flags, calls, cost) taken out. */
function verdictsOf(result: RubricScore) {
  return result.criteria.map((c) => ({
    criterion: c.criterion,
    score: c.score,
    agreement: c.agreement,
    rationale: c.rationale,
    verdict: criterionVerdict(c),
    samples: c.samples.map((s) => (s.ok ? { score: s.score, rationale: s.rationale, tokens: s.tokens } : s)),
  }));
}

describe('request hash', () => {
  it('depends on the model, messages and sampling parameters, not on the context or signal', () => {
    const base = requestHash(REQUEST, 'm');
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(
      requestHash({ ...REQUEST, context: { criterion: 'other' }, signal: new AbortController().signal }, 'm'),
    ).toBe(base);
    expect(requestHash(REQUEST, 'other-model')).not.toBe(base);
    expect(requestHash({ ...REQUEST, temperature: 1 }, 'm')).not.toBe(base);
    expect(requestHash({ ...REQUEST, sample: 1 }, 'm')).not.toBe(base);
    expect(requestHash({ ...REQUEST, seed: 1 }, 'm')).not.toBe(base);
    expect(requestHash({ ...REQUEST, messages: [{ role: 'user', content: 'Score that.' }] }, 'm')).not.toBe(
      base,
    );
  });

  it('is the same whatever endpoint or key recorded it', async () => {
    const file = join(dir, 'c.json');
    const first = await serve();
    const recorder = await CassetteJudge.open({
      file,
      mode: 'record',
      judge: new OpenAICompatibleJudge({ ...LIVE, baseUrl: first.url, apiKey: 'sk-one' }),
    });
    await recorder.judge(REQUEST);
    const other = await CassetteJudge.open({
      file,
      mode: 'strict',
      judge: new OpenAICompatibleJudge({ ...LIVE, baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-two' }),
    });
    expect(await other.judge(REQUEST)).toMatchObject({ ok: true, usage: { cached: true } });
    expect(await readFile(file, 'utf8')).not.toContain('sk-one');
  });
});

describe('CassetteJudge: record and replay', () => {
  it('records a rubric run and replays it with no network at all, giving identical results', async () => {
    const file = join(dir, 'judge.cassette.json');
    const live = await serve();
    const spec = rubric([criterion('alternatives'), criterion('accuracy', { weight: 2 })]);
    const recorder = await createJudgeFromSpec(live.url, { ...LIVE, cassette: file, mode: 'record' });
    const recorded = await scoreRubric(workup(), spec, { judge: recorder });
    await recorder.flush?.();
    expect(live.received).toHaveLength(6);
    expect(recorded.usage).toMatchObject({
      requests: 6,
      cached: 0,
      calls: 6,
      tokens: { input: 1200, output: 180 },
    });
    await live.close();

    const fetch = forbidNetwork();
    const replayer = await createJudgeFromSpec(`replay:${file}`);
    expect(replayer.model).toBe('judge-model');
    const replayed = await scoreRubric(workup(), spec, { judge: replayer });
    expect(fetch).not.toHaveBeenCalled();
    expect(verdictsOf(replayed)).toEqual(verdictsOf(recorded));
    expect(replayed.total).toBe(recorded.total);
    expect(replayed.usage).toEqual({
      requests: 6,
      cached: 6,
      calls: 0,
      tokens: { input: 1200, output: 180 },
      costUsd: 0,
    });
    expect(replayed.criteria[0]!.samples[0]).toMatchObject({ cached: true, costUsd: 0, calls: 0 });
  });

  it('makes a criterion an error when one of its samples is missing from the cassette', async () => {
    const file = join(dir, 'c.json');
    const live = await serve();
    const spec = rubric([criterion('alternatives')]);
    const recorder = await createJudgeFromSpec(live.url, { ...LIVE, cassette: file, mode: 'record' });
    await scoreRubric(workup(), spec, { judge: recorder, samples: 2 });
    const strict = await createJudgeFromSpec(live.url, { ...LIVE, cassette: file, mode: 'strict' });
    const result = await scoreRubric(workup(), spec, { judge: strict, samples: 3 });
    expect(live.received).toHaveLength(2);
    expect(criterionVerdict(result.criteria[0]!)).toBe('error');
    expect(result.criteria[0]).toMatchObject({
      score: null,
      agreement: null,
      samplesValid: 2,
      error: {
        kind: 'cassette-miss',
        message: `no recorded verdict for criterion "alternatives" (rubric test-rubric, workup w1, sample 3) in ${file} (strict mode never calls the judge); record it with --record`,
      },
    });
    expect(rubricVerdict(result)).toBe('error');
  });

  it('does not bill a request twice: a second record run answers from the cassette', async () => {
    const file = join(dir, 'c.json');
    const live = await serve();
    const judge = () => createJudgeFromSpec(live.url, { ...LIVE, cassette: file, mode: 'record' });
    const first = await (await judge()).judge(REQUEST);
    const second = await (await judge()).judge(REQUEST);
    expect(live.received).toHaveLength(1);
    expect(first).toMatchObject({ ok: true, usage: { cached: false, calls: 1, costUsd: (200 + 60) / 1e6 } });
    expect(second).toMatchObject({
      ok: true,
      usage: { cached: true, calls: 0, costUsd: 0, tokens: { input: 200, output: 30 } },
    });
    expect(second.ok && first.ok && second.rationale === first.rationale).toBe(true);
  });

  it('records verdicts only: a malformed answer is asked again next time', async () => {
    const file = join(dir, 'c.json');
    server = await startFakeJudge(() => ({ content: 'no idea' }));
    const judge = await createJudgeFromSpec(server.url, { ...LIVE, cassette: file, mode: 'record' });
    expect(await judge.judge(REQUEST)).toMatchObject({ ok: false, error: { kind: 'malformed' } });
    await expect(readFile(file, 'utf8')).rejects.toThrow('ENOENT');
  });

  it('in strict mode fails a request the cassette lacks, naming the criterion, without calling the judge', async () => {
    const file = join(dir, 'c.json');
    await writeFile(file, '{"version": 1, "entries": {}}\n');
    const live = await serve();
    const judge = await createJudgeFromSpec(live.url, { ...LIVE, cassette: file, mode: 'strict' });
    const response = await judge.judge(REQUEST);
    expect(response).toEqual({
      ok: false,
      error: {
        kind: 'cassette-miss',
        message: `no recorded verdict for criterion "alternatives" (rubric icd-203, workup grounded, sample 2) in ${file} (strict mode never calls the judge); record it with --record`,
      },
      model: 'judge-model',
      usage: { cached: false, calls: 0 },
    });
    expect(live.received).toHaveLength(0);
  });

  it('a replay-only judge fails a miss and says it never calls the network', async () => {
    const file = join(dir, 'c.json');
    await writeFile(file, '{"version": 1, "entries": {}}\n');
    forbidNetwork();
    const judge = await createJudgeFromSpec(`replay:${file}`, { model: 'judge-model' });
    const response = await judge.judge(REQUEST);
    expect(response.ok || response.error.message).toBe(
      `no recorded verdict for criterion "alternatives" (rubric icd-203, workup grounded, sample 2) in ${file} (this judge only replays and never calls the network); record it with --record`,
    );
  });

  it('in replay mode with a live judge sends a miss to the network without recording it', async () => {
    const file = join(dir, 'c.json');
    await writeFile(file, '{"version": 1, "entries": {}}\n');
    const live = await serve();
    const judge = await createJudgeFromSpec(live.url, { ...LIVE, cassette: file });
    expect(await judge.judge(REQUEST)).toMatchObject({ ok: true, usage: { cached: false } });
    expect(live.received).toHaveLength(1);
    expect(await readFile(file, 'utf8')).toBe('{"version": 1, "entries": {}}\n');
  });

  it('in off mode ignores the cassette', async () => {
    const live = await serve();
    const judge = await createJudgeFromSpec(live.url, {
      ...LIVE,
      cassette: join(dir, 'none.json'),
      mode: 'off',
    });
    await judge.judge(REQUEST);
    await judge.judge(REQUEST);
    expect(live.received).toHaveLength(2);
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('Cassette file', () => {
  it('is written atomically (no temporary file left), sorted by hash, without secrets', async () => {
    const file = join(dir, 'c.json');
    const live = await serve();
    const judge = await createJudgeFromSpec(live.url, {
      ...LIVE,
      apiKey: 'sk-secret',
      cassette: file,
      mode: 'record',
    });
    await Promise.all([0, 1, 2].map((sample) => judge.judge({ ...REQUEST, sample })));
    await judge.flush?.();
    expect(await readdir(dir)).toEqual(['c.json']);
    const text = await readFile(file, 'utf8');
    const body = JSON.parse(text);
    expect(body.version).toBe(1);
    const hashes = Object.keys(body.entries);
    expect(hashes).toHaveLength(3);
    expect(hashes).toEqual([...hashes].sort());
    expect(body.entries[requestHash(REQUEST, 'judge-model')]).toMatchObject({
      context: REQUEST.context,
      request: { model: 'judge-model', messages: REQUEST.messages, temperature: 0, sample: 0 },
      response: { model: 'judge-model', tokens: { input: 200, output: 30 } },
    });
    expect(text).not.toContain('sk-secret');
    expect(text).not.toContain(live.url);
  });

  it('shares one write among verdicts recorded while another write runs, and loses none', async () => {
    const file = join(dir, 'c.json');
    const save = vi.spyOn(Cassette.prototype, 'save');
    const live = scriptedJudge({ alternatives: [1, 2, 3, 4, 5, 1] }, 'judge-model');
    const judge = await CassetteJudge.open({ file, mode: 'record', judge: live });
    await Promise.all(
      [0, 1, 2, 3, 4, 5].map((sample) =>
        judge.judge({ ...REQUEST, sample, context: { criterion: 'alternatives', sample } }),
      ),
    );
    await judge.flush();
    expect(save.mock.calls.length).toBeLessThan(6);
    expect(Object.keys(JSON.parse(await readFile(file, 'utf8')).entries)).toHaveLength(6);
  });

  it('keeps entries another writer saved in the meantime', async () => {
    const file = join(dir, 'c.json');
    const live = await serve();
    const one = await createJudgeFromSpec(live.url, { ...LIVE, cassette: file, mode: 'record' });
    const two = await createJudgeFromSpec(live.url, { ...LIVE, cassette: file, mode: 'record' });
    await one.judge({ ...REQUEST, sample: 0 });
    await two.judge({ ...REQUEST, sample: 1 });
    await one.judge({ ...REQUEST, sample: 2 });
    const body = JSON.parse(await readFile(file, 'utf8'));
    expect(Object.keys(body.entries)).toHaveLength(3);
  });

  it('reports a cassette that cannot be written as a user error naming the file', async () => {
    // A missing folder is created; a file that stands where the folder should be (made after the cassette was
    // opened) cannot be written through.
    const file = join(dir, 'a-file', 'c.json');
    const live = await serve();
    const judge = await createJudgeFromSpec(live.url, { ...LIVE, cassette: file, mode: 'record' });
    await writeFile(join(dir, 'a-file'), '');
    await expect(judge.judge(REQUEST)).rejects.toThrow(
      `${file}: cannot write the cassette: a file stands where a folder is needed (EEXIST)`,
    );
  });

  it.each([
    ['not json', `: the cassette is not JSON`],
    ['{"entries": {}}', ': expected a cassette: {"version": 1, "entries": {...}}'],
    [
      '{"version": 1, "entries": {"abcdef0123456789": {"request": {"model": "m"}, "response": {"score": 9}}}}',
      ': entries "abcdef012345" are not recorded verdicts (each needs request.model and response.score 1-5, response.rationale)',
    ],
  ])('rejects a corrupt cassette %j', async (text, message) => {
    const file = join(dir, 'c.json');
    await writeFile(file, text);
    const opening = createJudgeFromSpec(`replay:${file}`);
    await expect(opening).rejects.toThrow(UserError);
    await expect(createJudgeFromSpec(`replay:${file}`)).rejects.toThrow(`${file}${message}`);
  });

  it('needs the cassette to exist to replay from it', async () => {
    const file = join(dir, 'nope.json');
    await expect(createJudgeFromSpec(`replay:${file}`)).rejects.toThrow(`${file}: no such cassette`);
  });

  it('asks for a model when a replay-only cassette holds several', async () => {
    const file = join(dir, 'c.json');
    const live = await serve();
    for (const model of ['a', 'b']) {
      const judge = await createJudgeFromSpec(live.url, { ...LIVE, model, cassette: file, mode: 'record' });
      await judge.judge(REQUEST);
    }
    await expect(createJudgeFromSpec(`replay:${file}`)).rejects.toThrow(
      `${file}: the cassette holds verdicts from 2 models (a, b); name one with --judge-model`,
    );
    const judge = await createJudgeFromSpec(`replay:${file}`, { model: 'b' });
    expect(await judge.judge(REQUEST)).toMatchObject({ ok: true, model: 'b', usage: { cached: true } });
  });
});

describe('createJudgeFromSpec', () => {
  it('builds an OpenAI-compatible judge at an http(s) base URL', async () => {
    const judge = await createJudgeFromSpec('http://127.0.0.1:11434/v1/', { env: {}, model: 'llama3.1' });
    expect(judge).toBeInstanceOf(OpenAICompatibleJudge);
    expect((judge as OpenAICompatibleJudge).baseUrl).toBe('http://127.0.0.1:11434/v1');
    expect(judge.model).toBe('llama3.1');
  });

  it('reads the environment when no spec is given', async () => {
    const judge = await createJudgeFromSpec(undefined, {
      env: { OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1' },
    });
    expect((judge as OpenAICompatibleJudge).baseUrl).toBe('http://127.0.0.1:8000/v1');
  });

  it.each([
    [
      'ftp://example.com',
      '--judge: expected an http(s):// URL or replay:<cassette>, got "ftp://example.com"',
    ],
    ['gpt-4o', '--judge: expected an http(s):// URL or replay:<cassette>, got "gpt-4o"'],
    ['replay:', '--judge: replay: needs a cassette file, as replay:judge.cassette.json'],
  ])('rejects %j', async (spec, message) => {
    await expect(createJudgeFromSpec(spec, { env: {} })).rejects.toThrow(message);
  });

  it('rejects record mode without a live judge', async () => {
    await expect(CassetteJudge.open({ file: join(dir, 'c.json'), mode: 'record' })).rejects.toThrow(
      'cassette mode "record" needs a live judge to ask',
    );
  });
});
