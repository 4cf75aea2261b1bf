import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors/index.js';
import { entryName, loadSpecCached } from '../../src/specs/cache.js';
import { loadSpec } from '../../src/specs/load.js';
import { useTmpDir } from '../helpers/tmp.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const tmp = useTmpDir();

const CASES = `id: shop
cases:
  - id: refund
    expect:
      tool_calls:
        match: strict
        calls: [{ name: lookup, args: { id: r1 } }, { name: refund, args: { id: r1 } }]
      answer:
        equals: "Refunded."
`;

/** A project folder with one spec file of `text`, and the cache folder beside it. */
async function specFile(name: string, text: string): Promise<{ file: string; cache: string }> {
  const dir = await tmp();
  const file = join(dir, name);
  await writeFile(file, text);
  return { file, cache: join(dir, 'cache') };
}

describe('loadSpecCached', () => {
  it.each([
    'needles/compound-alpha.needle.yaml',
    'needles/wren-tie.needle.yaml',
    'needles/icd-203.rubric.yaml',
    'examples/support/support.cases.yaml',
  ])('reads %s back from the cache exactly as it parses it', async (path) => {
    const cache = join(await tmp(), 'cache');
    const file = join(ROOT, path);
    const parsed = await loadSpec(file);
    expect(await loadSpecCached(file, cache)).toStrictEqual(parsed);
    expect(await readdir(cache)).toHaveLength(1);
    expect(await loadSpecCached(file, cache)).toStrictEqual(parsed);
  });

  it('without a cache folder, parses the file every time and keeps nothing', async () => {
    const { file, cache } = await specFile('shop.cases.yaml', CASES);
    expect(await loadSpecCached(file, undefined)).toStrictEqual(await loadSpec(file));
    await expect(readdir(cache)).rejects.toThrow(/ENOENT/);
    await expect(loadSpecCached(join(file, '..', 'gone.cases.yaml'), undefined)).rejects.toThrow(
      /gone\.cases\.yaml: no such file/,
    );
  });

  it('takes an unchanged file from its entry, without parsing it again', async () => {
    const { file, cache } = await specFile('shop.cases.yaml', CASES);
    const spec = await loadSpecCached(file, cache);
    const [entry] = await readdir(cache);
    // An entry that says something the file does not: read, it shows the file was not parsed.
    const marked = { ...spec, id: 'from-the-cache' };
    await writeFile(join(cache, entry!), v8.serialize({ spec: marked }));
    expect((await loadSpecCached(file, cache)).id).toBe('from-the-cache');
  });

  it('parses a changed file again and keeps only its newest entry', async () => {
    const { file, cache } = await specFile('shop.cases.yaml', CASES);
    expect((await loadSpecCached(file, cache)).id).toBe('shop');
    await writeFile(file, CASES.replace('id: shop', 'id: store'));
    expect((await loadSpecCached(file, cache)).id).toBe('store');
    expect(await readdir(cache)).toHaveLength(1);
  });

  it('replaces the entry another build of needlework wrote for the file, not keeping both', async () => {
    const { file, cache } = await specFile('shop.cases.yaml', CASES);
    // Another build names the file's entry apart, under the same path digest, which the next write clears.
    const ours = entryName(file, CASES);
    const theirs = entryName(file, CASES, 'needlework 0.1.0, another build');
    expect(theirs).not.toBe(ours);
    expect(theirs.split('-')[0]).toBe(ours.split('-')[0]);
    await mkdir(cache);
    await writeFile(join(cache, theirs), v8.serialize({ spec: { kind: 'cases', id: 'stale' } }));
    expect((await loadSpecCached(file, cache)).id).toBe('shop');
    expect(await readdir(cache)).toEqual([ours]);
  });

  it('keeps two files of one text apart: a spec carries its own path', async () => {
    const one = await specFile('shop.cases.yaml', CASES);
    const other = join(one.file, '..', 'again.cases.yaml');
    await writeFile(other, CASES);
    expect((await loadSpecCached(one.file, one.cache)).file).toBe(one.file);
    expect((await loadSpecCached(other, one.cache)).file).toBe(other);
    expect(await readdir(one.cache)).toHaveLength(2);
  });

  it('keeps no bad spec: it fails with its diagnostics every time', async () => {
    const { file, cache } = await specFile('shop.cases.yaml', 'id: shop\ncases: 3\n');
    for (let i = 0; i < 2; i++) {
      const error = await loadSpecCached(file, cache).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UserError);
      expect((error as UserError).message).toBe(`${file}:2:8: cases must be a list`);
    }
    await expect(readdir(cache)).rejects.toThrow(/ENOENT/);
  });

  it('always parses a spec that names a judge, which reads another file', async () => {
    const { file, cache } = await specFile('judged.cases.yaml', `${CASES}    judge: rubric.rubric.yaml\n`);
    await loadSpecCached(file, cache).catch(() => undefined);
    await expect(readdir(cache)).rejects.toThrow(/ENOENT/);
  });

  it('parses the file when the entry is not a spec or the cache folder cannot be written', async () => {
    const { file, cache } = await specFile('shop.cases.yaml', CASES);
    await loadSpecCached(file, cache);
    const [entry] = await readdir(cache);
    await writeFile(join(cache, entry!), 'not a clone');
    expect((await loadSpecCached(file, cache)).id).toBe('shop');
    // Read again after the damaged entry: written anew.
    expect(v8.deserialize(await readFile(join(cache, entry!)))).toMatchObject({ spec: { id: 'shop' } });

    // A file where the cache folder would be: nothing can be kept, the spec is still read.
    const blocked = join(await tmp(), 'cache');
    await writeFile(blocked, 'a file');
    expect((await loadSpecCached(file, blocked)).id).toBe('shop');
    expect(await readFile(blocked, 'utf8')).toBe('a file');
  });
});
