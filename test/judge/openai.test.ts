import { afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors/index.js';
import { OpenAICompatibleJudge, type OpenAICompatibleJudgeOptions } from '../../src/judge/openai.js';
import type { JudgeFailure, JudgeRequest, JudgeVerdict } from '../../src/judge/types.js';
import { VERDICT_EXPECTED, VERDICT_SCHEMA } from '../../src/judge/verdict.js';
import { type FakeJudgeServer, type Reply, startFakeJudge, verdict } from './fake-server.js';

const REQUEST: JudgeRequest = {
  messages: [
    { role: 'system', content: 'You are a judge.' },
    { role: 'user', content: 'Score this note.' },
  ],
  temperature: 0,
};

let server: FakeJudgeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A judge at a fresh fake server; the environment is empty so nothing leaks in from the machine. */
async function judgeAt(
  reply: (request: FakeJudgeServer['received'][number], index: number) => Reply | Promise<Reply>,
  options: OpenAICompatibleJudgeOptions = {},
) {
  server = await startFakeJudge(reply);
  const waits: number[] = [];
  const judge = new OpenAICompatibleJudge({
    baseUrl: server.url,
    model: 'judge-model',
    env: {},
    backoff: { baseMs: 1, maxMs: 5 },
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...options,
  });
  return { judge, server, waits };
}

function ok(response: unknown): JudgeVerdict {
  expect(response).toMatchObject({ ok: true });
  return response as JudgeVerdict;
}

function failed(response: unknown): JudgeFailure {
  expect(response).toMatchObject({ ok: false });
  return response as JudgeFailure;
}

describe('OpenAICompatibleJudge: verdicts', () => {
  it('sends a strict json_schema chat completion and reads the verdict, rationale and tokens', async () => {
    const { judge, server } = await judgeAt(() => ({ content: verdict(4, 'Weighs Depot-Seven.') }), {
      apiKey: 'sk-test',
    });
    const response = ok(await judge.judge({ ...REQUEST, seed: 7, maxTokens: 300 }));
    expect(response).toEqual({
      ok: true,
      score: 4,
      rationale: 'Weighs Depot-Seven.',
      raw: verdict(4, 'Weighs Depot-Seven.'),
      model: 'judge-model',
      usage: { tokens: { input: 100, output: 20 }, cached: false, calls: 1 },
    });
    const [sent] = server.received;
    expect(sent!.body).toEqual({
      model: 'judge-model',
      messages: REQUEST.messages,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'rubric_verdict', schema: VERDICT_SCHEMA, strict: true },
      },
      temperature: 0,
      seed: 7,
      max_tokens: 300,
    });
    expect(sent!.headers.authorization).toBe('Bearer sk-test');
  });

  it('sends no Authorization header without a key, and leaves out sampling parameters not given', async () => {
    const { judge, server } = await judgeAt(() => ({ content: verdict(3) }));
    ok(await judge.judge({ messages: REQUEST.messages }));
    expect(server.received[0]!.headers.authorization).toBeUndefined();
    expect(Object.keys(server.received[0]!.body).sort()).toEqual(['messages', 'model', 'response_format']);
  });

  it('reports the model the server says answered', async () => {
    const { judge } = await judgeAt(() => ({ content: verdict(5), model: 'judge-model-2026-01-01' }));
    expect(ok(await judge.judge(REQUEST)).model).toBe('judge-model-2026-01-01');
  });

  it('accepts a verdict wrapped in one markdown code fence', async () => {
    const { judge } = await judgeAt(() => ({ content: `\`\`\`json\n${verdict(2)}\n\`\`\`` }));
    expect(ok(await judge.judge(REQUEST)).score).toBe(2);
  });
});

