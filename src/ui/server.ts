import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { isServerUrl, openStore } from '../history/store/open.js';
import type { Store } from '../history/store/store.js';
import { version } from '../version.js';
import { clientFolder, readAsset } from './assets.js';
import type { Info } from './client/types.js';
import { UiData } from './data.js';
import { DOOR_PREFIX, type DoorFile, doorPath, removeDoor, writeDoor } from './door/protocol.js';
import { authorized, isDoorOperation, serveDoor } from './door/serve.js';
import { allowedHosts, isLoopback, refusal, SECURITY_HEADERS } from './guard.js';
import { LiveFeed } from './live.js';
import { workupRoute } from './workup-route.js';

/** The port `needlework ui` tries first; the next few are tried when it is taken and no `--port` was given. */
export const DEFAULT_PORT = 4173;
const PORTS_TRIED = 10;
/** The largest request body the door accepts (a run of 100,000 checks is about 40 MB of JSON). */
const MAX_BODY_BYTES = 512 * 1024 * 1024;

export interface UiOptions {
  /** The store: the embedded store's folder (resolved already) or a `postgres://` URL. */
  store: string;
  /** The port; 0 for any free one. @default 4173, or the next free one of the ten after it */
  port?: number;
  /** The address to listen on. @default '127.0.0.1' */
  host?: string;
  /** How long to wait (ms) for a run that has the embedded store open. */
  lockTimeoutMs?: number;
  /** Where the built client is. @default the folder `npm run build` writes */
  assets?: string;
}

export interface UiServer {
  /** The address to open: `http://127.0.0.1:4173/`. */
  url: string;
  store: Store;
  data: UiData;
  /** Stops serving, removes the door, waits for appends in flight and closes the store. */
  close(): Promise<void>;
}

/**
 * Starts `needlework ui`: opens the store (and holds it: the embedded store has one owner), serves the client and its
 * JSON API on `node:http`, and opens the door through which runs append while it is open (embedded store only).
 */
export async function startUi(options: UiOptions): Promise<UiServer> {
  const store = await openStore(options.store, {
    ...(options.lockTimeoutMs !== undefined && { lockTimeoutMs: options.lockTimeoutMs }),
  });
  try {
    return await serve(store, options);
  } catch (error) {
    await store.close();
    throw error;
  }
}

