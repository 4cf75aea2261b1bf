import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { type FileHandle, link, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { isMainThread } from 'node:worker_threads';

/**
 * Writing files so that a reader, a crash or a full disk never leaves half a file: every file needlework writes (the
 * reports, cassettes, workups, the trend history, entailment score packs and lock files) goes through here.
 *
 * A write goes to a temporary file beside the target (same folder, so same file system), is flushed to disk, then
 * renamed over the target, which POSIX makes atomic: a reader sees the old file or the new one, and a failed write
 * (ENOSPC, EROFS, a kill) leaves the old one whole. The temporary file is removed on every exit path: on an error,
 * on SIGINT, SIGTERM and SIGHUP, and on `process.exit()`. A `kill -9` cannot be caught, so each temporary file's name
 * carries its writer's pid and a tag of its host, and the next write into that folder removes those whose writer is
 * gone.
 */

export interface AtomicWriteOptions {
  /**
   * Flush the data to disk before the rename, so that a power cut cannot leave the new name over empty content. Only
   * files whose loss costs nothing (a cache that recomputes a damaged entry) turn it off.
   * @default true
   */
  fsync?: boolean;
  /** The file's permission bits, from its creation on (0o600 for a secret only its owner may read). @default 0o666 */
  mode?: number;
}

/** This host, as 6 hex digits in temporary files' names (a folder may be shared with other hosts over a network). */
const HOST_TAG = createHash('sha256').update(hostname()).digest('hex').slice(0, 6);

/**
 * `<target>.<pid>.<host tag>.<random>.tmp`; the host tag is absent from names written before it existed (needlework
 * 0.x's trend history, cassette store and score cache wrote `<target>.<pid>.<random>.tmp`).
 */
const TEMP_NAME = /\.(\d+)\.(?:([0-9a-f]{6})\.)?(?:[0-9a-f]{8}|[0-9a-f]{12})\.tmp$/;

/** A fresh temporary name beside `path`, for this process. */
export function tempPathFor(path: string): string {
  return `${path}.${process.pid}.${HOST_TAG}.${randomBytes(4).toString('hex')}.tmp`;
}

/**
 * What a file is written from: its text or bytes, or its text in chunks made as they are written (each whole
 * characters), which may wait for a part still being computed while the ones before it are written.
 */
export type FileData = string | Uint8Array | Iterable<string> | AsyncIterable<string>;

/**
 * Writes `data` to `path` atomically (see the module comment). The folder must exist. Chunks are written as they
 * come, gathered to about a megabyte a write.
 */
export async function writeFileAtomic(
  path: string,
  data: FileData,
  options: AtomicWriteOptions = {},
): Promise<void> {
  await sweepOrphans(dirname(path));
  const temp = tempPathFor(path);
  track(temp);
  try {
    const handle = await open(temp, 'wx', options.mode);
    try {
      if (typeof data === 'string' || data instanceof Uint8Array) await handle.writeFile(data);
      else await writeChunks(handle, data);
      if (options.fsync !== false) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  } finally {
    untrack(temp);
  }
}

/** The size of the buffer chunks are gathered in: one write per 256 KB rather than one per chunk. */
const PIECE_BYTES = 1 << 18;

/**
 * Writes `chunks` through `handle` (`writeFile` carries on where the last write ended, and finishes a short write),
 * each encoded into one reused buffer as it comes, the buffer written out whenever the next chunk might not fit. The
 * text is never gathered as strings: a joined string lives across the writes' awaits, so the young-generation
 * collector promotes it, and the old generation of a process writing 48 MB of JUnit grew by 190 MB of garbage before a
 * full collection (10,000 cases). A chunk is dropped as soon as it is encoded. Each chunk is encoded on its own, so a
 * surrogate pair split across two chunks would be written as two U+FFFD: the writers yield whole elements and values.
 */
async function writeChunks(
  handle: FileHandle,
  chunks: Iterable<string> | AsyncIterable<string>,
): Promise<void> {
  const buffer = Buffer.allocUnsafe(PIECE_BYTES);
  let used = 0;
  for await (const chunk of chunks) {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8 (a surrogate pair, two units, takes 4).
    if (used + chunk.length * 3 > PIECE_BYTES && used > 0) {
      await handle.writeFile(buffer.subarray(0, used));
      used = 0;
    }
    if (chunk.length * 3 > PIECE_BYTES) await handle.writeFile(chunk);
    else used += buffer.write(chunk, used);
  }
  if (used > 0) await handle.writeFile(buffer.subarray(0, used));
}

/**
 * `writeFileAtomic`, blocking: for callers that are synchronous on purpose (the entailment score cache, whose warm
 * path is nothing but small blocking reads and writes).
 */
export function writeFileAtomicSync(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): void {
  sweepOrphansSync(dirname(path));
  const temp = tempPathFor(path);
  track(temp);
  try {
    const fd = openSync(temp, 'wx');
    try {
      writeFileSync(fd, data);
      if (options.fsync !== false) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // never created, or already gone
    }
    throw error;
  } finally {
    untrack(temp);
  }
}

/**
 * Creates `path` holding `data` only if no file of that name exists, returning false if one does: the file appears
 * whole or not at all (written beside it, then hard-linked into place, which fails if the name is taken), so no
 * reader ever finds it empty, whatever kills the writer. On a file system without hard links it falls back to an
 * exclusive create then a write, and removes the file if the write fails.
 */
export async function createFileExclusive(path: string, data: string): Promise<boolean> {
  await sweepOrphans(dirname(path));
  const temp = tempPathFor(path);
  track(temp);
  try {
    const handle = await open(temp, 'wx');
    try {
      await handle.writeFile(data);
    } finally {
      await handle.close();
    }
    try {
      await link(temp, path);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return false;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
    }
    return await createByOpen(path, data);
  } finally {
    await unlink(temp).catch(() => undefined);
    untrack(temp);
  }
}

async function createByOpen(path: string, data: string): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  track(path);
  try {
    await handle.writeFile(data);
    await handle.close();
    return true;
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(path).catch(() => undefined);
    throw error;
  } finally {
    untrack(path);
  }
}

/** Whether a process of this pid runs on this host (EPERM: it does, under another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether a file name is a temporary file of ours whose writer, on this host, is gone. */
function isOrphan(name: string): boolean {
  const match = TEMP_NAME.exec(name);
  if (!match) return false;
  const pid = Number(match[1]);
  const host = match[2];
  if (host !== undefined && host !== HOST_TAG) return false;
  return pid !== process.pid && !isAlive(pid);
}

/** Folders already swept by this process: a writer that died before this process started left its files once. */
const swept = new Set<string>();

/** Removes the temporary files that writers on this host left in `dir` when they were killed. Never throws. */
export async function sweepOrphans(dir: string): Promise<void> {
  if (swept.has(dir)) return;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return; // not there yet: swept when it is
  }
  swept.add(dir);
  await Promise.all(names.filter(isOrphan).map((name) => unlink(join(dir, name)).catch(() => undefined)));
}