describe('OpenAICompatibleJudge: malformed answers', () => {
  it('retries a prose answer once, telling the judge what was wrong, and reads the second answer', async () => {
    const { judge, server } = await judgeAt((_, i) => ({
      content: i === 0 ? 'I would give this a 4.' : verdict(4, 'Second try.'),
      usage: { prompt_tokens: 50, completion_tokens: 10 },
    }));
    const response = ok(await judge.judge(REQUEST));
    expect(response.score).toBe(4);
    expect(response.usage).toEqual({ tokens: { input: 100, output: 20 }, cached: false, calls: 2 });
    expect(server.received).toHaveLength(2);
    expect(server.received[1]!.body.messages.slice(2)).toEqual([
      { role: 'assistant', content: 'I would give this a 4.' },
      {
        role: 'user',
        content: `That answer is not valid: the answer is not JSON. Reply with ${VERDICT_EXPECTED}.`,
      },
    ]);
  });

  it('reports two malformed answers with both raw answers and what was expected', async () => {
    const { judge, server } = await judgeAt((_, i) => ({
      content: i === 0 ? 'Looks fine to me.' : '{"score": "four"',
    }));
    const response = failed(await judge.judge(REQUEST));
    expect(response.error).toEqual({
      kind: 'malformed',
      message: 'the judge answered 2 times without a valid verdict (the answer is not JSON)',
      answers: ['Looks fine to me.', '{"score": "four"'],
      expected: 'a JSON object {"rationale": string, "score": integer 1 to 5} and nothing else',
    });
    expect(response.usage).toEqual({ tokens: { input: 200, output: 40 }, cached: false, calls: 2 });
    expect(server.received).toHaveLength(2);
  });

  it('reports a score outside 1-5, twice, naming the score it got', async () => {
    const { judge } = await judgeAt(() => ({ content: verdict(7) }));
    const response = failed(await judge.judge(REQUEST));
    expect(response.error.message).toBe(
      'the judge answered 2 times without a valid verdict (score must be an integer from 1 to 5 (got 7))',
    );
    expect(response.error.answers).toEqual([verdict(7), verdict(7)]);
  });

  it('keeps the malformed first answer when the retry fails over HTTP', async () => {
    const { judge } = await judgeAt((_, i) =>
      i === 0 ? { content: 'Four.' } : { status: 400, raw: '{"error":{"message":"context too long"}}' },
    );
    expect(failed(await judge.judge(REQUEST)).error).toEqual({
      kind: 'http',
      status: 400,
      message: 'the judge answered HTTP 400: context too long',
      answers: ['Four.'],
      expected: VERDICT_EXPECTED,
    });
  });

  it('treats a refusal as a malformed answer and keeps the refusal text', async () => {
    const { judge } = await judgeAt(() => ({ content: null, refusal: 'I cannot help with that.' }));
    const response = failed(await judge.judge(REQUEST));
    expect(response.error.message).toBe(
      'the judge answered 2 times without a valid verdict (the judge refused to answer)',
    );
    expect(response.error.answers).toEqual(['I cannot help with that.', 'I cannot help with that.']);
  });

  it('reports a 2xx body that is not a chat completion without retrying it', async () => {
    const { judge, server } = await judgeAt(() => ({ raw: '<html>proxy login</html>' }));
    const response = failed(await judge.judge(REQUEST));
    expect(response.error).toEqual({
      kind: 'protocol',
      status: 200,
      message:
        'the judge answered HTTP 200 with something that is not a chat completion: <html>proxy login</html>',
    });
    expect(server.received).toHaveLength(1);
  });
});

