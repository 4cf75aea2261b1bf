import { UserError } from '../errors/index.js';
import { plural } from '../io/plural.js';
import { terminalSafe } from '../io/terminal.js';
import {
  BACKOFF_DEFAULTS,
  type BackoffOptions,
  backoffDelay,
  isRetryableStatus,
  retryAfterMs,
  sleep,
} from './backoff.js';
import { costUsd, type PriceTable } from './pricing.js';
import { Semaphore } from './semaphore.js';
import { redactServerText, secretForms } from './server-text.js';
import type {
  ChatMessage,
  Judge,
  JudgeErrorInfo,
  JudgeFailure,
  JudgeRequest,
  JudgeResponse,
  JudgeUsage,
  TokenCount,
} from './types.js';
import { readVerdict, VERDICT_EXPECTED, VERDICT_SCHEMA, VERDICT_SCHEMA_NAME } from './verdict.js';

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
/** The model asked when neither the options nor `NEEDLEWORK_JUDGE_MODEL` name one. */
export const DEFAULT_JUDGE_MODEL = 'gpt-4o-mini';
/** Time allowed for one HTTP attempt unless told otherwise, in ms. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Retries after a transient failure unless told otherwise. */
export const DEFAULT_MAX_RETRIES = 3;
/** Requests in flight at once for one judge unless told otherwise. */
export const DEFAULT_CONCURRENCY = 4;

export interface OpenAICompatibleJudgeOptions {
  /**
   * The API root that `/chat/completions` is appended to: `https://api.openai.com/v1`, vLLM's
   * `http://host:8000/v1`, Ollama's `http://localhost:11434/v1`, llama.cpp's `http://localhost:8080/v1`.
   * @default process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1'
   */
  baseUrl?: string;
  /** Sent as `Authorization: Bearer`; local servers need none. @default process.env.OPENAI_API_KEY */
  apiKey?: string;
  /** @default process.env.NEEDLEWORK_JUDGE_MODEL ?? 'gpt-4o-mini' */
  model?: string;
  /** Time allowed for one HTTP attempt, answer body included, in ms. @default 60000 */
  timeoutMs?: number;
  /** Retries after a 408, 409, 429, 5xx, timeout or connection failure. @default 3 */
  maxRetries?: number;
  backoff?: BackoffOptions;
  /** Requests in flight at once for this judge. @default 4 */
  concurrency?: number;
  /** USD per 1M tokens by model; a model without a price has an unknown (undefined) cost. */
  prices?: PriceTable;
  /** Where the defaults are read from. @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
  /** Jitter source in [0, 1). @default Math.random */
  random?: () => number;
  /** How to wait between retries (tests pass a recorder). @default a timer that the request's signal cancels */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** One chat completion call's outcome, after its transport retries. */
type Completion =
  | { ok: true; content: string | null; refusal?: string; model?: string; tokens?: TokenCount; calls: number }
  | { ok: false; error: JudgeErrorInfo; calls: number };

/** One HTTP attempt's outcome. */
type Attempt =
  | { kind: 'done'; content: string | null; refusal?: string; model?: string; tokens?: TokenCount }
  | { kind: 'retry'; error: JudgeErrorInfo; waitMs?: number }
  | { kind: 'fail'; error: JudgeErrorInfo };

/**
 * A judge over the OpenAI Chat Completions API and the servers that speak it (vLLM, Ollama, llama.cpp), on global
 * `fetch` with no SDK. The verdict is asked for as structured output (`response_format: json_schema`, strict) and
 * checked with ajv anyway, since some servers accept the schema without enforcing it; a malformed answer is sent
 * back once with what was wrong, then reported with every raw answer.
 */
export class OpenAICompatibleJudge implements Judge {
  readonly model: string;
  readonly baseUrl: string;
  private readonly url: string;
  private readonly apiKey: string | undefined;
  /** The forms of the key that must never be echoed (see `redactServerText`). */
  private readonly secrets: string[];
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly backoff: BackoffOptions;
  private readonly prices: PriceTable | undefined;
  private readonly semaphore: Semaphore;
  private readonly random: () => number;
  private readonly wait: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(options: OpenAICompatibleJudgeOptions = {}) {
    const env = options.env ?? process.env;
    this.baseUrl = checkBaseUrl(
      options.baseUrl ?? nonEmpty(env.OPENAI_BASE_URL) ?? DEFAULT_BASE_URL,
      options.baseUrl !== undefined ? 'baseUrl' : 'OPENAI_BASE_URL',
    );
    this.url = this.baseUrl.endsWith('/chat/completions') ? this.baseUrl : `${this.baseUrl}/chat/completions`;
    this.apiKey = options.apiKey ?? nonEmpty(env.OPENAI_API_KEY);
    this.secrets = secretForms(this.apiKey);
    this.model = options.model ?? nonEmpty(env.NEEDLEWORK_JUDGE_MODEL) ?? DEFAULT_JUDGE_MODEL;
    this.timeoutMs = positive(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'timeoutMs');
    this.maxRetries = count(options.maxRetries ?? DEFAULT_MAX_RETRIES, 'maxRetries');
    this.backoff = options.backoff ?? {};
    this.prices = options.prices;
    this.semaphore = new Semaphore(
      positive(count(options.concurrency ?? DEFAULT_CONCURRENCY, 'concurrency'), 'concurrency'),
    );
    this.random = options.random ?? Math.random;
    this.wait = options.sleep ?? sleep;
  }

