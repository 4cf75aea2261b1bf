/**
 * A counting semaphore: at most `limit` tasks run at once, the rest wait in arrival order. It bounds how many
 * requests one judge has in flight, so a rubric over many workups does not open hundreds of connections or trip a
 * server's rate limit on its own.
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) {
      throw new TypeError(`Semaphore: limit must be a positive integer, got ${limit}`);
    }
  }

  /** Runs `task` when a slot is free and frees the slot when it settles. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.active < this.limit) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next)
      next(); // the slot passes straight to the next task
    else this.active--;
  }
}
