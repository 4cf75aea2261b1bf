/**
 * Trend writes in progress in this process, by history path. Vitest starts every reporter's `onTestRunEnd` at once,
 * so the HTML reporter looks here to wait for the trend reporter of the same run before it charts the history.
 */
const pending = new Map<string, Promise<unknown>>();

/** Records a write to `path` until it settles. */
export function trackTrendWrite<T>(path: string, write: Promise<T>): Promise<T> {
  const settled = write.then(
    () => undefined,
    () => undefined,
  );
  pending.set(path, settled);
  void settled.then(() => {
    if (pending.get(path) === settled) pending.delete(path);
  });
  return write;
}

/** Settles once the write to `path` in progress (if any) has settled; never rejects. */
export async function trendWriteSettled(path: string): Promise<void> {
  await pending.get(path);
}
