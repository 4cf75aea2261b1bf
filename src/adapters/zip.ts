import { crc32, inflateRawSync } from 'node:zlib';
import { UserError } from '../errors/index.js';

/**
 * Reads a zip archive held in memory (an Inspect AI `.eval` log), member by member, within limits: nothing is ever
 * written to disk, a member's name is only a key to look it up by, and a member is inflated only up to the size its
 * directory entry declares. The format is PKWARE's APPNOTE.TXT (sections 4.3.12 central directory header, 4.3.16 end
 * of central directory record); members are stored (method 0) or deflated (method 8), as Python's `zipfile` writes
 * them. ZIP64 archives (members or archives past 4 GiB) are refused: no log read in memory is that large.
 */

/** How far an archive may expand. The defaults hold any real Inspect log and stop a zip bomb before it allocates. */
export interface ZipLimits {
  /** Largest uncompressed size of one member, in bytes. @default 268435456 (256 MiB) */
  maxEntryBytes?: number;
  /** Largest uncompressed size of all the members read, together, in bytes. @default 1073741824 (1 GiB) */
  maxTotalBytes?: number;
  /**
   * Largest ratio of a member's uncompressed to compressed size, for members past 1 MiB uncompressed (JSON logs
   * compress 5-20 times; deflate's own limit is about 1,032). @default 200
   */
  maxRatio?: number;
  /** Most members an archive may list. @default 100000 */
  maxEntries?: number;
}

const DEFAULTS: Required<ZipLimits> = {
  maxEntryBytes: 256 * 1024 * 1024,
  maxTotalBytes: 1024 * 1024 * 1024,
  maxRatio: 200,
  maxEntries: 100_000,
};

/** One member as the central directory lists it. */
export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  crc: number;
  /** Where its local file header starts. */
  offset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

export function isZip(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04
  );
}

/** An archive's members, read from its central directory; `read` inflates one, within the limits. */
export class ZipReader {
  readonly entries: ZipEntry[];
  private readonly limits: Required<ZipLimits>;
  private inflated = 0;

  constructor(
    private readonly bytes: Buffer,
    private readonly file: string,
    limits: ZipLimits = {},
  ) {
    this.limits = { ...DEFAULTS, ...limits };
    this.entries = this.directory();
  }

  private fail(message: string): never {
    throw new UserError({ file: this.file, message });
  }

  private directory(): ZipEntry[] {
    const b = this.bytes;
    // The end record is the last 22 bytes, unless a comment (at most 65,535 bytes) follows it.
    let end = -1;
    for (let i = b.length - 22; i >= Math.max(0, b.length - 22 - 0xffff); i--) {
      if (b.readUInt32LE(i) === EOCD) {
        end = i;
        break;
      }
    }
    if (end < 0) this.fail('not a zip archive: no end of central directory record');
    const count = b.readUInt16LE(end + 10);
    const size = b.readUInt32LE(end + 12);
    const start = b.readUInt32LE(end + 16);
    if (count === 0xffff || size === 0xffffffff || start === 0xffffffff)
      this.fail('a ZIP64 archive: not read (an Inspect log read in memory is never past 4 GiB)');
    if (count > this.limits.maxEntries)
      this.fail(`the archive lists ${count} members, more than ${this.limits.maxEntries}`);
    if (start + size > end) this.fail('the central directory runs past the end of the archive');
    const entries: ZipEntry[] = [];
    let at = start;
    for (let n = 0; n < count; n++) {
      if (at + 46 > end || b.readUInt32LE(at) !== CENTRAL)
        this.fail(`member ${n + 1} of ${count}: no central directory header where the directory says`);
      const nameLength = b.readUInt16LE(at + 28);
      const extraLength = b.readUInt16LE(at + 30);
      const commentLength = b.readUInt16LE(at + 32);
      const name = b.toString('utf8', at + 46, at + 46 + nameLength);
      const entry: ZipEntry = {
        name,
        method: b.readUInt16LE(at + 10),
        crc: b.readUInt32LE(at + 16),
        compressedSize: b.readUInt32LE(at + 20),
        size: b.readUInt32LE(at + 24),
        offset: b.readUInt32LE(at + 42),
      };
      if (!safeName(name))
        this.fail(`member ${JSON.stringify(name)}: an unsafe name (absolute, "..", or a control character)`);
      entries.push(entry);
      at += 46 + nameLength + extraLength + commentLength;
    }
    return entries;
  }

  /** The member named `name`, or `undefined` when the archive has none. */
  find(name: string): ZipEntry | undefined {
    return this.entries.find((e) => e.name === name);
  }

  /** A member's bytes, inflated within the limits and checked against its CRC-32. */
  read(entry: ZipEntry): Buffer {
    const { maxEntryBytes, maxTotalBytes, maxRatio } = this.limits;
    const where = `member ${JSON.stringify(entry.name)}`;
    if (entry.size > maxEntryBytes)
      this.fail(`${where} is ${entry.size} bytes uncompressed, past the limit of ${maxEntryBytes}`);
    if (entry.size > 1024 * 1024 && entry.size > entry.compressedSize * maxRatio)
      this.fail(
        `${where} would expand ${Math.round(entry.size / Math.max(1, entry.compressedSize))} times ` +
          `(${entry.compressedSize} to ${entry.size} bytes), past the limit of ${maxRatio}: a zip bomb`,
      );
    if (this.inflated + entry.size > maxTotalBytes)
      this.fail(`the members read so far expand past the limit of ${maxTotalBytes} bytes in all`);
    const b = this.bytes;
    if (entry.offset + 30 > b.length || b.readUInt32LE(entry.offset) !== LOCAL)
      this.fail(`${where}: no local file header where the directory says`);
    const data = entry.offset + 30 + b.readUInt16LE(entry.offset + 26) + b.readUInt16LE(entry.offset + 28);
    if (data + entry.compressedSize > b.length)
      this.fail(`${where}: its data runs past the end of the archive`);
    const raw = b.subarray(data, data + entry.compressedSize);
    let out: Buffer;
    if (entry.method === 0) out = Buffer.from(raw);
    else if (entry.method === 8) {
      try {
        // Never more than the declared size: a member whose directory entry lies about its size stops there.
        out = inflateRawSync(raw, { maxOutputLength: Math.max(1, entry.size) });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        this.fail(
          code === 'ERR_BUFFER_TOO_LARGE'
            ? `${where} inflates past the ${entry.size} bytes its directory entry declares: a zip bomb`
            : `${where}: the deflated data is corrupt (${(error as Error).message})`,
        );
      }
    } else this.fail(`${where}: compression method ${entry.method}, not stored (0) or deflated (8)`);
    if (out.length !== entry.size)
      this.fail(`${where}: ${out.length} bytes inflated, the directory declares ${entry.size}`);
    if (crc32(out) >>> 0 !== entry.crc) this.fail(`${where}: its CRC-32 does not match (a damaged archive)`);
    this.inflated += out.length;
    return out;
  }
}

/** A member name that names a place inside the archive: relative, no `..` part, no control character, no backslash. */
function safeName(name: string): boolean {
  if (name === '' || name.startsWith('/') || /^[A-Za-z]:/.test(name) || name.includes('\\')) return false;
  if (/[\u0000-\u001f]/.test(name)) return false;
  return !name.split('/').includes('..');
}