function sweepOrphansSync(dir: string): void {
  if (swept.has(dir)) return;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  swept.add(dir);
  for (const name of names.filter(isOrphan)) {
    try {
      unlinkSync(join(dir, name));
    } catch {
      // removed by another sweeper
    }
  }
}

/** Removes files beside `path` named `<name of path><infix>...` older than `maxAgeMs`; for a lock's leftovers. */
export async function removeOldSiblings(path: string, infix: string, maxAgeMs: number): Promise<void> {
  const dir = dirname(path);
  const prefix = `${basename(path)}${infix}`;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  const now = Date.now();
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const file = join(dir, name);
    const info = await stat(file).catch(() => undefined);
    if (info && now - info.mtimeMs >= maxAgeMs) await unlink(file).catch(() => undefined);
  }
}

// Temporary files being written by this process, removed if it is stopped mid-write.
const live = new Set<string>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
let exitHooked = false;
let signalsHooked = false;

function track(temp: string): void {
  live.add(temp);
  if (!exitHooked) {
    exitHooked = true;
    process.on('exit', removeLive);
  }
  // Signals reach only the main thread; a worker thread is stopped with its process, whose own handlers clean up.
  if (!signalsHooked && isMainThread) {
    signalsHooked = true;
    for (const signal of SIGNALS) process.on(signal, onSignal);
  }
}

function untrack(temp: string): void {
  live.delete(temp);
  if (live.size === 0 && signalsHooked) {
    signalsHooked = false;
    for (const signal of SIGNALS) process.off(signal, onSignal);
  }
}

function removeLive(): void {
  for (const temp of live) {
    try {
      unlinkSync(temp);
    } catch {
      // renamed into place already, or never created
    }
  }
  live.clear();
}

/**
 * A stop signal during a write: remove the temporary files, then let the signal do what it would have done. Our
 * handler is only installed while a write runs; with no other handler, the default (ending the process) is restored
 * and the signal sent again.
 */
function onSignal(signal: NodeJS.Signals): void {
  removeLive();
  signalsHooked = false;
  for (const s of SIGNALS) process.off(s, onSignal);
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}
