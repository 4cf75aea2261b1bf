import { execFileSync } from 'node:child_process';
import { readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireLock, type LockOptions } from '../../src/history/store/lock.js';

/** Runs `fn` holding the lock, as the embedded store holds it from its open to its close. */
async function withLock<T>(path: string, fn: () => Promise<T>, options?: LockOptions): Promise<T> {
  const release = await acquireLock(path, options);
  try {
    return await fn();
  } finally {
    await release();
  }
}

import { useTmpDir } from '../helpers/tmp.js';

const tmp = useTmpDir();

/** A pid that no process has: a child that has already exited. */
function deadPid(): number {
  return Number(
    execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).toString(),
  );
}

/** Sets a file's times `ms` into the past. */
async function age(file: string, ms: number): Promise<void> {
  const then = new Date(Date.now() - ms);
  await utimes(file, then, then);
}

describe('acquireLock', () => {
  it('records its owner (pid, host, time) while held, and leaves nothing behind', async () => {
    const dir = await tmp();
    const lock = join(dir, 'trend.json.lock');
    const before = Date.now();
    const held = await withLock(lock, async () => JSON.parse(await readFile(lock, 'utf8')));
    expect(held).toMatchObject({ pid: process.pid, host: hostname(), token: expect.any(String) });
    expect(Date.parse(held.time)).toBeGreaterThanOrEqual(before - 1000);
    expect(await readdir(dir)).toEqual([]);
  });

  it('says once that it waits for a lock another owner holds, and not when it takes a free one', async () => {
    const lock = join(await tmp(), 'store.lock');
    let waits = 0;
    const waiting = () => void waits++;
    await withLock(lock, async () => undefined, { waiting });
    expect(waits).toBe(0);
    const release = await acquireLock(lock);
    const second = withLock(lock, async () => waits, { waiting, timeoutMs: 5_000 });
    await new Promise((done) => setTimeout(done, 150));
    expect(waits).toBe(1);
    await release();
    expect(await second).toBe(1);
  });

  it('breaks at once the lock of an owner that is gone, however young the lock and long staleMs', async () => {
    const dir = await tmp();
    const lock = join(dir, 'trend.json.lock');
    const owner = { token: 't', pid: deadPid(), host: hostname(), time: new Date().toISOString() };
    await writeFile(lock, JSON.stringify(owner));
    // With staleMs a minute and 3 s to wait, only the dead owner can have freed it.
    expect(await withLock(lock, async () => 'taken', { staleMs: 60_000, timeoutMs: 3_000 })).toBe('taken');
    expect(await readdir(dir)).toEqual([]);
  });

  it('breaks an empty lock (an older needlework killed between creating and writing it) once a second old', async () => {
    const dir = await tmp();
    const lock = join(dir, 'trend.json.lock');
    await writeFile(lock, '');
    await age(lock, 2_000);
    expect(await withLock(lock, async () => 'taken', { staleMs: 60_000, timeoutMs: 3_000 })).toBe('taken');
  });

  it('respects an owner on another host (its pid means nothing here) until staleMs, naming it when giving up', async () => {
    const dir = await tmp();
    const lock = join(dir, 'trend.json.lock');
    const time = new Date().toISOString();
    await writeFile(lock, JSON.stringify({ token: 't', pid: deadPid(), host: 'elsewhere', time }));
    await expect(withLock(lock, async () => 'never', { timeoutMs: 100 })).rejects.toThrow(
      `timed out waiting for the lock ${lock}, held by pid`,
    );
    await age(lock, 20_000);
    expect(await withLock(lock, async () => 'taken', { staleMs: 10_000, timeoutMs: 3_000 })).toBe('taken');
  });

  it('removes what a breaker killed mid-way left beside the lock, once older than staleMs', async () => {
    const dir = await tmp();
    const lock = join(dir, 'trend.json.lock');
    await writeFile(`${lock}.stale-0badf00d`, '{}');
    await writeFile(`${lock}.stale-fresh001`, '{}');
    await age(`${lock}.stale-0badf00d`, 20_000);
    await withLock(lock, async () => undefined, { staleMs: 10_000 });
    expect(await readdir(dir)).toEqual(['trend.json.lock.stale-fresh001']);
  });
});
