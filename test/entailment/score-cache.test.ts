import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
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

  it('keeps a score across instances, and has nothing for a key never written', async () => {
    const root = await tmp();
    await new ScoreCache(root).set('ab'.repeat(32), 0.25);
    expect(await new ScoreCache(root).get('ab'.repeat(32))).toBe(0.25);
    expect(await new ScoreCache(root).get('cd'.repeat(32))).toBeUndefined();
  });

  it('stays whole when several processes write the same keys at once', async () => {
    const root = await tmp();
    // The cache module imports only node: builtins, so a plain transpile runs it in a child process as is.
    const source = await readFile(join(here, '../../src/entailment/cache/score-cache.ts'), 'utf8');
    const js = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    await writeFile(join(root, 'score-cache.mjs'), js);
    // Each writer writes 40 keys (the same keys and scores in every process) and reads every file back as it goes,
    // reporting any read that found a partial file.
    await writeFile(
      join(root, 'writer.mjs'),
      `import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ScoreCache } from './score-cache.mjs';
const cache = new ScoreCache(process.argv[2]);
let torn = 0;
for (let round = 0; round < 3; round++) {
  await Promise.all(Array.from({ length: 40 }, async (_, k) => {
    const key = ScoreCache.key('fp', 'premise ' + k, 'hypothesis');
    await cache.set(key, k / 40);
    for (let n = 0; n < 40; n++) {
      const other = ScoreCache.key('fp', 'premise ' + n, 'hypothesis');
      const text = await readFile(join(cache.dir, other.slice(0, 2), other + '.json'), 'utf8').catch(() => null);
      if (text !== null) { try { JSON.parse(text); } catch { torn++; } }
    }
  }));
}
process.stdout.write(String(torn));
`,
    );
    const cacheRoot = join(root, 'cache');
    const runs = Array.from(
      { length: 4 },
      () =>
        new Promise<string>((done, fail) => {
          const child = spawn(process.execPath, [join(root, 'writer.mjs'), cacheRoot]);
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
    for (let k = 0; k < 40; k++)
      expect(await cache.get(ScoreCache.key('fp', `premise ${k}`, 'hypothesis'))).toBe(k / 40);
    const files = (await readdir(cache.dir, { recursive: true })).filter((f) => f.endsWith('.json'));
    const leftovers = (await readdir(cache.dir, { recursive: true })).filter((f) => f.endsWith('.tmp'));
    expect(files).toHaveLength(40);
    expect(leftovers).toEqual([]);
  });
});
