import { describe, expect, it } from 'vitest';
import { backoffDelay, isRetryableStatus, retryAfterMs, sleep } from '../../src/judge/backoff.js';

describe('backoffDelay', () => {
  it('doubles the ceiling each attempt, up to the cap, and scales it by the jitter', () => {
    const top = () => 0.999999;
    expect([0, 1, 2, 3, 4, 5].map((a) => backoffDelay(a, { baseMs: 100, maxMs: 1000 }, top))).toEqual([
      99, 199, 399, 799, 999, 999,
    ]);
    expect(backoffDelay(3, { baseMs: 100, maxMs: 1000 }, () => 0)).toBe(0);
  });
});

describe('retryAfterMs', () => {
  it('reads delay-seconds, an HTTP-date and retry-after-ms', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '3' }))).toBe(3000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }), now)).toBe(0);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '120.5', 'retry-after': '9' }))).toBe(121);
  });

  it('is undefined when there is no header or it cannot be read', () => {
    expect(retryAfterMs(new Headers())).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after': '-1' }))).toBeUndefined();
  });
});

describe('isRetryableStatus', () => {
  it('retries 408, 409, 429 and 5xx only', () => {
    expect([400, 401, 403, 404, 408, 409, 422, 429, 500, 502, 503].filter(isRetryableStatus)).toEqual([
      408, 409, 429, 500, 502, 503,
    ]);
  });
});

describe('sleep', () => {
  it('rejects with the reason as soon as its signal aborts', async () => {
    const controller = new AbortController();
    const pending = sleep(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });
});
