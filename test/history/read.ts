import type { Store } from '../../src/history/store/store.js';
import type { TrendHistory } from '../../src/history/types.js';

/** Every run of a store, oldest first, as a history. */
export async function historyOf(store: Store): Promise<TrendHistory> {
  const runs = [];
  for await (const run of store.runs()) runs.push(run);
  return { schema: 2, runs };
}
