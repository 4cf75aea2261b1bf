/**
 * When to try a failed HTTP call again. Exponential backoff with full jitter (AWS Architecture Blog, "Exponential
 * Backoff and Jitter", 2015): the wait is uniform in [0, min(cap, base * 2^attempt)], which spreads the retries of
 * many concurrent judges apart instead of sending them back together.
 */
export interface BackoffOptions {
  /** First retry's upper bound, in ms. @default 500 */
  baseMs?: number;
  /** Upper bound of any computed wait, in ms. @default 20000 */
  maxMs?: number;
  /** Longest `Retry-After` honoured, in ms; a longer one fails the call instead of stalling the run. @default 60000 */
  maxRetryAfterMs?: number;
}

/** The backoff settings used when none are given. */
export const BACKOFF_DEFAULTS = { baseMs: 500, maxMs: 20_000, maxRetryAfterMs: 60_000 } as const;

/** The wait before retry number `attempt` (0 for the first retry), in ms. `random` returns [0, 1). */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions = {},
  random: () => number = Math.random,
) {
  const base = options.baseMs ?? BACKOFF_DEFAULTS.baseMs;
  const cap = options.maxMs ?? BACKOFF_DEFAULTS.maxMs;
  const ceiling = Math.min(cap, base * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

/**
 * The wait a rate-limited response asks for, in ms, or undefined when it asks for none we can read. OpenAI sends
 * `retry-after-ms` beside the standard `Retry-After` (RFC 9110 section 10.2.3: delay-seconds or an HTTP-date).
 */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.ceil(Number(ms));
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP-date names its weekday and month; V8's Date.parse would also read "-1" or "7.5" as dates.
  const date = /[A-Za-z]/.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Statuses worth retrying: request timeout, conflict, rate limit and server errors (as the OpenAI SDKs do). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
