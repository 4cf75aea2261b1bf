import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/io/atomic.js';
import { reportWriteFailures, writeReportFile } from '../../src/io/report-file.js';
import { useTmpDir } from '../helpers/tmp.js';

const tmp = useTmpDir();

describe('writeFileAtomic from chunks made as they are written', () => {
  it('writes them in order, across the buffers it gathers them into, non-ASCII text intact', async () => {
    const dir = await tmp();
    const file = join(dir, 'junit.xml');
    const chunks = Array.from({ length: 3000 }, (_, i) => `<case n="${i}">é✓ ${'x'.repeat(1000)}</case>\n`);
    await writeFileAtomic(file, chunks.values());
    expect(await readFile(file, 'utf8')).toBe(chunks.join(''));
  });

  it('writes the bytes of the joined text whatever the sizes: tiny, filling a buffer, larger than one, astral', async () => {
    const dir = await tmp();
    const file = join(dir, 'report.html');
    // 256 KiB is the buffer: chunks just under, at and over it (in UTF-16 units and in UTF-8 bytes), mixed with tiny
    // ones, three-byte and four-byte characters, and an empty chunk.
    const chunks = [
      'a',
      'é'.repeat(87_381),
      '',
      // Fits in what is left of the buffer counted in UTF-16 units, not in bytes.
      '✓'.repeat(30_000),
      '✓'.repeat(87_382),
      '😀'.repeat(40_000),
      'b'.repeat(1 << 18),
      'c'.repeat((1 << 18) + 1),
      ...Array.from({ length: 5000 }, (_, i) => `<tr id="${i}">ü😀</tr>`),
      'x'.repeat(3 << 20),
      'z',
    ];
    await writeFileAtomic(file, chunks.values());
    expect((await readFile(file)).equals(Buffer.from(chunks.join('')))).toBe(true);
  });

  it('leaves the previous file whole and nothing beside it when the chunks fail midway', async () => {
    const dir = await tmp();
    const file = join(dir, 'junit.xml');
    await writeFile(file, 'before');
    function* failing(): Generator<string> {
      yield 'x'.repeat(2 << 20);
      throw new Error('building the report failed');
    }
    await expect(writeFileAtomic(file, failing())).rejects.toThrow('building the report failed');
    expect(await readFile(file, 'utf8')).toBe('before');
    expect(await readdir(dir)).toEqual(['junit.xml']);
  });

  it('a report whose chunks fail to build is that error, not a failed write of the file', async () => {
    const dir = await tmp();
    const before = reportWriteFailures();
    function* broken(): Generator<string> {
      yield '<testsuites>';
      throw new TypeError('a bug in the builder');
    }
    await expect(writeReportFile(join(dir, 'junit.xml'), broken())).rejects.toThrow(TypeError);
    expect(reportWriteFailures()).toBe(before);
    expect(await readdir(dir)).toEqual([]);
  });
});
