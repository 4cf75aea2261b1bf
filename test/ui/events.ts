/** One Server-Sent Event as the UI sends it. */
export interface SentEvent {
  event: string;
  data: unknown;
  /** When it arrived (`performance.now()`). */
  at: number;
}

/**
 * The UI's event stream (`GET /api/events`) read as a page reads it: every event kept, in order, with when it arrived,
 * so a test waits for the next one it expects.
 */
export class EventStream {
  private readonly events: SentEvent[] = [];
  private read = 0;
  private wake: (() => void) | undefined;
  private readonly controller = new AbortController();
  private ended: Error | undefined;

  constructor(base: string) {
    void this.pump(base).catch((error: unknown) => {
      this.ended = error as Error;
      this.wake?.();
    });
  }

  /** The next event named `event` that `accept` takes (others are passed over), within `timeoutMs`. */
  async next(
    event: string,
    accept: (data: unknown) => boolean = () => true,
    timeoutMs = 10_000,
  ): Promise<SentEvent> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      while (this.read < this.events.length) {
        const found = this.events[this.read++] as SentEvent;
        if (found.event === event && accept(found.data)) return found;
      }
      if (this.ended) throw this.ended;
      const left = deadline - performance.now();
      if (left <= 0)
        throw new Error(
          `no ${event} event within ${timeoutMs} ms; got ${this.events.map((e) => e.event).join(', ')}`,
        );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  close(): void {
    this.controller.abort();
  }

  private async pump(base: string): Promise<void> {
    const response = await fetch(`${base}api/events`, { signal: this.controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the event stream ended');
      text += decoder.decode(value, { stream: true });
      for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n')) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        const name = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (name !== undefined && data !== undefined)
          this.events.push({ event: name, data: JSON.parse(data), at: performance.now() });
      }
      this.wake?.();
    }
  }
}
