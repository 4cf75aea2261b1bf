import type { ServerResponse } from 'node:http';
import type { SqlClient } from '../history/store/sql.js';
import type { RunEvent } from './client/types.js';
import { lastSeq, runsAfter } from './queries.js';

/** How often a PostgreSQL store is asked for new runs (ms): other processes append there directly. */
export const SERVER_POLL_MS = 400;
/** A comment line every so often keeps proxies and the browser from closing an idle event stream (ms). */
const HEARTBEAT_MS = 15_000;

/**
 * The Live view's feed: Server-Sent Events (`GET /api/events`), one `run` event per run the store gained. The store is
 * asked for the runs numbered after the last one sent (its `seq`), so whatever appended them (the door, another
 * process on a PostgreSQL server, an import) each reaches every open page once, in order.
 */
export class LiveFeed {
  private readonly clients = new Set<ServerResponse>();
  private seq = 0;
  private checking: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly db: SqlClient,
    private readonly total: () => Promise<number>,
  ) {
    this.heartbeat = setInterval(() => {
      for (const client of this.clients) client.write(': keep-alive\n\n');
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  async start(pollMs?: number): Promise<void> {
    this.seq = await lastSeq(this.db);
    if (pollMs) {
      this.timer = setInterval(() => void this.check().catch(() => undefined), pollMs);
      this.timer.unref();
    }
  }

  /** Adds a page's event stream. */
  subscribe(response: ServerResponse): void {
    response.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
    });
    response.write(': connected\n\n');
    this.clients.add(response);
    response.on('close', () => this.clients.delete(response));
  }

  /** Looks for runs appended since the last look and sends them; looks again if asked while looking. */
  check(): Promise<void> {
    if (this.checking) {
      this.again = true;
      return this.checking;
    }
    this.checking = (async () => {
      do {
        this.again = false;
        const fresh = await runsAfter(this.db, this.seq);
        if (fresh.length === 0) continue;
        const total = await this.total();
        for (const { seq, row } of fresh) {
          this.seq = Math.max(this.seq, seq);
          const event: RunEvent = { run: row, total };
          const text = `event: run\ndata: ${JSON.stringify(event)}\n\n`;
          for (const client of this.clients) client.write(text);
        }
      } while (this.again);
    })().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  /** Tells every page the history changed under it (a prune): it reloads what it shows. */
  reset(): void {
    for (const client of this.clients) client.write('event: reset\ndata: {}\n\n');
  }

  close(): void {
    clearInterval(this.heartbeat);
    if (this.timer) clearInterval(this.timer);
    for (const client of this.clients) client.end();
    this.clients.clear();
  }
}
