import { randomBytes } from 'node:crypto';
import { link, readFile, rename, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { createFileExclusive, isAlive, removeOldSiblings } from '../../io/atomic.js';

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
  /** Called once, when the lock is found held by another process (before the first wait for it). */
  waiting?: () => void;
}

/** What a lock file holds: who owns it and since when. */
interface LockInfo {
  token: string;
  pid: number;
  host: string;
  /** When it was taken (ISO 8601). */
  time: string;
}

/**
 * A lock that names no owner was left by an older needlework (which created the file, then wrote its owner) or by
 * a file system without hard links, whose holder died in between: that window is microseconds, so a second is long.
 */
const UNREADABLE_STALE_MS = 1_000;

/**
 * Takes an exclusive lock on `lockPath` and resolves the function that releases it: a file naming its owner (pid,
 * host, time), which appears whole or not at all (`createFileExclusive`) and which the file system grants to exactly
 * one process. A lock whose owner is gone (its process no longer runs on this host) is broken at once by the next
 * taker; one owned on another host is broken once older than `staleMs`. So a crash, `kill -9` included, never blocks
 * the store. The embedded store holds it from its open to its close.
 */
export async function acquireLock(lockPath: string, options: LockOptions = {}): Promise<() => Promise<void>> {
  const staleMs = options.staleMs ?? 10_000;
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const info: LockInfo = {
    token: randomBytes(8).toString('hex'),
    pid: process.pid,
    host: hostname(),
    time: new Date().toISOString(),
  };
  // What a breaker killed between moving a stale lock aside and removing it left behind.
  await removeOldSiblings(lockPath, '.stale-', staleMs);
  for (let attempt = 0; ; attempt++) {
    if (await createFileExclusive(lockPath, JSON.stringify(info))) break;
    if (attempt === 0) options.waiting?.();
    await breakIfStale(lockPath, staleMs);
    if (Date.now() > deadline) {
      const holder = await readLock(lockPath);
      const owner = holder ? `, held by pid ${holder.pid} on ${holder.host} since ${holder.time}` : '';
      throw new Error(`${LOCK_TIMED_OUT} ${lockPath}${owner}; delete it if no run is writing`);
    }
    // Jittered back-off, so processes started together do not retry in lockstep.
    await sleep(Math.min(100, 5 + attempt * 5) * (0.5 + Math.random()));
  }
  return () => release(lockPath, info.token);
}

const LOCK_TIMED_OUT = 'timed out waiting for the lock';

/** Whether `error` (or the one-line error of a store that could not be opened) is a lock that was not free in time. */
export function isLockTimeout(error: unknown): boolean {
  return String((error as Error | undefined)?.message).includes(LOCK_TIMED_OUT);
}

/** Releases the lock only if it is still ours (it may have been broken as stale and taken by another process). */
async function release(lockPath: string, token: string): Promise<void> {
  const holder = await readLock(lockPath);
  if (holder?.token === token) await unlink(lockPath).catch(() => undefined);
}

async function readLock(lockPath: string): Promise<LockInfo | undefined> {
  try {
    const info = JSON.parse(await readFile(lockPath, 'utf8')) as Partial<LockInfo> | null;
    if (typeof info?.token !== 'string' || typeof info.pid !== 'number' || typeof info.host !== 'string')
      return undefined;
    return {
      token: info.token,
      pid: info.pid,
      host: info.host,
      time: String(info.time ?? 'an unknown time'),
    };
  } catch {
    return undefined;
  }
}

async function breakIfStale(lockPath: string, staleMs: number): Promise<void> {
  const info = await stat(lockPath).catch(() => undefined);
  if (!info) return;
  const holder = await readLock(lockPath);
  const age = Date.now() - info.mtimeMs;
  const dead = holder !== undefined && holder.host === hostname() && !isAlive(holder.pid);
  if (!dead && age < (holder === undefined ? Math.min(staleMs, UNREADABLE_STALE_MS) : staleMs)) return;
  // Move the stale lock aside atomically; of several processes breaking it at once, only one rename succeeds.
  const aside = `${lockPath}.stale-${randomBytes(4).toString('hex')}`;
  try {
    await rename(lockPath, aside);
  } catch {
    return;
  }
  const moved = await readLock(aside);
  if (moved && moved.token !== holder?.token) {
    // Between our look and the rename another process broke the same lock and took a fresh one: put it back.
    await link(aside, lockPath).catch(() => undefined);
  }
  await unlink(aside).catch(() => undefined);
}
