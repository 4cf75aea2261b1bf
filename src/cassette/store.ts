import { mkdir, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Diagnostic } from '../errors/diagnostic.js';
import { describeFsError, UserError } from '../errors/index.js';
import { writeFileAtomic } from '../io/atomic.js';
import { redactSecrets } from './secrets.js';

/** A cassette file: `version` and the entries keyed by request hash (written with keys sorted, for clean diffs). */
export interface CassetteBody<E> {
  version: 1;
  entries: Record<string, E>;
}

/** What a kind of cassette holds: a check for one entry, and what to call the entries in an error. */
export interface EntryFormat<E> {
  isEntry(value: unknown): value is E;
  /** Says what an entry needs, for the error on a bad one (for example "recorded verdicts (each needs ...)"). */
  expected: string;
  /**
   * A deeper look at an entry `isEntry` accepted (the shape of its recorded response): what is wrong with it in a few
   * words (`what` names the entry for a person: "tool call graph_query, trial 2"), or `undefined` when it is fine.
   */
  problem?(entry: E): { what: string; problem: string } | undefined;
}

/**
 * Recorded answers keyed by request hash: the one cassette format and store that the judge's verdicts and live
 * runs' tool calls and model responses share. Writes are atomic (a temporary file in the same folder, then a rename:
 * a reader never sees half a cassette), pass every entry through `redactSecrets` (when it is set, and when it is read), and merge with what is on disk at
 * that moment, so test workers recording into one cassette keep each other's entries. Two writes that race between
 * one's read and the other's rename can still drop the other's newest entries; those are simply recorded again on the
 * next recording run.
 */
export class CassetteStore<E> {
  private saving: Promise<void> = Promise.resolve();
  private queued: Promise<void> | undefined;
  /** The file as this store last read or wrote it (see `fileSignature`): unchanged since, it need not be read again. */
  private seen: string | undefined;
  private folderMade = false;

  protected constructor(
    readonly file: string,
    protected readonly entries: Map<string, E>,
    private readonly format: EntryFormat<E>,
  ) {}

  /** Reads a cassette; a missing file is an empty cassette unless `mustExist`. A corrupt one is a `UserError`. */
  static async open<E>(
    file: string,
    format: EntryFormat<E>,
    options: { mustExist?: boolean } = {},
  ): Promise<CassetteStore<E>> {
    const seen = await fileSignature(file);
    const store = new CassetteStore(
      file,
      await readEntries(file, format, options.mustExist ?? false),
      format,
    );
    store.seen = seen;
    return store;
  }

  get(hash: string): E | undefined {
    return this.entries.get(hash);
  }

  /** Keeps an entry, its secrets redacted now (once), so a save writes what it holds as it is. */
  set(hash: string, entry: E): void {
    this.entries.set(hash, redactSecrets(entry) as E);
  }

  get size(): number {
    return this.entries.size;
  }

  values(): IterableIterator<E> {
    return this.entries.values();
  }

  /**
   * Saves the cassette soon. Writes run one at a time; entries set while one is running share the next write, so
   * recording n entries costs far fewer than n full rewrites. A failed write rejects this call and every later one.
   */
  persist(): Promise<void> {
    if (!this.queued) {
      const next = this.saving.then(() => {
        this.queued = undefined; // entries set from now on need the write after this one
        return this.save();
      });
      this.queued = next;
      this.saving = next;
    }
    return this.queued;
  }

  /** Waits for every pending write; rejects with the write's `UserError` if one failed. */
  flush(): Promise<void> {
    return this.saving;
  }

  /**
   * Writes the cassette atomically, merged with the entries another process wrote since it was read (the file is read
   * again only when it changed since this store last read or wrote it), into a folder made if missing.
   */
  async save(): Promise<void> {
    const now = await fileSignature(this.file);
    if (now !== undefined && now !== this.seen) {
      const onDisk = await readEntries(this.file, this.format, false).catch(() => new Map<string, E>());
      for (const [hash, entry] of onDisk) if (!this.entries.has(hash)) this.entries.set(hash, entry);
    }
    const sorted: Record<string, unknown> = {};
    for (const hash of [...this.entries.keys()].sort()) sorted[hash] = this.entries.get(hash);
    const body = { version: 1, entries: sorted };
    try {
      if (!this.folderMade) {
        await mkdir(dirname(this.file), { recursive: true });
        this.folderMade = true;
      }
      await writeFileAtomic(this.file, `${JSON.stringify(body, null, 2)}\n`);
      // What this store wrote: a writer after it changes the signature, and the next save reads its entries.
      this.seen = await fileSignature(this.file);
    } catch (error) {
      throw new UserError({
        file: this.file,
        message: `cannot write the cassette: ${describeFsError(error)}`,
      });
    }
  }
}

/** What tells a file apart from itself at another moment: inode, size and modification time (`undefined`: no file). */
async function fileSignature(file: string): Promise<string | undefined> {
  try {
    const s = await stat(file, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}`;
  } catch {
    return undefined;
  }
}

/** A cassette's entries, checked against `format`; a missing file is empty unless `mustExist`. */
export async function readEntries<E>(
  file: string,
  format: EntryFormat<E>,
  mustExist: boolean,
): Promise<Map<string, E>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !mustExist) return new Map();
    throw new UserError({ file, message: code === 'ENOENT' ? 'no such cassette' : `cannot read: ${code}` });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UserError({ file, message: 'the cassette is not JSON' });
  }
  const body = value as Partial<CassetteBody<unknown>> | null;
  if (body === null || typeof body !== 'object' || body.version !== 1 || !isObject(body.entries)) {
    throw new UserError({ file, message: 'expected a cassette: {"version": 1, "entries": {...}}' });
  }
  const entries = new Map<string, E>();
  const bad: string[] = [];
  const problems: Diagnostic[] = [];
  for (const [hash, entry] of Object.entries(body.entries)) {
    if (!format.isEntry(entry)) {
      bad.push(hash);
      continue;
    }
    const found = format.problem?.(entry);
    if (found) {
      problems.push({
        file,
        ...placeOf(text, hash),
        message: `entry "${hash.slice(0, 12)}" (${found.what}): ${found.problem}`,
      });
    } else entries.set(hash, redactSecrets(entry) as E); // a cassette written by hand or by an older needlework
  }
  if (bad.length > 0) {
    problems.unshift({
      file,
      message: `entries ${bad.map((h) => `"${h.slice(0, 12)}"`).join(', ')} are not ${format.expected}`,
    });
  }
  if (problems.length > 0) throw new UserError(problems);
  return entries;
}

/** The line and column of an entry's key in the cassette's text, when it can be found. */
function placeOf(text: string, hash: string): { line?: number; column?: number } {
  const at = text.indexOf(JSON.stringify(hash));
  if (at < 0) return {};
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: at - start + 1 };
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
