import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { UserError } from '../../errors/index.js';
import { sha256File } from '../onnx/session.js';
import { ProgressBar, type ProgressStream } from './progress.js';

/** What a downloaded file must be; each check is made when the value is known. */
export interface Expected {
  size?: number;
  sha256?: string;
}

export interface DownloadOptions {
  /** Further attempts after a broken connection, each resuming where the last stopped. @default 3 */
  retries?: number;
  /** Where the progress bar draws (only when it is a terminal). */
  progress?: ProgressStream;
  /** The label of the progress bar. */
  label?: string;
  fetch?: typeof fetch;
}

/** What a download found: the verified file's size and sha256. */
export interface Downloaded {
  size: number;
  sha256: string;
}

/**
 * Downloads `url` to `dest`. Bytes land in `dest.part`; a broken connection leaves them there and the next attempt
 * (in this call or a later run) asks only for the rest with an HTTP Range request. The finished file is checked
 * against the expected size and sha256 (the Hub's LFS hash) before it is renamed into place, so `dest` exists only
 * when it is whole and right.
 */
export async function downloadFile(
  url: string,
  dest: string,
  expected: Expected,
  options: DownloadOptions = {},
): Promise<Downloaded> {
  const part = `${dest}.part`;
  const doFetch = options.fetch ?? fetch;
  const retries = options.retries ?? 3;
  const want: Expected = { ...expected };
  await mkdir(dirname(dest), { recursive: true });
  const bar = new ProgressBar(options.progress, options.label ?? dest, want.size);

  for (let attempt = 0; ; attempt++) {
    let have = (await stat(part).catch(() => undefined))?.size ?? 0;
    if (want.size !== undefined && have > want.size) {
      await rm(part, { force: true });
      have = 0;
    }
    if (want.size !== undefined && have === want.size) break;

    let response: Response;
    try {
      response = await doFetch(url, {
        headers: have > 0 ? { Range: `bytes=${have}-` } : {},
        redirect: 'follow',
      });
    } catch (error) {
      if (attempt < retries) continue;
      if (have > 0) throw interrupted(url, have, error);
      throw new UserError({
        file: url,
        message: `cannot download (${reason(error)}): check the network, or HF_ENDPOINT for a mirror`,
      });
    }
    if (response.status === 416 && have > 0) {
      // The server has nothing past what we hold: the part is complete, or wrong, which the checks below decide.
      await response.body?.cancel();
      break;
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      throw new UserError({
        file: url,
        message: `download failed: HTTP ${response.status} ${response.statusText}`,
      });
    }
    readExpected(response, want);
    const resumed = response.status === 206;
    if (!resumed) have = 0;
    if (want.size === undefined) {
      const length = Number(response.headers.get('content-length'));
      if (Number.isFinite(length) && length > 0 && response.headers.get('content-encoding') === null) {
        want.size = have + length;
      }
    }
    bar.start(have, want.size);
    // Written chunk by chunk through one file handle, closed before any retry looks at the part's size: a stream
    // pipeline may still hold unflushed bytes when it rejects, and the resume offset would be wrong.
    const file = await open(part, resumed ? 'a' : 'w');
    try {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        await file.write(chunk);
        bar.advance(chunk.length);
      }
      break;
    } catch (error) {
      if (attempt < retries) continue;
      throw interrupted(url, (await file.stat()).size, error);
    } finally {
      await file.close();
    }
  }
  bar.finish();

  const size = (await stat(part)).size;
  if (want.size !== undefined && size !== want.size) {
    await rm(part, { force: true });
    throw new UserError({
      file: url,
      message: `size mismatch: expected ${want.size} bytes, received ${size}`,
    });
  }
  const sha256 = await sha256File(part);
  if (want.sha256 !== undefined && sha256 !== want.sha256) {
    await rm(part, { force: true });
    throw new UserError({
      file: url,
      message: `sha256 mismatch: expected ${want.sha256}, received ${sha256}; the file was discarded`,
    });
  }
  await rename(part, dest);
  return { size, sha256 };
}

/**
 * The Hub serves an LFS file's sha256 as its `X-Linked-Etag` (or `ETag`) and its size as `X-Linked-Size`; a plain
 * git file's etag is a git hash, which is not a sha256 of the content and is not used.
 */
function readExpected(response: Response, want: Expected): void {
  const etag = (response.headers.get('x-linked-etag') ?? response.headers.get('etag') ?? '')
    .replace(/^W\//, '')
    .replace(/"/g, '');
  if (want.sha256 === undefined && /^[0-9a-f]{64}$/.test(etag)) want.sha256 = etag;
  const linked = Number(response.headers.get('x-linked-size'));
  if (want.size === undefined && Number.isInteger(linked) && linked > 0) want.size = linked;
  const range = /\/(\d+)$/.exec(response.headers.get('content-range') ?? '');
  if (want.size === undefined && range) want.size = Number(range[1]);
}

function interrupted(url: string, have: number, error: unknown): UserError {
  return new UserError({
    file: url,
    message: `download interrupted after ${have} bytes (${reason(error)}); run again to resume it`,
  });
}

/** fetch wraps the network's own error (ENOTFOUND, ECONNRESET) as its cause. */
function reason(error: unknown): string {
  if (!(error instanceof Error)) return 'connection lost';
  return (error.cause instanceof Error ? error.cause.message : error.message) || 'connection lost';
}
