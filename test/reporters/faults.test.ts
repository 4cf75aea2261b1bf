import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'junit2json';
import { describe, expect, it } from 'vitest';
import { BIN, needlework, type Outcome } from '../helpers/needlework-run.js';
import { useTmpDir } from '../helpers/tmp.js';
import { mountTmpfs } from '../io/mount.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const tmp = useTmpDir();
const REPORTERS = ['needlework-junit', 'needlework-html', 'needlework-trend', 'needlework-otel'];
// The trend reporter appends to the results store (`.needlework/store` in the project), not to a file here.
const FILES = ['junit.xml', 'report.html', 'evaluations.otlp.json'];

/** A project whose every test passes (the compound-alpha needle on `copies` copies of the grounded workup). */
async function project(copies = 1): Promise<string> {
  const dir = await tmp();
  await mkdir(join(dir, 'needles'));
  const needle = await readFile(join(ROOT, 'needles/compound-alpha.needle.yaml'), 'utf8');
  await writeFile(
    join(dir, 'needles/compound-alpha.needle.yaml'),
    needle.replace(/^workups: .*$/m, "workups: ['grounded-*']"),
  );
  for (let i = 0; i < copies; i++)
    await cp(join(ROOT, 'fixtures/workups/grounded'), join(dir, 'workups', `grounded-${i}`), {
      recursive: true,
    });
  return dir;
}

function run(cwd: string, outDir: string): Promise<Outcome> {
  return needlework(cwd, 'run', '--out-dir', outDir, ...REPORTERS.flatMap((r) => ['--reporter', r]));
}

/** The lines a run wrote on stderr. */
function lines(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}

/** Throws if a report file is not whole: JUnit that does not parse, HTML that does not end, JSON that does not parse. */
async function checkWhole(file: string): Promise<void> {
  const text = await readFile(file, 'utf8');
  if (file.endsWith('.xml')) await parse(text);
  else if (file.endsWith('.html')) {
    if (!text.trimEnd().endsWith('</html>')) throw new Error(`${file} is cut short`);
  } else JSON.parse(text);
}

describe('report files when the disk fails', () => {
  it('says one line per report under a file, with no stack trace, and exits 1', async () => {
    const dir = await project();
    await writeFile(join(dir, 'notafolder'), 'x');
    const outcome = await run(dir, 'notafolder/report');
    expect(outcome.code).toBe(1);
    expect(lines(outcome.stderr).sort()).toEqual(
      FILES.map(
        (f) =>
          `needlework: cannot write notafolder/report/${f}: a part of the path is a file, not a folder (ENOTDIR)`,
      ).sort(),
    );
  });

  it('writes the other reports when one cannot be written', async () => {
    const dir = await project();
    await mkdir(join(dir, 'out/report.html'), { recursive: true });
    const outcome = await run(dir, 'out');
    expect(outcome.code).toBe(1);
    expect(lines(outcome.stderr)).toEqual([
      'needlework: cannot write out/report.html: a folder stands where the file should be (EISDIR)',
    ]);
    for (const file of ['junit.xml', 'evaluations.otlp.json']) await checkWhole(join(dir, 'out', file));
    expect((await readdir(join(dir, 'out'))).sort()).toEqual([...FILES].sort());
  });

  it('says one line per report in a read-only folder (a read-only mount: root ignores permissions)', async (ctx) => {
    const dir = await project();
    await mkdir(join(dir, 'out'));
    const disk = mountTmpfs(join(dir, 'out'), 1 << 20, true);
    if (!disk) return ctx.skip('mounting a tmpfs needs root (CAP_SYS_ADMIN)');
    try {
      const outcome = await run(dir, 'out');
      expect(outcome.code).toBe(1);
      expect(lines(outcome.stderr).sort()).toEqual(
        FILES.map((f) => `needlework: cannot write out/${f}: the file system is read-only (EROFS)`).sort(),
      );
    } finally {
      disk.unmount();
    }
  });

  it('on a full disk keeps the last good reports whole, leaves no lock or temporary file, one line each', async (ctx) => {
    const dir = await project();
    await mkdir(join(dir, 'out'));
    const disk = mountTmpfs(join(dir, 'out'), 4 << 20);
    if (!disk) return ctx.skip('mounting a tmpfs needs root (CAP_SYS_ADMIN)');
    try {
      expect((await run(dir, 'out')).code).toBe(0);
      const before = await Promise.all(FILES.map((f) => readFile(join(dir, 'out', f))));
      // Fill the disk to its last block.
      try {
        for (let i = 0; ; i++) await writeFile(join(dir, 'out', `filler-${i}`), Buffer.alloc(256 << 10));
      } catch (error) {
        expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
      }
      const outcome = await run(dir, 'out');
      expect(outcome.code).toBe(1);
      expect(lines(outcome.stderr).sort()).toEqual(
        FILES.map((f) => `needlework: cannot write out/${f}: no space left on the device (ENOSPC)`).sort(),
      );
      const after = await Promise.all(FILES.map((f) => readFile(join(dir, 'out', f))));
      for (const [i, bytes] of after.entries()) expect(bytes.equals(before[i]!), FILES[i]).toBe(true);
      const left = (await readdir(join(dir, 'out'))).filter((n) => !n.startsWith('filler-'));
      expect(left.sort()).toEqual([...FILES].sort());
    } finally {
      disk.unmount();
    }
  });
});

describe('kill -9 while the reports are written', () => {
  it('never leaves a malformed report, and the next run leaves no stale lock or temporary file', async () => {
    const dir = await project(40);
    const out = join(dir, 'out');
    expect((await run(dir, 'out')).code).toBe(0);
    let killed = 0;
    for (let round = 0; round < 3; round++) {
      const child = spawn(
        process.execPath,
        [BIN, 'run', '--out-dir', 'out', ...REPORTERS.flatMap((r) => ['--reporter', r])],
        {
          cwd: dir,
          env: { ...process.env, CI: 'true', NO_COLOR: '1' },
          stdio: 'ignore',
        },
      );
      // Killed at a different moment of the writes each round: when the first temporary file or lock appears, then
      // 0, 40 or 80 ms later.
      if (await killWhileWriting(child, out, round * 40)) killed++;
      for (const file of FILES) if (existsSync(join(out, file))) await checkWhole(join(out, file));
    }
    expect(killed).toBeGreaterThan(0);
    expect((await run(dir, 'out')).code).toBe(0);
    for (const file of FILES) await checkWhole(join(out, file));
    expect((await readdir(out)).sort()).toEqual([...FILES].sort());
    // Nor does the results store keep a lock or a temporary file of a killed run.
    expect((await readdir(join(dir, '.needlework'))).filter((n) => /\.(lock|tmp)$/.test(n))).toEqual([]);
  }, 120_000);
});

/** Waits until a temporary or lock file shows in `dir`, waits `delayMs`, then sends SIGKILL; false if the run ended first. */
async function killWhileWriting(child: ChildProcess, dir: string, delayMs: number): Promise<boolean> {
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  let ended = false;
  void exited.then(() => {
    ended = true;
  });
  while (!ended) {
    const names = await readdir(dir).catch(() => [] as string[]);
    if (names.some((n) => n.endsWith('.tmp') || n.endsWith('.lock'))) {
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      const sent = !ended && child.kill('SIGKILL');
      await exited;
      return sent;
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return false;
}
