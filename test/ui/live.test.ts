import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, expect, it } from 'vitest';
import { openStore } from '../../src/history/store/open.js';
import type { TrendRun } from '../../src/history/types.js';
import type { LiveMode, RunEvent } from '../../src/ui/client/types.js';
import { startUi, type UiServer } from '../../src/ui/server.js';
import { useTmpDir } from '../helpers/tmp.js';
import { serverDescribe } from '../history/engines.js';
import { addToHistoryFile } from '../reporters/trend-data.js';
import { EventStream } from './events.js';
import { makeRun } from './history.js';

const tmp = useTmpDir();
const run = promisify(execFile);
const BIN = new URL('../../dist/src/cli/bin.js', import.meta.url).pathname;

let ui: UiServer | undefined;
let events: EventStream | undefined;
afterEach(async () => {
  events?.close();
  events = undefined;
  await ui?.close();
  ui = undefined;
});

/** `needlework trend import` in a process of its own: another process appending `added` to the server's store. */
async function importElsewhere(url: string, added: TrendRun): Promise<number> {
  const file = join(await tmp(), 'trend.json');
  await addToHistoryFile(file, added);
  await run(process.execPath, [BIN, 'trend', 'import', file, '--store', url]);
  return performance.now();
}

const isRun = (id: string) => (data: unknown) => (data as RunEvent).run.id === id;
const isMode = (mode: LiveMode['mode']) => (data: unknown) => (data as LiveMode).mode === mode;

serverDescribe('needlework ui over a PostgreSQL server', (server) => {
  it('hears of a run another process appends (LISTEN/NOTIFY), falls back to polling when the connection drops, and listens again', async () => {
    expect(existsSync(BIN), 'run npm run build first').toBe(true);
    const url = await server().database(`ui_${randomBytes(4).toString('hex')}`);
    const seed = await openStore(url);
    await seed.append(makeRun({ minute: 1 }));
    await seed.close();
    ui = await startUi({ store: url, port: 0 });
    events = new EventStream(ui.url);
    // A page hears first how the UI hears of runs: listening, so it does not poll at all.
    await events.next('mode', isMode('live'));

    const first = makeRun({ minute: 2, model: 'model-elsewhere' });
    const done = await importElsewhere(url, first);
    const heard = await events.next('run', isRun(first.id));
    expect((heard.data as RunEvent).run.model).toBe('model-elsewhere');
    expect((heard.data as RunEvent).total).toBe(2);
    // Within a second of the other process's exit (it arrives as the import commits, before the process ends).
    expect(heard.at - done).toBeLessThan(1_000);

    // The listening connection is cut (a server restart, a network failure): the pages are told, and new runs
    // still arrive, by polling.
    const admin = await openStore(url);
    try {
      const [cut] = await admin.engine.query<{ n: number }>(
        `SELECT count(pg_terminate_backend(pid))::integer AS n FROM pg_stat_activity
         WHERE application_name = 'needlework ui (listen)' AND datname = current_database()`,
      );
      expect(cut?.n).toBe(1);
      const polling = await events.next('mode', isMode('polling'));
      expect((polling.data as LiveMode).reason).toMatch(
        /^not listening to the server \(.+\): looking for new runs every 400 ms$/,
      );
      const second = makeRun({ minute: 3 });
      await admin.append(second);
      expect(((await events.next('run', isRun(second.id))).data as RunEvent).total).toBe(3);
      // It listens again by itself, and a run appended then arrives by notification.
      await events.next('mode', isMode('live'));
      const third = makeRun({ minute: 4 });
      await importElsewhere(url, third);
      await events.next('run', isRun(third.id));
      // A prune tells the pages to reload what they show.
      expect(await admin.prune({ keepLast: 2 })).toBe(2);
      await events.next('reset');
    } finally {
      await admin.close();
    }
  }, 60_000);

  it('sends a run whose transaction committed after a later one, once', async () => {
    const url = await server().database(`ui_${randomBytes(4).toString('hex')}`);
    const seed = await openStore(url);
    await seed.append(makeRun({ minute: 1 }));
    await seed.close();
    ui = await startUi({ store: url, port: 0 });
    const stream = new EventStream(ui.url);
    events = stream;
    await stream.next('mode', isMode('live'));
    // Two writers: the first takes its run number, then waits to commit while the second appends and commits.
    const slow = await openStore(url);
    const fast = await openStore(url);
    try {
      const early = makeRun({ minute: 2 });
      const late = makeRun({ minute: 3 });
      await slow.engine.exec('BEGIN');
      await slow.import([early], slow.engine);
      await fast.append(late);
      await stream.next('run', isRun(late.id));
      await slow.engine.exec('COMMIT');
      // Each once: the next run event is `early`, and the one after it `third`.
      const id = async () => ((await stream.next('run')).data as RunEvent).run.id;
      expect(await id()).toBe(early.id);
      const third = makeRun({ minute: 4 });
      await fast.append(third);
      expect(await id()).toBe(third.id);
    } finally {
      await slow.close();
      await fast.close();
    }
  }, 60_000);
});
