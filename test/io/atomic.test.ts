import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync as writeNow } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  createFileExclusive,
  sweepOrphans,
  tempPathFor,
  writeFileAtomic,
  writeFileAtomicSync,
} from '../../src/io/atomic.js';
import { useTmpDir } from '../helpers/tmp.js';
import { mountTmpfs } from './mount.js';

const tmp = useTmpDir();
const here = dirname(fileURLToPath(import.meta.url));

/** A pid that no process has: a child that has already exited. */
function deadPid(): number {
  const out = execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(out.toString());
}

describe('writeFileAtomic', () => {
  it('creates and replaces a file, leaving nothing beside it', async () => {
    const dir = await tmp();
    const file = join(dir, 'report.xml');
    await writeFileAtomic(file, '<a/>');
    await writeFileAtomic(file, Buffer.from('<b/>'));
    writeFileAtomicSync(join(dir, 'pack'), 'x\n');
    expect(await readFile(file, 'utf8')).toBe('<b/>');
    expect((await readdir(dir)).sort()).toEqual(['pack', 'report.xml']);
  });

  it('leaves the previous file whole and removes its temporary file when the write fails after it began', async () => {
    const dir = await tmp();
    // A folder where the file should be: the temporary file is written, then the rename over the folder fails.
    const blocked = join(dir, 'report.html');
    await mkdir(blocked);
    await writeFile(join(blocked, 'inside'), 'kept');
    await expect(writeFileAtomic(blocked, 'new')).rejects.toMatchObject({ code: 'EISDIR' });
    expect(() => writeFileAtomicSync(blocked, 'new')).toThrow(expect.objectContaining({ code: 'EISDIR' }));
    expect(await readdir(dir)).toEqual(['report.html']);
    expect(await readFile(join(blocked, 'inside'), 'utf8')).toBe('kept');
  });

  it('removes the temporary files of writers on this host that were killed, and no others', async () => {
    const dir = await tmp();
    const target = join(dir, 'trend.json');
    const mine = (pid: number) => tempPathFor(target).replace(`.${process.pid}.`, `.${pid}.`);
    const dead = deadPid();
    const orphan = mine(dead);
    const legacy = `${target}.${dead}.0123abcd.tmp`; // needlework 0.x named its temporary files without a host
    const live = mine(1); // pid 1 always runs
    const otherHost = tempPathFor(target).replace(/\.\d+\.[0-9a-f]{6}\./, `.${dead}.zzzzzz.`);
    for (const file of [orphan, legacy, live, otherHost]) await writeFile(file, 'partial');
    await sweepOrphans(dir);
    const left = await readdir(dir);
    expect(left).not.toContain(orphan.slice(dir.length + 1));
    expect(left).not.toContain(legacy.slice(dir.length + 1));
    expect(left).toContain(live.slice(dir.length + 1));
    expect(left).toContain(otherHost.slice(dir.length + 1));
  });

  it('removes its temporary file when the process is stopped by SIGTERM mid-write, then dies of the signal', async () => {
    const dir = await tmp();
    const module = join(dir, 'atomic.mjs');
    const source = await readFile(join(here, '../../src/io/atomic.ts'), 'utf8');
    await writeFile(
      module,
      ts.transpileModule(source, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      }).outputText,
    );
    const target = join(dir, 'report.html');
    await writeFile(target, 'old report');
    const child = spawn(process.execPath, [
      '--input-type=module',
      '-e',
      `import { writeFileAtomic } from ${JSON.stringify(module)};
       await writeFileAtomic(${JSON.stringify(target)}, Buffer.alloc(96 * 1024 * 1024, 97));
       await new Promise((resolve) => setTimeout(resolve, 60_000));`,
    ]);
    const exited = new Promise<NodeJS.Signals | null>((done) =>
      child.on('exit', (_, signal) => done(signal)),
    );
    // Stop it as soon as its temporary file exists.
    for (let i = 0; i < 20_000 && !(await readdir(dir)).some((n) => n.endsWith('.tmp')); i++)
      await new Promise((resolve) => setTimeout(resolve, 1));
    child.kill('SIGTERM');
    expect(await exited).toBe('SIGTERM');
    expect((await readdir(dir)).sort()).toEqual(['atomic.mjs', 'report.html']);
    // The old report or the whole new one, never a part.
    const size = (await readFile(target)).length;
    expect([10, 96 * 1024 * 1024]).toContain(size);
  });
});

describe('createFileExclusive', () => {
  it('creates a file whole only when the name is free', async () => {
    const dir = await tmp();
    const lock = join(dir, 'trend.json.lock');
    expect(await createFileExclusive(lock, '{"pid":1}')).toBe(true);
    expect(await createFileExclusive(lock, '{"pid":2}')).toBe(false);
    expect(await readFile(lock, 'utf8')).toBe('{"pid":1}');
    expect(await readdir(dir)).toEqual(['trend.json.lock']);
  });
});

describe('on a full disk (a 64 KiB tmpfs)', () => {
  it('fails with ENOSPC, keeps the previous file whole and leaves no temporary file', async (ctx) => {
    const disk = mountTmpfs(await mkdirIn(await tmp(), 'disk'), 64 * 1024);
    if (!disk) return ctx.skip('mounting a tmpfs needs root (CAP_SYS_ADMIN)');
    try {
      const file = join(disk.dir, 'junit.xml');
      await writeFileAtomic(file, 'a'.repeat(16 * 1024));
      await expect(writeFileAtomic(file, 'b'.repeat(128 * 1024))).rejects.toMatchObject({ code: 'ENOSPC' });
      expect(() => writeFileAtomicSync(file, 'c'.repeat(128 * 1024))).toThrow(
        expect.objectContaining({ code: 'ENOSPC' }),
      );
      // Fill what is left, so that even a lock's few bytes find no room.
      try {
        writeNow(join(disk.dir, 'filler'), Buffer.alloc(64 * 1024));
      } catch {
        // filled up to the last block
      }
      await expect(createFileExclusive(join(disk.dir, 'trend.json.lock'), '{"pid":1}')).rejects.toMatchObject(
        {
          code: 'ENOSPC',
        },
      );
      expect(readFileSync(file, 'utf8')).toBe('a'.repeat(16 * 1024));
      expect((await readdir(disk.dir)).sort()).toEqual(['filler', 'junit.xml']);
      expect(existsSync(join(disk.dir, 'trend.json.lock'))).toBe(false);
    } finally {
      disk.unmount();
    }
  });
});

async function mkdirIn(parent: string, name: string): Promise<string> {
  await mkdir(join(parent, name));
  return join(parent, name);
}
