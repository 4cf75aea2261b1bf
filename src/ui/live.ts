import type { ServerResponse } from 'node:http';
import { listenToStore, type StoreChange, type StoreListener } from '../history/store/notify.js';
import type { SqlClient } from '../history/store/sql.js';
import type { LiveMode, RunEvent } from './client/types.js';
import { lastSeq, runsAfter } from './queries.js';

/** How often a PostgreSQL store is asked for new runs (ms) while the UI cannot LISTEN to it. */
export const SERVER_POLL_MS = 400;
/** How long after losing its LISTEN connection the UI tries again (ms). */
export const LISTEN_RETRY_MS = 2_000;
/** A comment line every so often keeps proxies and the browser from closing an idle event stream (ms). */
const HEARTBEAT_MS = 15_000;
/** How many run numbers already sent are remembered, so that a late notification sends no run twice. */
const SENT_KEPT = 10_000;

/**
 * The Live view's feed: Server-Sent Events (`GET /api/events`), one `run` event per run the store gained, and a
 * `mode` event saying how the UI hears of them. The store is asked for the runs numbered after the last one sent (its
 * `seq`), and for those a notification named, so whatever appended them (the door, another process on a PostgreSQL
 * server, an import) each reaches every open page once.
 *
 * With the embedded store, the door's appends call `check`. With a PostgreSQL server, `follow` LISTENs to the store's
 * channel on a connection of its own: each append notifies as it commits. While that connection is down, the feed
 * looks every `SERVER_POLL_MS` instead, tells the pages so (`polling`, with the reason), and tries to LISTEN again
 * every `LISTEN_RETRY_MS`; once it does, it looks once for what it missed and says `live` again.
 */
export class LiveFeed {
  private readonly clients = new Set<ServerResponse>();
  private seq = 0;
  /** Run numbers a notification named at or below `seq`: a transaction that committed after a later one. */
  private readonly named = new Set<number>();
  private readonly sent = new Set<number>();
  private checking: Promise<void> | undefined;
  private again = false;
  private mode: LiveMode = { mode: 'live' };
  private timer: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private listener: StoreListener | undefined;
  private closed = false;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly db: SqlClient,
    private readonly total: () => Promise<number>,
    /** Runs were pruned from the store: what the server keeps of its baselines is stale. */
    private readonly onPrune: () => void = () => undefined,
  ) {
    this.heartbeat = setInterval(() => {
      for (const client of this.clients) client.write(': keep-alive\n\n');
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  async start(): Promise<void> {
    this.seq = await lastSeq(this.db);
  }

  /** Follows the PostgreSQL server at `url`: LISTEN while it can, polling while it cannot. */
  async follow(url: string): Promise<void> {
    try {
      const listener = await listenToStore(
        url,
        (change) => this.heard(change),
        (reason) => this.lost(url, reason),
      );
      if (this.closed) {
        await listener.close();
        return;
      }
      this.listener = listener;
      if (this.timer) clearInterval(this.timer);
      this.timer = undefined;
      this.setMode({ mode: 'live' });
      // What was added while nothing listened.
      await this.check().catch(() => undefined);
    } catch (error) {
      this.lost(url, String((error as Error)?.message ?? error).split('\n')[0] ?? '');
    }
  }

  /** How the feed hears of new runs now. */
  get current(): LiveMode {
    return this.mode;
  }

  /** Adds a page's event stream; it hears the feed's mode first. */
  subscribe(response: ServerResponse): void {
    response.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
    });
    response.write(`: connected\n\n${modeEvent(this.mode)}`);
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
        const named = [...this.named];
        this.named.clear();
        const found = await runsAfter(this.db, this.seq, named).catch((error: unknown) => {
          // Asked for again at the next look.
          for (const seq of named) this.named.add(seq);
          throw error;
        });
        const fresh = found.filter(({ seq }) => !this.sent.has(seq));
        if (fresh.length === 0) continue;
        const total = await this.total();
        for (const { seq, row } of fresh) {
          this.seq = Math.max(this.seq, seq);
          this.remember(seq);
          const event: RunEvent = { run: row, total };
          this.broadcast(`event: run\ndata: ${JSON.stringify(event)}\n\n`);
        }
      } while (this.again);
    })().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  /** Runs were pruned: the server forgets what they changed and every page reloads what it shows. */
  pruned(): void {
    this.onPrune();
    this.broadcast('event: reset\ndata: {}\n\n');
  }

  close(): void {
    this.closed = true;
    clearInterval(this.heartbeat);
    if (this.timer) clearInterval(this.timer);
    if (this.retry) clearTimeout(this.retry);
    void this.listener?.close();
    for (const client of this.clients) client.end();
    this.clients.clear();
  }

  private heard(change: StoreChange): void {
    if (change.kind === 'prune') {
      this.pruned();
      return;
    }
    if (change.seq <= this.seq) this.named.add(change.seq);
    void this.check().catch(() => undefined);
  }

  private lost(url: string, reason: string): void {
    this.listener = undefined;
    if (this.closed) return;
    this.setMode({
      mode: 'polling',
      reason: `not listening to the server (${reason}): looking for new runs every ${SERVER_POLL_MS} ms`,
    });
    if (!this.timer) {
      this.timer = setInterval(() => void this.check().catch(() => undefined), SERVER_POLL_MS);
      this.timer.unref();
    }
    if (this.retry) clearTimeout(this.retry);
    this.retry = setTimeout(() => void this.follow(url), LISTEN_RETRY_MS);
    this.retry.unref();
  }

  private setMode(mode: LiveMode): void {
    if (mode.mode === this.mode.mode && mode.reason === this.mode.reason) return;
    this.mode = mode;
    this.broadcast(modeEvent(mode));
  }

  private remember(seq: number): void {
    this.sent.add(seq);
    if (this.sent.size > SENT_KEPT) this.sent.delete(this.sent.values().next().value as number);
  }

  private broadcast(text: string): void {
    for (const client of this.clients) client.write(text);
  }
}

function modeEvent(mode: LiveMode): string {
  return `event: mode\ndata: ${JSON.stringify(mode)}\n\n`;
}
