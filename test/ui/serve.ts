import { request } from 'node:http';
import { join } from 'node:path';
import { openStore } from '../../src/history/store/open.js';
import type { TrendRun } from '../../src/history/types.js';
import { startUi, type UiServer } from '../../src/ui/server.js';
import { fill, history } from './history.js';

/** A UI started on a new embedded store in `dir` holding `runs` (the small history by default), on a free port. */
export async function serveHistory(dir: string, runs: readonly TrendRun[] = history()): Promise<UiServer> {
  const location = join(dir, 'store');
  const store = await openStore(location);
  await fill(store, runs);
  await store.close();
  return startUi({ store: location, port: 0 });
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request with exactly these headers (fetch would not let a test set `Host`). */
export function ask(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { ...options.headers };
    if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
    const req = request(url, { method: options.method ?? 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', reject);
    req.end(options.body);
  });
}
