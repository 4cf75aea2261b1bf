import { createHash, hash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../../io/atomic.js';

/** Where scores are kept unless told otherwise, relative to the working folder (the project root under Vitest). */
export const DEFAULT_CACHE_ROOT = '.needlework/cache';

/** Packs beyond this many are merged into one, so a long-lived cache stays a handful of reads to open. */
const MAX_PACKS = 64;

const PACK = /^[0-9a-f]{32}\.scores$/;
/** A key and a score as `${number}` writes one in [0, 1]: `0`, `1`, `0.25`, `1.5e-7`. */
const LINE = /^([0-9a-f]{64})\t(\d(?:\.\d+)?(?:e-\d+)?)$/;

/**
 * Entailment scores on disk, content-addressed: the key is a sha256 over the model's fingerprint (its file hash and
 * how its logits are read), the premise and the hypothesis, so an unchanged claim is never scored twice, across runs
 * and across Vitest workers, and a changed model can never be served a stale score.
 *
 * The scores of one `add` go into one immutable pack file under `<root>/entailment/`, `<key>\t<score>` per line,
 * named by the hash of its content. A pack is written beside its final name and renamed into place, which is atomic
 * on one filesystem, so a reader sees a whole pack or none, and concurrent writers never touch the same file. One
 * file per call rather than per score: a warm run reads a few packs instead of opening thousands of tiny files, and a
 * cold run writes one. When packs pile up, the next writer merges them into one and removes the ones it merged;
 * a pack another process is reading at that moment may vanish, which costs that process a recomputation, never a
 * wrong score.
 */
export class ScoreCache {
  readonly dir: string;
  private readonly scores = new Map<string, number>();
  private readonly loaded = new Set<string>();
  private made = false;

  constructor(root: string = DEFAULT_CACHE_ROOT) {
    this.dir = join(root, 'entailment');
  }

  static key(fingerprint: string, premise: string, hypothesis: string): string {
    // Lengths first, so no premise/hypothesis split of the same characters can collide. One-shot `hash` is about
    // twice as fast as a `createHash` object, and a warm run computes one key per pair and little else.
    return hash(
      'sha256',
      `${fingerprint}\n${premise.length}:${hypothesis.length}\n${premise}\n${hypothesis}`,
    );
  }

  /**
   * Reads the packs written since the last look (by this process or any other). Synchronous on purpose: packs are
   * small, a warm run is nothing but these reads, and a blocking read skips libuv's four-thread queue.
   */
  refresh(): void {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (!PACK.test(name) || this.loaded.has(name)) continue;
      let text: string;
      try {
        text = readFileSync(join(this.dir, name), 'utf8');
      } catch {
        continue; // merged away by another writer between the listing and the read
      }
      this.loaded.add(name);
      // A pack is named by its content's hash: one that does not match (its data lost to a power cut before it
      // reached the disk, as packs are not flushed) is ignored whole, and its scores are recomputed.
      if (packName(text) !== name) continue;
      for (const line of text.split('\n')) {
        const match = LINE.exec(line);
        if (!match) continue; // a damaged line is recomputed, never trusted
        const score = Number(match[2]);
        if (score >= 0 && score <= 1) this.scores.set(match[1]!, score);
      }
    }
  }

  /** The cached score, or undefined. Call `refresh()` first to see what other processes wrote. */
  get(key: string): number | undefined {
    return this.scores.get(key);
  }

  /** Stores scores as one pack (temp file, then rename), then merges the packs when there are too many. */
  add(entries: ReadonlyArray<readonly [key: string, score: number]>): void {
    if (entries.length === 0) return;
    for (const [key, score] of entries) this.scores.set(key, score);
    this.loaded.add(this.writePack(entries.map(([key, score]) => `${key}\t${score}\n`).join('')));
    if (this.loaded.size > MAX_PACKS) this.compact();
  }

  private writePack(text: string): string {
    if (!this.made) {
      mkdirSync(this.dir, { recursive: true });
      this.made = true;
    }
    const name = packName(text);
    const file = join(this.dir, name);
    // Not flushed to disk: a pack that a power cut leaves damaged no longer hashes to its name and is ignored (see
    // `refresh`), so an fsync per pack would buy nothing and cost every cold run one per batch.
    writeFileAtomicSync(file, text, { fsync: false });
    return name;
  }

  /** Writes everything known as one pack, then removes the packs it replaces (their scores are all in it). */
  private compact(): void {
    this.refresh();
    const merged = [...this.loaded];
    const name = this.writePack([...this.scores].map(([key, score]) => `${key}\t${score}\n`).join(''));
    for (const old of merged) if (old !== name) rmSync(join(this.dir, old), { force: true });
    this.loaded.clear();
    this.loaded.add(name);
  }
}

/** A pack's file name: the first 32 hex digits of its content's sha256. */
function packName(text: string): string {
  return `${createHash('sha256').update(text).digest('hex').slice(0, 32)}.scores`;
}