  async judge(request: JudgeRequest): Promise<JudgeResponse> {
    const messages: ChatMessage[] = [...request.messages];
    const answers: string[] = [];
    const tokens: TokenCount = { input: 0, output: 0 };
    let tokensKnown = true;
    let calls = 0;
    let model = this.model;
    let problem = '';
    const usage = (): JudgeUsage => {
      const known = tokensKnown ? { ...tokens } : undefined;
      const cost = costUsd(known, this.prices, this.model, model);
      return {
        ...(known && { tokens: known }),
        ...(cost !== undefined && { costUsd: cost }),
        cached: false,
        calls,
      };
    };
    const fail = (error: JudgeErrorInfo): JudgeFailure => ({ ok: false, error, model, usage: usage() });

    // A malformed answer gets one more chance, told what was wrong (the verdict is read from the second answer).
    for (let round = 0; round < 2; round++) {
      const completion = await this.complete(this.body(request, messages), request.signal);
      calls += completion.calls;
      if (!completion.ok) {
        // Keep a malformed first answer visible when the retry itself failed.
        return fail(
          answers.length > 0
            ? { ...completion.error, answers, expected: VERDICT_EXPECTED }
            : completion.error,
        );
      }
      if (completion.tokens) {
        tokens.input += completion.tokens.input;
        tokens.output += completion.tokens.output;
      } else tokensKnown = false;
      model = completion.model ?? this.model;
      const text = completion.refusal ?? completion.content ?? '';
      const check =
        completion.refusal !== undefined
          ? { ok: false as const, problem: 'the judge refused to answer' }
          : readVerdict(text);
      if (check.ok) {
        // The rationale reaches terminals (a failing test's message): its control characters are escaped.
        const rationale = terminalSafe(check.rationale);
        return { ok: true, score: check.score, rationale, raw: text, model, usage: usage() };
      }
      answers.push(text);
      problem = check.problem;
      messages.push(
        { role: 'assistant', content: text },
        { role: 'user', content: `That answer is not valid: ${problem}. Reply with ${VERDICT_EXPECTED}.` },
      );
    }
    return fail({
      kind: 'malformed',
      message: `the judge answered ${answers.length} times without a valid verdict (${problem})`,
      answers,
      expected: VERDICT_EXPECTED,
    });
  }

  /** The Chat Completions request body; parameters the request leaves out are not sent, so server defaults apply. */
  private body(request: JudgeRequest, messages: ChatMessage[]): string {
    return JSON.stringify({
      model: this.model,
      messages,
      response_format: {
        type: 'json_schema',
        json_schema: { name: VERDICT_SCHEMA_NAME, schema: VERDICT_SCHEMA, strict: true },
      },
      ...(request.temperature !== undefined && { temperature: request.temperature }),
      ...(request.seed !== undefined && { seed: request.seed }),
      ...(request.maxTokens !== undefined && { max_tokens: request.maxTokens }),
    });
  }

  /** One chat completion, retried on transient failures; the semaphore is held per attempt, never while waiting. */
  private async complete(body: string, signal: AbortSignal | undefined): Promise<Completion> {
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.semaphore.run(() => this.attempt(body, signal));
      const calls = attempt + 1;
      if (outcome.kind === 'done') {
        const { kind: _, ...rest } = outcome;
        return { ok: true, ...rest, calls };
      }
      if (outcome.kind === 'fail') return { ok: false, error: outcome.error, calls };
      const tooLong =
        outcome.waitMs !== undefined &&
        outcome.waitMs > (this.backoff.maxRetryAfterMs ?? BACKOFF_DEFAULTS.maxRetryAfterMs);
      if (attempt >= this.maxRetries || tooLong) {
        const why = tooLong ? `; the server asked to wait ${outcome.waitMs} ms, longer than allowed` : '';
        // A judge that never answers says how long the run waited for it, retries and backoff included.
        const waited =
          outcome.error.kind === 'timeout'
            ? `, ${((Date.now() - started) / 1000).toFixed(1)} s waited in all`
            : '';
        return {
          ok: false,
          error: {
            ...outcome.error,
            message: `${outcome.error.message} (${plural(calls, 'attempt')}${waited}${why})`,
          },
          calls,
        };
      }
      try {
        await this.wait(outcome.waitMs ?? backoffDelay(attempt, this.backoff, this.random), signal);
      } catch {
        return { ok: false, error: { kind: 'aborted', message: 'the request was cancelled' }, calls };
      }
    }
  }