async function serve(store: Store, options: UiOptions): Promise<UiServer> {
  const embedded = !isServerUrl(options.store);
  const data = new UiData(store);
  const live = new LiveFeed(
    store.engine,
    () => store.count(),
    () => data.forgetBaselines(),
  );
  await live.start();
  if (!embedded) await live.follow(options.store);
  const token = randomBytes(32).toString('hex');
  const assets = options.assets ?? clientFolder();
  const listen = options.host ?? '127.0.0.1';
  let hosts = new Set<string>();
  const inFlight = new Set<Promise<unknown>>();

  const server = createServer((request, response) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
    const refused = refusal(request, hosts);
    if (refused) {
      request.resume();
      return send(response, 403, 'text/plain; charset=utf-8', `refused: ${refused}\n`);
    }
    const work = route(request, response).catch((error: unknown) => {
      if (!response.headersSent)
        json(response, 500, { error: String((error as Error)?.message ?? error).split('\n')[0] });
      else response.end();
    });
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  });
  server.keepAliveTimeout = 5_000;

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://ui.invalid');
    const path = url.pathname;
    if (path.startsWith(DOOR_PREFIX)) return door(request, response, path.slice(DOOR_PREFIX.length));
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      // Read and drop what was sent, so the refusal reaches the client rather than a reset connection.
      request.resume();
      response.setHeader('Allow', 'GET, HEAD');
      return send(response, 405, 'text/plain; charset=utf-8', 'the UI only reads\n');
    }
    if (path.startsWith('/api/')) return api(path.slice(5), url.searchParams, response);
    if (path.startsWith('/assets/')) {
      const asset = await readAsset(assets, decodeURIComponent(path.slice(8)));
      if (!asset) return send(response, 404, 'text/plain; charset=utf-8', 'no such file\n');
      return send(response, 200, asset.type, asset.body, 'no-cache');
    }
    // Every other path is a view of the client, which reads its URL.
    const page = await readAsset(assets, 'index.html');
    if (!page)
      return send(
        response,
        500,
        'text/plain; charset=utf-8',
        `the UI's client is not built (${assets}): run npm run build\n`,
      );
    return send(response, 200, page.type, page.body, 'no-cache');
  }

  async function api(name: string, query: URLSearchParams, response: ServerResponse): Promise<void> {
    const text = (key: string) => query.get(key) || undefined;
    const whole = (key: string, fallback: number, max: number) => {
      const value = Number(query.get(key) ?? fallback);
      return Number.isInteger(value) && value >= 0 ? Math.min(value, max) : fallback;
    };
    const parts = name.split('/').map(decodeURIComponent);
    const [head, id, sub] = parts;
    if (head === 'info' && parts.length === 1) {
      const info: Info = { store: store.name, engine: store.engine.kind, runs: await store.count(), version };
      return json(response, 200, info);
    }
    if (head === 'events' && parts.length === 1) return live.subscribe(response);
    if (head === 'facets' && parts.length === 1) return json(response, 200, await data.facets());
    if (head === 'runs' && parts.length === 1) {
      const offset = whole('offset', 0, Number.MAX_SAFE_INTEGER);
      const filter = {
        ...(text('branch') !== undefined && { branch: text('branch') as string }),
        ...(text('model') !== undefined && { model: text('model') as string }),
        ...(validDate(text('from')) && { from: text('from') as string }),
        ...(validDate(text('to')) && { to: text('to') as string }),
      };
      const page = await data.runsPage(filter, offset, whole('limit', 100, 1000));
      return json(response, 200, { ...page, offset });
    }
    if (head === 'changes' && parts.length === 1) {
      const ids = (query.get('ids') ?? '').split(',').filter(Boolean).slice(0, 200);
      let gone = false;
      response.once('close', () => {
        gone = true;
      });
      // A page closed meanwhile is not answered: the comparisons it no longer waits for would hold up the next page.
      const changes = await data.changesOf(ids, () => gone);
      if (gone) return;
      return json(response, 200, changes);
    }
    if (head === 'runs' && id !== undefined && parts.length === 2) {
      const detail = await data.detail(id);
      return detail ? json(response, 200, detail) : notFound(response, `no run ${id}`);
    }
    if (head === 'runs' && id !== undefined && sub === 'trials' && parts.length === 3) {
      const trials = await data.trials(id);
      return trials ? json(response, 200, trials) : notFound(response, `no run ${id}`);
    }
    if (head === 'runs' && id !== undefined && sub === 'workups' && parts.length === 4) {
      const found = await workupRoute(store.engine, id, parts[3] as string, query.get('file'));
      return json(response, found.status, found.body);
    }
    if (head === 'compare' && parts.length === 1) {
      const current = text('current');
      if (!current) return json(response, 400, { error: 'compare needs ?current=<run id>' });
      const comparison = await data.compare(current, text('baseline'));
      return comparison ? json(response, 200, comparison) : notFound(response, 'no such run');
    }
    if (head === 'case' && parts.length === 1) {
      const spec = text('spec');
      const task = text('task');
      if (!spec || !task)
        return json(response, 400, { error: 'case needs ?spec=&task= (and &case= for a task case)' });
      const caseId = text('case');
      return json(
        response,
        200,
        await data.caseHistory({ spec, task, ...(caseId !== undefined && { case: caseId }) }),
      );
    }
    if (head === 'trends' && parts.length === 1)
      return json(response, 200, await data.trends(whole('last', 100, 2000)));
    return notFound(response, `no API ${name}`);
  }

  /** The door: store operations from runs on this machine, with the token; never from a browser. */
  async function door(request: IncomingMessage, response: ServerResponse, op: string): Promise<void> {
    if (!embedded || !isLoopback(request.socket.remoteAddress ?? ''))
      return send(response, 404, 'text/plain; charset=utf-8', 'no door\n');
    if (request.method !== 'POST' || !authorized(request.headers.authorization, token))
      return send(response, 403, 'text/plain; charset=utf-8', 'refused: the door needs its token\n');
    if (!isDoorOperation(op)) return send(response, 404, 'text/plain; charset=utf-8', `no operation ${op}\n`);
    const body = await readBody(request);
    const value = await serveDoor(store, op, body === '' ? {} : JSON.parse(body), {
      appended: () => void live.check().catch(() => undefined),
      pruned: () => live.pruned(),
    });
    return json(response, 200, value ?? null);
  }

  const port = await listenOn(server, listen, options.port);
  const shown = listen === '0.0.0.0' || listen === '::' ? '127.0.0.1' : listen;
  hosts = allowedHosts(listen, port, listen === '0.0.0.0' || listen === '::' ? [hostname()] : []);
  const url = `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}/`;

  let doorFile: string | undefined;
  if (embedded) {
    doorFile = doorPath(options.store);
    const info: DoorFile = {
      url: `http://127.0.0.1:${port}`,
      token,
      pid: process.pid,
      host: hostname(),
      since: new Date().toISOString(),
    };
    if (!isLoopback(listen) && listen !== '0.0.0.0' && listen !== '::') {
      // The door listens where the server does; on another address, runs on this machine cannot use loopback.
      info.url = url.replace(/\/$/, '');
    }
    await writeDoor(doorFile, info);
  }

  let closing: Promise<void> | undefined;
  return {
    url,
    store,
    data,
    close: () =>
      (closing ??= (async () => {
        // The door first: a run that reads it from now on opens the store itself, once this process lets go of it.
        if (doorFile) await removeDoor(doorFile, token);
        live.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        await Promise.allSettled([...inFlight]);
        server.closeAllConnections();
        await store.close();
      })()),
  };
}

