import { BACKOFF_DEFAULTS, type BackoffOptions } from './backoff.js';
import { DEFAULT_CONCURRENCY, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS } from './openai.js';

/** What bounds how long a judged test can wait: the judge's limits (as `OpenAICompatibleJudge` takes them) and samples. */
export interface JudgeTimeoutOptions {
  /** Time allowed for one HTTP attempt, in ms. @default 60000 */
  timeoutMs?: number;
  /** Retries after a transient failure. @default 3 */
  maxRetries?: number;
  backoff?: BackoffOptions;
  /** Requests in flight at once. @default 4 */
  concurrency?: number;
  /** Judgements per criterion, asked together. @default 3 */
  samples?: number;
}

/** Time a test spends besides waiting for the judge (building the prompt, reading the note), with room to spare. */
const MARGIN_MS = 5_000;

/**
 * The timeout of a test that asks the judge: the longest the judge itself can take before it answers or reports a
 * failure, plus a margin. A criterion asks `samples` judgements at once, at most `concurrency` in flight, so they
 * take `ceil(samples / concurrency)` turns. Each judgement is at most two chat completions (a malformed answer is
 * asked once more), and each completion at most `maxRetries + 1` attempts of `timeoutMs`, with a wait before each
 * retry of at most the larger of the backoff's ceiling and the longest `Retry-After` honoured. A judge that never
 * answers then fails its tests with its own message (its URL and the time waited), not with the test runner's
 * "Test timed out".
 */
export function judgeTestTimeout(options: JudgeTimeoutOptions = {}): number {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const base = options.backoff?.baseMs ?? BACKOFF_DEFAULTS.baseMs;
  const cap = options.backoff?.maxMs ?? BACKOFF_DEFAULTS.maxMs;
  const retryAfter = options.backoff?.maxRetryAfterMs ?? BACKOFF_DEFAULTS.maxRetryAfterMs;
  let completion = (retries + 1) * timeoutMs;
  for (let retry = 0; retry < retries; retry++)
    completion += Math.max(Math.min(cap, base * 2 ** retry), retryAfter);
  const turns = Math.ceil((options.samples ?? 3) / (options.concurrency ?? DEFAULT_CONCURRENCY));
  return turns * 2 * completion + MARGIN_MS;
}
