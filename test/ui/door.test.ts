import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compare } from '../../src/history/compare.js';
import { findBaseline } from '../../src/history/gate.js';
import { openStore } from '../../src/history/store/open.js';
import type { TrendRun } from '../../src/history/types.js';
import type { RunEvent, RunsPage } from '../../src/ui/client/types.js';
import { openSharedStore, readDoor } from '../../src/ui/door/client.js';
import type { UiServer } from '../../src/ui/server.js';
import { useTmpDir } from '../helpers/tmp.js';
import { EventStream } from './events.js';
import { makeRun } from './history.js';
import { serveHistory } from './serve.js';

const tmp = useTmpDir();
let ui: UiServer | undefined;
let events: EventStream | undefined;
afterEach(async () => {
  events?.close();
  events = undefined;
  await ui?.close();
  ui = undefined;
});

describe('runs append while needlework ui holds the embedded store', () => {
  it('appends through the door without waiting for the lock, and the UI sends the run to its pages', async () => {
    const dir = await tmp();
    ui = await serveHistory(dir);
    const location = join(dir, 'store');
    // The UI holds the lock: a run that waited for it would time out here.
    await expect(openStore(location, { lockTimeoutMs: 300 })).rejects.toThrow(
      /timed out waiting for the lock/,
    );
    const started = Date.now();
    const store = await openSharedStore(location, { lockTimeoutMs: 300 });
    events = new EventStream(ui.url);
    await events.next('mode');
    const run = makeRun({ minute: 30, model: 'model-c' });
    // What the trend reporter does with the store: its baseline, the append, the retention, the count.
    const baseline = await findBaseline(store, { scope: run.scope, branch: 'main' }, run.time);
    expect(baseline.run?.id).toBe('20261122T030500Z-00000005');
    await store.append(run);
    // The gate's comparison, kept with the run through the door: the UI's store holds it.
    const gate = compare(run, baseline.run as TrendRun);
    await store.keepComparison(run.id, gate);
    expect((await ui.store.keptComparisons([run.id])).get(run.id)).toEqual({
      baseline: baseline.run?.id,
      comparison: gate,
    });
    expect(await store.prune({})).toBe(0);
    expect(await store.count()).toBe(7);
    await store.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    const received = (await events.next('run')).data as RunEvent;
    expect(received.run.id).toBe(run.id);
    expect(received.run.model).toBe('model-c');
    expect(received.total).toBe(7);
    const page = (await (await fetch(`${ui.url}api/runs?limit=1`)).json()) as RunsPage;
    expect(page.rows[0]?.id).toBe(run.id);
  });

  it('opens the store itself when the UI closes mid-run, and loses nothing', async () => {
    const dir = await tmp();
    ui = await serveHistory(dir);
    const location = join(dir, 'store');
    const store = await openSharedStore(location);
    await store.append(makeRun({ minute: 31 }));
    await ui.close();
    ui = undefined;
    expect(existsSync(`${location}.ui.json`)).toBe(false);
    // The door is gone: this append opens the store (its lock is free now).
    await store.append(makeRun({ minute: 32 }));
    await store.close();
    const reopened = await openStore(location, { lockTimeoutMs: 1_000 });
    try {
      expect((await reopened.ids()).slice(-2)).toEqual([
        '20261122T033100Z-0000001f',
        '20261122T033200Z-00000020',
      ]);
    } finally {
      await reopened.close();
    }
  });

  it('opens the store itself when the UI was killed (kill -9), its door and lock left behind', async () => {
    const dir = await tmp();
    // A UI in its own process, as `needlework ui` runs (the built CLI).
    const bin = new URL('../../dist/src/cli/bin.js', import.meta.url).pathname;
    expect(existsSync(bin), 'run npm run build first').toBe(true);
    const location = join(dir, 'store');
    const seed = await openStore(location);
    await seed.append(makeRun({ minute: 1 }));
    await seed.close();
    const child = spawn(process.execPath, [bin, 'ui', '--store', location, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    for (let i = 0; i < 200 && !/needlework ui: http/.test(out); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(out).toMatch(/needlework ui: http:\/\/127\.0\.0\.1:\d+\//);
    expect(await readDoor(location)).toBeDefined();
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    expect(existsSync(`${location}.ui.json`)).toBe(true);
    expect(existsSync(`${location}.lock`)).toBe(true);
    expect(await readDoor(location)).toBeUndefined();
    const store = await openSharedStore(location, { lockTimeoutMs: 5_000 });
    await store.append(makeRun({ minute: 2 }));
    expect(await store.count()).toBe(2);
    await store.close();
  });
});