function validDate(value: string | undefined): boolean {
  return value !== undefined && !Number.isNaN(Date.parse(value));
}

function send(
  response: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  cache = 'no-store',
): void {
  response.writeHead(status, { 'Content-Type': type, 'Cache-Control': cache });
  response.end(body);
}

function json(response: ServerResponse, status: number, value: unknown): void {
  send(response, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

function notFound(response: ServerResponse, message: string): void {
  json(response, 404, { error: message });
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error(`the request is larger than ${MAX_BODY_BYTES} bytes`));
        request.destroy();
      } else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** Listens on `port`, or on the default port or one of the next free ones; resolves the port. */
async function listenOn(server: Server, host: string, port: number | undefined): Promise<number> {
  const candidates =
    port !== undefined ? [port] : Array.from({ length: PORTS_TRIED }, (_, i) => DEFAULT_PORT + i);
  let last: unknown;
  for (const candidate of candidates) {
    try {
      await new Promise<void>((resolve, reject) => {
        const fail = (error: Error) => reject(error);
        server.once('error', fail);
        server.listen(candidate, host, () => {
          server.off('error', fail);
          resolve();
        });
      });
      return (server.address() as AddressInfo).port;
    } catch (error) {
      last = error;
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') break;
    }
  }
  const code = (last as NodeJS.ErrnoException)?.code;
  throw new Error(
    code === 'EADDRINUSE'
      ? `port ${candidates.join(', ')} ${candidates.length > 1 ? 'are' : 'is'} in use (choose another with --port)`
      : `cannot listen on ${host}:${candidates[0]}: ${(last as Error)?.message ?? last}`,
  );
}
