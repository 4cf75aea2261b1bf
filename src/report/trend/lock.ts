import { randomBytes } from 'node:crypto';
import { link, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

export interface LockOptions {
  /**
   * A lock older than this (ms) is taken to belong to a crashed process and is broken. Holders keep a lock for a read
   * and a write, milliseconds, so the default leaves a wide margin.
   * @default 10000
   */
  staleMs?: number;
  /**
   * How long to wait for the lock (ms) before giving up with an error.
   * @default 30000
   */
  timeoutMs?: number;
}

interface LockInfo {
  token: string;
  pid: number;
  host: string;
}

/**
 * Runs `fn` holding an exclusive lock on `lockPath`: a file created with `open(path, 'wx')`, which the file system
 * grants to exactly one process. A lock left by a crashed process is recognised (its process is gone on this host,
 * or it is older than `staleMs`) and broken, so a crash never blocks the history for good.
 */
export async function withLock<T>(
  lockPath: string,
  fn: () => Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  const release = await acquireLock(lockPath, options);
  try {
    return await fn();
  } finally {
    await release();
  }
}

/**
 * Takes the lock `withLock` takes, and resolves the function that releases it: for a holder whose work is not one
 * callback (an open store, held from its open to its close).
 */
export async function acquireLock(lockPath: string, options: LockOptions = {}): Promise<() => Promise<void>> {
  const staleMs = options.staleMs ?? 10_000;
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const info: LockInfo = { token: randomBytes(8).toString('hex'), pid: process.pid, host: hostname() };
  for (let attempt = 0; ; attempt++) {
    if (await tryAcquire(lockPath, info)) break;
    await breakIfStale(lockPath, staleMs);
    if (Date.now() > deadline)
      throw new Error(
        `needlework: timed out waiting for the lock ${lockPath}; delete it if no run is writing`,
      );
    // Jittered back-off, so processes started together do not retry in lockstep.
    await sleep(Math.min(100, 5 + attempt * 5) * (0.5 + Math.random()));
  }
  return () => release(lockPath, info.token);
}

async function tryAcquire(lockPath: string, info: LockInfo): Promise<boolean> {
  try {
    const handle = await open(lockPath, 'wx');
    try {
      await handle.writeFile(JSON.stringify(info));
    } finally {
      await handle.close();
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Releases the lock only if it is still ours (it may have been broken as stale and taken by another process). */
async function release(lockPath: string, token: string): Promise<void> {
  const holder = await readLock(lockPath);
  if (holder?.token === token) await unlink(lockPath).catch(() => undefined);
}

async function readLock(lockPath: string): Promise<LockInfo | undefined> {
  try {
    return JSON.parse(await readFile(lockPath, 'utf8')) as LockInfo;
  } catch {
    return undefined;
  }
}

async function breakIfStale(lockPath: string, staleMs: number): Promise<void> {
  const info = await stat(lockPath).catch(() => undefined);
  if (!info) return;
  const holder = await readLock(lockPath);
  const age = Date.now() - info.mtimeMs;
  // A lock file still empty or half-written is a holder between open() and write(): only age makes it stale.
  const dead = holder !== undefined && holder.host === hostname() && !isAlive(holder.pid);
  if (!dead && age < staleMs) return;
  // Move the stale lock aside atomically; of several processes breaking it at once, only one rename succeeds.
  const aside = `${lockPath}.stale-${randomBytes(4).toString('hex')}`;
  try {
    await rename(lockPath, aside);
  } catch {
    return;
  }
  const moved = await readLock(aside);
  if (holder && moved && moved.token !== holder.token) {
    // Between our look and the rename another process broke the same lock and took a fresh one: put it back.
    await link(aside, lockPath).catch(() => undefined);
  }
  await unlink(aside).catch(() => undefined);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
