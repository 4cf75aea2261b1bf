import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';

export interface FakeHubOptions {
  /** The repository served, `owner/name`. */
  repo: string;
  /** The export folder whose files the repository holds. */
  dir: string;
  /** Files served as LFS files (with `X-Linked-Etag` sha256 and an `lfs` block in the API). */
  lfs?: string[];
  /**
   * Send only the first half of this file on its first download and hold the connection open: the client sees a
   * stalled transfer, and `cuttingFetch` cuts it there.
   */
  stallOnce?: string;
  /** Advertise this sha256 for every LFS file instead of the real one. */
  wrongSha256?: string;
  /** Answer the API with this status (for example 500) instead of the listing. */
  apiStatus?: number;
}

export interface FakeHub {
  endpoint: string;
  /** Every request: method, path and Range header. */
  requests: Array<{ path: string; range: string | undefined }>;
  close(): Promise<void>;
}

/**
 * A loopback HTTP server (127.0.0.1, an ephemeral port) in the Hugging Face Hub's URL layout:
 * `/api/models/<repo>/revision/<rev>` and `/<repo>/resolve/<rev>/<file>` with Range support, so downloads are tested
 * without leaving the machine.
 */
export async function startFakeHub(options: FakeHubOptions): Promise<FakeHub> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(options.dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(options.dir, path).split('\\').join('/'), await readFile(path));
  }
  const lfs = new Set(options.lfs ?? []);
  const sha = (file: string) =>
    options.wrongSha256 ?? createHash('sha256').update(files.get(file)!).digest('hex');
  const requests: FakeHub['requests'] = [];
  let stall = options.stallOnce;

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push({ path: url.pathname, range: req.headers.range });
    const api = `/api/models/${options.repo}/revision/main`;
    if (url.pathname === api) {
      if (options.apiStatus) {
        res.writeHead(options.apiStatus).end();
        return;
      }
      const siblings = [...files.keys()].map((rfilename) => ({
        rfilename,
        size: files.get(rfilename)!.length,
        ...(lfs.has(rfilename)
          ? { lfs: { sha256: sha(rfilename), size: files.get(rfilename)!.length } }
          : {}),
      }));
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ sha: 'abc123', siblings }));
      return;
    }
    const prefix = `/${options.repo}/resolve/main/`;
    const file = url.pathname.startsWith(prefix) ? decodeURIComponent(url.pathname.slice(prefix.length)) : '';
    const body = files.get(file);
    if (!body) {
      res.writeHead(404).end('Entry not found');
      return;
    }
    const headers: Record<string, string | number> = {};
    if (lfs.has(file)) {
      headers['x-linked-etag'] = `"${sha(file)}"`;
      headers['x-linked-size'] = body.length;
    }
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const from = range ? Number(range[1]) : 0;
    if (from >= body.length && range) {
      res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
      return;
    }
    const slice = body.subarray(from);
    res.writeHead(range ? 206 : 200, {
      ...headers,
      'content-length': slice.length,
      ...(range ? { 'content-range': `bytes ${from}-${body.length - 1}/${body.length}` } : {}),
    });
    if (stall === file) {
      stall = undefined;
      res.write(slice.subarray(0, Math.floor(slice.length / 2)));
      return;
    }
    res.end(slice);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/**
 * A `fetch` that cuts the connection of a transfer once half of the file has reached the reader: it aborts the
 * request (closing the socket) and fails the body, as a dropped connection does. It errs only when the reader asks for
 * more, so exactly the bytes before the cut have been handed over, which keeps the resume offset deterministic (a real
 * drop may lose bytes still queued in the client; the resume then simply starts earlier).
 */
export function cuttingFetch(file: string): typeof fetch {
  let armed = true;
  return async (input, init) => {
    const url = String(input);
    if (!armed || !url.endsWith(`/${file}`) || new Headers(init?.headers).has('range'))
      return fetch(input, init);
    armed = false;
    const abort = new AbortController();
    const response = await fetch(input, { ...init, signal: abort.signal });
    const half = Math.floor(Number(response.headers.get('content-length')) / 2);
    const reader = response.body!.getReader();
    let sent = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          if (sent >= half) {
            abort.abort();
            controller.error(new TypeError('terminated', { cause: new Error('other side closed') }));
            return;
          }
          const { value, done } = await reader.read();
          if (done) {
            controller.close();
            return;
          }
          const chunk = value.subarray(0, half - sent);
          sent += chunk.length;
          controller.enqueue(chunk);
        },
      },
      { highWaterMark: 0 },
    );
    return new Response(body, { status: response.status, headers: response.headers });
  };
}