  private async attempt(body: string, signal: AbortSignal | undefined): Promise<Attempt> {
    if (signal?.aborted)
      return { kind: 'fail', error: { kind: 'aborted', message: 'the request was cancelled' } };
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let status: number;
    let text: string;
    let headers: Headers;
    try {
      const response = await fetch(this.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(this.apiKey !== undefined && { authorization: `Bearer ${this.apiKey}` }),
        },
        body,
        signal: combined,
      });
      status = response.status;
      headers = response.headers;
      // Redacted on arrival: nothing the server says, echoed headers included, can carry the key any further.
      text = redactServerText(await response.text(), this.secrets);
    } catch (error) {
      if (signal?.aborted)
        return { kind: 'fail', error: { kind: 'aborted', message: 'the request was cancelled' } };
      if (timeout.aborted) {
        return {
          kind: 'retry',
          error: {
            kind: 'timeout',
            message: `the judge at ${this.url} did not answer within ${this.timeoutMs} ms`,
          },
        };
      }
      return {
        kind: 'retry',
        error: {
          kind: 'network',
          message: `cannot reach the judge at ${this.url}: ${terminalSafe(networkCause(error))}`,
        },
      };
    }
    if (status < 200 || status > 299) {
      const error: JudgeErrorInfo = {
        kind: 'http',
        status,
        message: `the judge answered HTTP ${status}${serverMessage(text)}`,
      };
      if (!isRetryableStatus(status)) return { kind: 'fail', error };
      const waitMs = retryAfterMs(headers);
      return { kind: 'retry', error, ...(waitMs !== undefined && { waitMs }) };
    }
    return readCompletion(text, status);
  }
}

/** Reads a 2xx body as a chat completion; anything else is a protocol failure, not retried. */
function readCompletion(text: string, status: number): Attempt {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const body = value as
    | {
        model?: unknown;
        choices?: Array<{ message?: { content?: unknown; refusal?: unknown } }>;
        usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
      }
    | undefined;
  const message = Array.isArray(body?.choices) ? body.choices[0]?.message : undefined;
  if (!message || typeof message !== 'object') {
    return {
      kind: 'fail',
      error: {
        kind: 'protocol',
        status,
        message: `the judge answered HTTP ${status} with something that is not a chat completion: ${terminalSafe(clip(text, 200))}`,
      },
    };
  }
  const input = body?.usage?.prompt_tokens;
  const output = body?.usage?.completion_tokens;
  const tokens = isCount(input) && isCount(output) ? { input, output } : undefined;
  return {
    kind: 'done',
    content: typeof message.content === 'string' ? message.content : null,
    ...(typeof message.refusal === 'string' && message.refusal !== '' && { refusal: message.refusal }),
    ...(typeof body?.model === 'string' && body.model !== '' && { model: body.model }),
    ...(tokens && { tokens }),
  };
}

/** `: <the server's error message>` from an OpenAI-style `{error: {message}}` (or Ollama's `{error: "..."}`). */
function serverMessage(text: string): string {
  let said: unknown;
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    said =
      typeof body.error === 'string'
        ? body.error
        : ((body.error as { message?: unknown } | undefined)?.message ?? body.message);
  } catch {
    said = text;
  }
  const line = typeof said === 'string' ? terminalSafe(clip(said.trim(), 300)) : '';
  return line === '' ? '' : `: ${line}`;
}

function networkCause(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

function clip(text: string, length: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > length ? `${flat.slice(0, length)}…` : flat;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function checkBaseUrl(value: string, source: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UserError({ file: source, message: `expected an http(s):// URL, got "${value}"` });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UserError({ file: source, message: `expected an http(s):// URL, got "${value}"` });
  }
  if (url.username !== '' || url.password !== '') {
    // fetch refuses such URLs, and echoing the URL would print the password
    throw new UserError({
      file: source,
      message: 'the URL must not hold a user name or password; give the key as OPENAI_API_KEY (or apiKey)',
    });
  }
  return value.replace(/\/+$/, '');
}

function positive(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new TypeError(`OpenAICompatibleJudge: ${name} must be a positive number, got ${value}`);
  }
  return value;
}

function count(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new TypeError(`OpenAICompatibleJudge: ${name} must be a whole number, got ${value}`);
  }
  return value;
}
