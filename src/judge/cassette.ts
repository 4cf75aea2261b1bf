import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { UserError } from '../errors/index.js';
import type { CanonicalRequest } from './canonical.js';
import type { JudgeContext, Score, TokenCount } from './types.js';

/** A recorded verdict, as the judge first gave it. */
export interface RecordedVerdict {
  score: Score;
  rationale: string;
  raw: string;
  model: string;
  /** Tokens the recording spent; kept so a replay still reports what the judgement cost to make. */
  tokens?: TokenCount;
  /** What the recording cost, in USD, when it was known. */
  costUsd?: number;
}

export interface CassetteEntry {
  /** What the request was for, so a person reading the file can find a criterion. */
  context?: JudgeContext;
  /** The canonical request the key was hashed from. */
  request: CanonicalRequest;
  response: RecordedVerdict;
}

/** The cassette file: `version` and the entries keyed by request hash (written with keys sorted, for clean diffs). */
export interface CassetteFile {
  version: 1;
  entries: Record<string, CassetteEntry>;
}

/**
 * A record of judge answers keyed by request hash. Writes are atomic (a temporary file in the same folder, then a
 * rename: a reader never sees half a cassette), and merge with what is on disk at that moment, so test workers
 * recording into one cassette keep each other's entries. Two writes that race between one's read and the other's
 * rename can still drop the other's newest entries; those are simply recorded again on the next recording run.
 */
export class Cassette {
  private constructor(
    readonly file: string,
    private readonly entries: Map<string, CassetteEntry>,
  ) {}

  /** Reads a cassette; a missing file is an empty cassette unless `mustExist`. A corrupt one is a `UserError`. */
  static async load(file: string, options: { mustExist?: boolean } = {}): Promise<Cassette> {
    const entries = await readEntries(file, options.mustExist ?? false);
    return new Cassette(file, entries);
  }

  get(hash: string): CassetteEntry | undefined {
    return this.entries.get(hash);
  }

  set(hash: string, entry: CassetteEntry): void {
    this.entries.set(hash, entry);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The models the cassette's requests were made to, sorted. */
  models(): string[] {
    return [...new Set([...this.entries.values()].map((e) => e.request.model))].sort();
  }

  /** Writes the cassette atomically, merged with the entries another process wrote since it was read. */
  async save(): Promise<void> {
    const onDisk = await readEntries(this.file, false).catch(() => new Map<string, CassetteEntry>());
    for (const [hash, entry] of onDisk) if (!this.entries.has(hash)) this.entries.set(hash, entry);
    const sorted: Record<string, CassetteEntry> = {};
    for (const hash of [...this.entries.keys()].sort()) sorted[hash] = this.entries.get(hash)!;
    const body: CassetteFile = { version: 1, entries: sorted };
    const temp = `${this.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await writeFile(temp, `${JSON.stringify(body, null, 2)}\n`, 'utf8');
      await rename(temp, this.file);
    } catch (error) {
      await rm(temp, { force: true }).catch(() => undefined);
      throw new UserError({
        file: this.file,
        message: `cannot write the cassette: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      });
    }
  }
}

async function readEntries(file: string, mustExist: boolean): Promise<Map<string, CassetteEntry>> {
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
  const body = value as Partial<CassetteFile> | null;
  if (body === null || typeof body !== 'object' || body.version !== 1 || !isObject(body.entries)) {
    throw new UserError({ file, message: 'expected a cassette: {"version": 1, "entries": {...}}' });
  }
  const entries = new Map<string, CassetteEntry>();
  const bad: string[] = [];
  for (const [hash, entry] of Object.entries(body.entries)) {
    if (isEntry(entry)) entries.set(hash, entry);
    else bad.push(hash);
  }
  if (bad.length > 0) {
    throw new UserError({
      file,
      message: `entries ${bad.map((h) => `"${h.slice(0, 12)}"`).join(', ')} are not recorded verdicts (each needs request.model and response.score 1-5, response.rationale)`,
    });
  }
  return entries;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isEntry(value: unknown): value is CassetteEntry {
  if (!isObject(value) || !isObject(value.request) || !isObject(value.response)) return false;
  const { response, request } = value;
  return (
    typeof request.model === 'string' &&
    typeof response.score === 'number' &&
    [1, 2, 3, 4, 5].includes(response.score) &&
    typeof response.rationale === 'string' &&
    typeof response.raw === 'string' &&
    typeof response.model === 'string'
  );
}