describe('OpenAICompatibleJudge: HTTP failures and retries', () => {
  it('honours Retry-After (seconds) on a 429, then succeeds', async () => {
    const { judge, waits, server } = await judgeAt((_, i) =>
      i === 0
        ? { status: 429, headers: { 'retry-after': '2' }, raw: '{"error":{"message":"Rate limit reached"}}' }
        : { content: verdict(3) },
    );
    const response = ok(await judge.judge(REQUEST));
    expect(waits).toEqual([2000]);
    expect(response.usage.calls).toBe(2);
    expect(server.received).toHaveLength(2);
  });

  it('prefers retry-after-ms when the server sends it', async () => {
    const { judge, waits } = await judgeAt((_, i) =>
      i === 0
        ? { status: 429, headers: { 'retry-after': '1', 'retry-after-ms': '250' }, raw: '{}' }
        : { content: verdict(3) },
    );
    ok(await judge.judge(REQUEST));
    expect(waits).toEqual([250]);
  });

  it('fails a 429 whose Retry-After is longer than allowed instead of stalling', async () => {
    const { judge, waits } = await judgeAt(() => ({
      status: 429,
      headers: { 'retry-after': '3600' },
      raw: '{}',
    }));
    const response = failed(await judge.judge(REQUEST));
    expect(response.error).toEqual({
      kind: 'http',
      status: 429,
      message:
        'the judge answered HTTP 429 (1 attempt; the server asked to wait 3600000 ms, longer than allowed)',
    });
    expect(waits).toEqual([]);
  });

  it('retries a 500 after a jittered exponential backoff, then succeeds', async () => {
    const { judge, waits } = await judgeAt(
      (_, i) => (i < 2 ? { status: 500, raw: 'upstream' } : { content: verdict(5) }),
      {
        backoff: { baseMs: 100, maxMs: 1000 },
        random: () => 0.5,
      },
    );
    expect(ok(await judge.judge(REQUEST)).usage.calls).toBe(3);
    expect(waits).toEqual([50, 100]);
  });

  it('gives up after maxRetries and reports the status, the server message and the attempts', async () => {
    const { judge, server } = await judgeAt(
      () => ({ status: 503, raw: '{"error":{"message":"overloaded"}}' }),
      {
        maxRetries: 2,
      },
    );
    const response = failed(await judge.judge(REQUEST));
    expect(response.error).toEqual({
      kind: 'http',
      status: 503,
      message: 'the judge answered HTTP 503: overloaded (3 attempts)',
    });
    expect(server.received).toHaveLength(3);
  });

  it('does not retry a 400 and shows the server message', async () => {
    const { judge, server } = await judgeAt(() => ({
      status: 400,
      raw: '{"error":{"message":"response_format json_schema is not supported"}}',
    }));
    const response = failed(await judge.judge(REQUEST));
    expect(response.error.message).toBe(
      'the judge answered HTTP 400: response_format json_schema is not supported',
    );
    expect(server.received).toHaveLength(1);
  });

  it('times out a slow answer at the configured timeout and retries it', async () => {
    const { judge, server } = await judgeAt(() => ({ content: verdict(3), delayMs: 2_000 }), {
      timeoutMs: 50,
      maxRetries: 1,
    });
    const response = failed(await judge.judge(REQUEST));
    expect(response.error.kind).toBe('timeout');
    expect(response.error.message).toMatch(
      new RegExp(
        `^the judge at ${server.url}/chat/completions did not answer within 50 ms \\(2 attempts, \\d+\\.\\d s waited in all\\)$`,
      ),
    );
    // "2 attempts" is the client's own count: on a loaded machine the server may not have read a request before the
    // client cut it off, so the server's count is not asserted.
    expect(server.received.length).toBeLessThanOrEqual(2);
  });

  it('gives up on a hung server at its timeout', async () => {
    const { judge, server } = await judgeAt(() => ({ hang: true }), { timeoutMs: 50, maxRetries: 0 });
    const started = Date.now();
    const response = failed(await judge.judge(REQUEST));
    const match = new RegExp(
      `^the judge at ${server.url}/chat/completions did not answer within 50 ms \\(1 attempt, (\\d+\\.\\d) s waited in all\\)$`,
    ).exec(response.error.message);
    expect(response.error.kind).toBe('timeout');
    expect(match, response.error.message).not.toBeNull();
    // The time waited is the client's own clock: at least the timeout, at most what the test itself waited.
    expect(Number(match![1])).toBeGreaterThanOrEqual(0);
    expect(Number(match![1]) * 1000).toBeLessThanOrEqual(Date.now() - started + 50);
  });

  it('gives up on a server that sends headers and then never finishes the body', async () => {
    const { judge } = await judgeAt(() => ({ hang: 'headers' }), { timeoutMs: 50, maxRetries: 0 });
    const response = failed(await judge.judge(REQUEST));
    expect(response.error.kind).toBe('timeout');
  });

  it('reports a server that cannot be reached', async () => {
    const { judge, server } = await judgeAt(() => ({ content: verdict(3) }), { maxRetries: 0 });
    await server.close();
    const response = failed(await judge.judge(REQUEST));
    expect(response.error.kind).toBe('network');
    expect(response.error.message).toBe(
      `cannot reach the judge at ${server.url}/chat/completions: ECONNREFUSED (1 attempt)`,
    );
  });

  it('reports a cancelled request as aborted without retrying', async () => {
    const { judge, server } = await judgeAt(() => ({ hang: true }), { timeoutMs: 10_000 });
    const controller = new AbortController();
    const pending = judge.judge({ ...REQUEST, signal: controller.signal });
    while (server.received.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const response = failed(await pending);
    expect(response.error).toEqual({ kind: 'aborted', message: 'the request was cancelled' });
    expect(server.received).toHaveLength(1);
  });
});

describe('OpenAICompatibleJudge: concurrency', () => {
  it('never has more requests in flight than its limit', async () => {
    // The server answers requests in pairs, only once two are open, so the limit is reached without any timing; a
    // client that sent more at once would push the server's count past 2.
    let held: Array<() => void> = [];
    const { judge, server } = await judgeAt(
      () =>
        new Promise<Reply>((resolve) => {
          held.push(() => resolve({ content: verdict(3) }));
          if (held.length === 2) {
            const pair = held;
            held = [];
            for (const release of pair) release();
          }
        }),
      { concurrency: 2 },
    );
    const responses = await Promise.all(Array.from({ length: 8 }, () => judge.judge(REQUEST)));
    expect(responses.every((r) => r.ok)).toBe(true);
    expect(server.received).toHaveLength(8);
    expect(server.maxInFlight).toBe(2);
  });

  it('rejects a concurrency that is not a positive whole number', () => {
    expect(() => new OpenAICompatibleJudge({ env: {}, concurrency: 0 })).toThrow(
      'OpenAICompatibleJudge: concurrency must be a positive number, got 0',
    );
  });
});

describe('OpenAICompatibleJudge: tokens and cost', () => {
  it('prices tokens from the table, in USD per 1M tokens', async () => {
    const { judge } = await judgeAt(
      () => ({ content: verdict(4), usage: { prompt_tokens: 1000, completion_tokens: 200 } }),
      {
        prices: { 'judge-model': { input: 2.5, output: 10 } },
      },
    );
    const { usage } = ok(await judge.judge(REQUEST));
    expect(usage.tokens).toEqual({ input: 1000, output: 200 });
    expect(usage.costUsd).toBeCloseTo(0.0045, 12);
  });

  it('prices by the answering model when the asked name has no price', async () => {
    const { judge } = await judgeAt(() => ({ content: verdict(4), model: 'judge-model-2026' }), {
      prices: { 'judge-model-2026': { input: 1, output: 1 } },
    });
    expect(ok(await judge.judge(REQUEST)).usage.costUsd).toBeCloseTo(120 / 1_000_000, 12);
  });

  it('leaves the cost unknown (not 0) for a model without a price, even one named like an Object key', async () => {
    const { judge } = await judgeAt(() => ({ content: verdict(4) }), { model: 'constructor', prices: {} });
    const { usage } = ok(await judge.judge(REQUEST));
    expect(usage.tokens).toEqual({ input: 100, output: 20 });
    expect('costUsd' in usage).toBe(false);
  });

  it('leaves tokens and cost unknown when the server reports no usage', async () => {
    const { judge } = await judgeAt(() => ({ content: verdict(4), usage: null }), {
      prices: { 'judge-model': { input: 1, output: 1 } },
    });
    expect(ok(await judge.judge(REQUEST)).usage).toEqual({ cached: false, calls: 1 });
  });
});

describe('OpenAICompatibleJudge: configuration', () => {
  it('reads the base URL, key and model from the environment', async () => {
    server = await startFakeJudge(() => ({ content: verdict(3) }));
    const judge = new OpenAICompatibleJudge({
      env: {
        OPENAI_BASE_URL: `${server.url}/`,
        OPENAI_API_KEY: 'sk-env',
        NEEDLEWORK_JUDGE_MODEL: 'env-model',
      },
    });
    expect(judge.model).toBe('env-model');
    expect(judge.baseUrl).toBe(server.url);
    ok(await judge.judge(REQUEST));
    expect(server.received[0]!.headers.authorization).toBe('Bearer sk-env');
    expect(server.received[0]!.body.model).toBe('env-model');
  });

  it('defaults to the OpenAI API and gpt-4o-mini', () => {
    const judge = new OpenAICompatibleJudge({ env: {} });
    expect(judge.baseUrl).toBe('https://api.openai.com/v1');
    expect(judge.model).toBe('gpt-4o-mini');
  });

  it('refuses a base URL holding credentials without printing them', () => {
    const make = () =>
      new OpenAICompatibleJudge({ baseUrl: 'http://user:hunter2@127.0.0.1:8000/v1', env: {} });
    expect(make).toThrow(
      'baseUrl: the URL must not hold a user name or password; give the key as OPENAI_API_KEY (or apiKey)',
    );
  });

  it('reports a base URL that is not http(s) as a user error naming where it came from', () => {
    const make = () => new OpenAICompatibleJudge({ env: { OPENAI_BASE_URL: 'localhost:11434' } });
    expect(make).toThrow(UserError);
    expect(make).toThrow('OPENAI_BASE_URL: expected an http(s):// URL, got "localhost:11434"');
  });
});
