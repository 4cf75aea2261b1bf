import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/io/atomic.js';
import { reportWriteFailures, writeReportFile } from '../../src/io/report-file.js';
import { useTmpDir } from '../helpers/tmp.js';

const tmp = useTmpDir();

describe('writeFileAtomic from chunks made as they are written', () => {
  it('writes them in order, across the megabyte pieces it gathers them into, non-ASCII text intact', async () => {
    const dir = await tmp();
    const file = join(dir, 'junit.xml');
    const chunks = Array.from({ length: 3000 }, (_, i) => `<case n="${i}">é✓ ${'x'.repeat(1000)}</case>\n`);
    await writeFileAtomic(file, chunks.values());
    expect(await readFile(file, 'utf8')).toBe(chunks.join(''));
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
