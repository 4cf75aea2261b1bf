import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/history/store/migrations.js';
import { openStore } from '../../src/history/store/open.js';
import { useTmpDir } from '../helpers/tmp.js';
import { emptyEmbeddedStore, serverDescribe } from './engines.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const OPEN = join(ROOT, 'dist/src/history/store/open.js');
const tmp = useTmpDir();

/**
 * A process that appends runs of `checks` checks to a store, `count` times (or forever with 0), printing each run's
 * id once its transaction has committed. It uses the built package, as a user's process would.
 */
const APPENDER = `
import { openStore } from ${JSON.stringify(OPEN)};
import { randomBytes } from 'node:crypto';
const [location, checks, count] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
for (let i = 0; count === 0 || i < count; i++) {
  const now = new Date();
  const id = now.toISOString().replace(/[-:]/g, '').replace(/\\.\\d+Z$/, 'Z') + '-' + randomBytes(4).toString('hex');
  const list = Array.from({ length: checks }, (_, k) => ({
    spec: 'spec-' + (k % 7), workup: 'w' + k, criterion: 'surfaced', metric: 'recall',
    value: (k % 10) / 10, verdict: k % 10 < 8 ? 'pass' : 'fail', state: 'passed', reason: 'found ' + k,
  }));
  const passed = list.filter((c) => c.verdict === 'pass').length;
  const run = { id, time: now.toISOString(), scope: { kind: 'full' }, checks: list, trials: [],
    summary: { checks, passed, failed: checks - passed, notApplicable: 0, skipped: 0, passRate: passed / checks } };
  const store = await openStore(location);
  try { await store.append(run); } finally { await store.close(); }
  process.stdout.write(id + '\\n');
}
`;

async function appender(dir: string): Promise<string> {
  const file = join(dir, 'append.mjs');
  await writeFile(file, APPENDER);
  return file;
}

/** Starts `n` appenders at once, each appending one run, and resolves the ids they printed. */
async function appendAtOnce(script: string, location: string, n: number, checks: number): Promise<string[]> {
  const outputs = await Promise.all(
    Array.from({ length: n }, () =>
      promisify(execFile)(process.execPath, [script, location, String(checks), '1'], { timeout: 600_000 }),
    ),
  );
  return outputs.map((o) => o.stdout.trim());
}

async function storedIds(location: string): Promise<{ ids: string[]; checks: Map<string, number> }> {
  const store = await openStore(location, { mustExist: true });
  try {
    const rows = await store.engine.query<{ id: string; n: number }>(
      'SELECT r.id, count(c.ord)::integer AS n FROM needlework_runs r LEFT JOIN needlework_checks c ON c.run = r.seq GROUP BY r.id',
    );
    return { ids: rows.map((r) => r.id).sort(), checks: new Map(rows.map((r) => [r.id, r.n])) };
  } finally {
    await store.close();
  }
}

describe.skipIf(!existsSync(OPEN))('the embedded store across processes (needs `npm run build`)', () => {
  it('keeps every run when 16 processes append at once', async () => {
    const dir = await tmp();
    const location = await emptyEmbeddedStore(join(dir, 'store'));
    const ids = await appendAtOnce(await appender(dir), location, 16, 500);
    expect(new Set(ids).size).toBe(16);
    const stored = await storedIds(location);
    expect(stored.ids).toEqual([...ids].sort());
    expect([...stored.checks.values()]).toEqual(new Array(16).fill(500));
    expect(existsSync(`${location}.lock`)).toBe(false);
  }, 600_000);

  it('loses at most the run being appended when its process is killed (kill -9), and still opens', async () => {
    const dir = await tmp();
    const location = await emptyEmbeddedStore(join(dir, 'store'));
    const child: ChildProcess = spawn(process.execPath, [await appender(dir), location, '5000', '0']);
    const printed: string[] = [];
    let buffer = '';
    await new Promise<void>((resolve) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        printed.push(...lines);
        // Killed at a moment that varies with the machine: after two commits, somewhere inside the next append.
        if (printed.length >= 2 && !child.killed)
          setTimeout(() => child.kill('SIGKILL'), Math.random() * 300);
      });
      child.on('exit', () => resolve());
    });
    const stored = await storedIds(location);
    // Every committed run is kept whole; at most the one in flight (committed but not yet printed) is extra.
    for (const id of printed) expect(stored.checks.get(id)).toBe(5000);
    expect(stored.ids.length - printed.length).toBeLessThanOrEqual(1);
    for (const n of stored.checks.values()) expect(n).toBe(5000);
    // The dead owner's lock was reclaimed: a new append goes through.
    const [after] = await appendAtOnce(await appender(dir), location, 1, 10);
    expect((await storedIds(location)).ids).toContain(after);
  }, 600_000);
});

serverDescribe('a PostgreSQL server across processes', (server) => {
  it.skipIf(!existsSync(OPEN))(
    'keeps every run when 16 processes create the schema and append at once',
    async () => {
      const dir = await tmp();
      const location = await server().database(`p_${randomBytes(4).toString('hex')}`);
      const ids = await appendAtOnce(await appender(dir), location, 16, 500);
      expect(new Set(ids).size).toBe(16);
      const stored = await storedIds(location);
      expect(stored.ids).toEqual([...ids].sort());
      expect([...stored.checks.values()]).toEqual(new Array(16).fill(500));
      const store = await openStore(location);
      const migrations = await store.engine.query(
        'SELECT version FROM needlework_migrations ORDER BY version',
      );
      await store.close();
      expect(migrations).toEqual(MIGRATIONS.map(({ version }) => ({ version })));
    },
    600_000,
  );
});
