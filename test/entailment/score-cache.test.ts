import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ScoreCache } from '../../src/entailment/cache/score-cache.js';
import { useTmpDir } from '../helpers/tmp.js';

const tmp = useTmpDir();
const here = dirname(fileURLToPath(import.meta.url));

describe('ScoreCache', () => {
  it('keys on the fingerprint, the premise and the hypothesis, and on where one ends and the other starts', () => {
    const key = ScoreCache.key('model', 'ab', 'c');
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(ScoreCache.key('model', 'ab', 'c')).toBe(key);
    expect(ScoreCache.key('model', 'a', 'bc')).not.toBe(key);
    expect(ScoreCache.key('other', 'ab', 'c')).not.toBe(key);
  });

  it('keeps scores across instances, and has nothing for a key never written', async () => {
    const root = await tmp();
    new ScoreCache(root).add([
      ['ab'.repeat(32), 0.25],
      ['ef'.repeat(32), 1],
    ]);
    const other = new ScoreCache(root);
    expect(other.get('ab'.repeat(32))).toBeUndefined(); // not read yet
    other.refresh();
    expect(other.get('ab'.repeat(32))).toBe(0.25);
    expect(other.get('ef'.repeat(32))).toBe(1);
    expect(other.get('cd'.repeat(32))).toBeUndefined();
  });

  it('writes one pack per call, and merges the packs into one when they pile up', async () => {
    const root = await tmp();
    const cache = new ScoreCache(root);
    const key = (n: number) => ScoreCache.key('fp', `premise ${n}`, 'h');
    for (let n = 0; n < 64; n++) cache.add([[key(n), n / 100]]);
    expect(await readdir(cache.dir)).toHaveLength(64);
    cache.add([[key(64), 0.64]]);
    expect(await readdir(cache.dir)).toHaveLength(1);
    const fresh = new ScoreCache(root);
    fresh.refresh();
    for (let n = 0; n <= 64; n++) expect(fresh.get(key(n))).toBe(n / 100);
  });

  it('skips a damaged line and keeps the rest of its pack', async () => {
    const root = await tmp();
    const cache = new ScoreCache(root);
    await mkdir(cache.dir, { recursive: true });
    const text = `${'a'.repeat(64)}\t0.5\n${'b'.repeat(64)}\t0.\n${'c'.repeat(64)}\t7\nnot a line\n${'d'.repeat(64)}\t0.75\n`;
    await writeFile(join(cache.dir, packName(text)), text);
    cache.refresh();
    expect(cache.get('a'.repeat(64))).toBe(0.5);
    expect(cache.get('b'.repeat(64))).toBeUndefined();
    expect(cache.get('c'.repeat(64))).toBeUndefined();
    expect(cache.get('d'.repeat(64))).toBe(0.75);
  });

  it('ignores a whole pack whose content does not hash to its name (data lost before it reached the disk)', async () => {
    const root = await tmp();
    const cache = new ScoreCache(root);
    await mkdir(cache.dir, { recursive: true });
    const whole = `${'a'.repeat(64)}\t0.25\n${'b'.repeat(64)}\t0.5\n`;
    // Cut inside the last score: "0.5" read as "0." would fail the line check, but "0.25" cut to "0.2" would not.
    const cut = `${'b'.repeat(64)}\t0.5\n${'a'.repeat(64)}\t0.2`;
    await writeFile(join(cache.dir, packName(whole)), cut);
    cache.refresh();
    expect(cache.get('a'.repeat(64))).toBeUndefined();
    expect(cache.get('b'.repeat(64))).toBeUndefined();
  });

  it('stays whole when several processes write the same keys at once', async () => {
    const root = await tmp();
    // The cache module and the atomic writer it uses import only node: builtins, so a plain transpile runs them in a
    // child process as they are.
    const transpile = async (file: string) =>
      ts.transpileModule(await readFile(join(here, '../../src', file), 'utf8'), {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      }).outputText;
    await writeFile(join(root, 'atomic.mjs'), await transpile('io/atomic.ts'));
    await writeFile(
      join(root, 'score-cache.mjs'),
      (await transpile('entailment/cache/score-cache.ts')).replace("'../../io/atomic.js'", "'./atomic.mjs'"),
    );
    // Each writer adds 100 scores in packs of 1 to 5 (the same keys and scores in every process, so their packs
    // overlap and they merge each other's packs past 64), reading the folder back between writes and reporting
    // any pack it found torn.
    await writeFile(
      join(root, 'writer.mjs'),
      `import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScoreCache } from './score-cache.mjs';
const cache = new ScoreCache(process.argv[2]);
const seed = Number(process.argv[3]);
let torn = 0;
let k = 0;
while (k < 100) {
  const size = 1 + ((k + seed) % 5);
  const entries = [];
  for (; entries.length < size && k < 100; k++) entries.push([ScoreCache.key('fp', 'premise ' + k, 'h'), k / 100]);
  cache.add(entries);
  for (const name of readdirSync(cache.dir).filter((n) => n.endsWith('.scores'))) {
    let text;
    try { text = readFileSync(join(cache.dir, name), 'utf8'); } catch { continue; }
    if (!text.endsWith('\\n') || text.split('\\n').slice(0, -1).some((l) => !/^[0-9a-f]{64}\\t[0-9.e-]+$/.test(l))) torn++;
  }
  await new Promise((resolve) => setImmediate(resolve));
}
process.stdout.write(String(torn));
`,
    );
    const cacheRoot = join(root, 'cache');
    const runs = Array.from(
      { length: 4 },
      (_, seed) =>
        new Promise<string>((done, fail) => {
          const child = spawn(process.execPath, [join(root, 'writer.mjs'), cacheRoot, String(seed)]);
          let out = '';
          let err = '';
          child.stdout.on('data', (d) => {
            out += d;
          });
          child.stderr.on('data', (d) => {
            err += d;
          });
          child.on('error', fail);
          child.on('close', (code) =>
            code === 0 ? done(out) : fail(new Error(`writer exited ${code}: ${err}`)),
          );
        }),
    );
    expect(await Promise.all(runs)).toEqual(['0', '0', '0', '0']);

    const cache = new ScoreCache(cacheRoot);
    cache.refresh();
    for (let k = 0; k < 100; k++) expect(cache.get(ScoreCache.key('fp', `premise ${k}`, 'h'))).toBe(k / 100);
    expect((await readdir(cache.dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

/** A pack's name as the cache gives it: the first 32 hex digits of its content's sha256. */
function packName(text: string): string {
  return `${createHash('sha256').update(text).digest('hex').slice(0, 32)}.scores`;
}
