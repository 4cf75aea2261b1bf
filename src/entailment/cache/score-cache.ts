import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Where scores are kept unless told otherwise, relative to the working folder (the project root under Vitest). */
export const DEFAULT_CACHE_ROOT = '.needlework/cache';

/**
 * Entailment scores on disk, content-addressed: the key is a sha256 over the model's fingerprint (its file hash and
 * how its logits are read), the premise and the hypothesis, so an unchanged claim is never scored twice, across runs
 * and across Vitest workers, and a changed model can never be served a stale score.
 *
 * One small JSON file per score under `<root>/entailment/<first two hex>/<key>.json`. Writers put the file beside its
 * final name and rename it into place, which is atomic on one filesystem: a reader sees the old state or the whole
 * new file, and two workers writing the same key both write the same content, so the last rename wins harmlessly.
 */
export class ScoreCache {
  readonly dir: string;

  constructor(root: string = DEFAULT_CACHE_ROOT) {
    this.dir = join(root, 'entailment');
  }

  static key(fingerprint: string, premise: string, hypothesis: string): string {
    // Lengths first, so no premise/hypothesis split of the same characters can collide.
    return createHash('sha256')
      .update(`${fingerprint}\n${premise.length}:${hypothesis.length}\n`)
      .update(premise)
      .update('\n')
      .update(hypothesis)
      .digest('hex');
  }

  private path(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  /** The cached score, or undefined when absent or unreadable (a damaged entry is recomputed, never trusted). */
  async get(key: string): Promise<number | undefined> {
    let text: string;
    try {
      text = await readFile(this.path(key), 'utf8');
    } catch {
      return undefined;
    }
    try {
      const value = (JSON.parse(text) as { score?: unknown }).score;
      return typeof value === 'number' && value >= 0 && value <= 1 ? value : undefined;
    } catch {
      return undefined;
    }
  }

  async set(key: string, score: number): Promise<void> {
    const file = this.path(key);
    await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true });
    const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temp, JSON.stringify({ score }));
      await rename(temp, file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }
}
