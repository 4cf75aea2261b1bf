import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { runPrune } from '../../src/cli/commands/prune.js';
import { runReport } from '../../src/cli/commands/report.js';
import { runTrend } from '../../src/cli/commands/trend.js';
import { runTrendExport, runTrendImport } from '../../src/cli/commands/trend-transfer.js';
import { openStore } from '../../src/history/store/open.js';
import type { Info, RunEvent, WorkupAnswer } from '../../src/ui/client/types.js';
import { readReport } from '../../src/ui/report/read.js';
import type { UiServer } from '../../src/ui/server.js';
import { captureIo } from '../helpers/io.js';
import { useTmpDir } from '../helpers/tmp.js';
import { addToHistoryFile } from '../reporters/trend-data.js';
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

async function runs(server: UiServer): Promise<number> {
  return ((await (await fetch(`${server.url}api/info`)).json()) as Info).runs;
}

// Each command, opening the store directly, would wait for the UI's lock (5 minutes) and time this test out.
it('answers trend, trend export, trend import, report and prune through the door while needlework ui holds the store', async () => {
  const dir = await tmp();
  const server = await serveHistory(dir);
  ui = server;
  const location = join(dir, 'store');
  await expect(openStore(location, { lockTimeoutMs: 300 })).rejects.toThrow(/timed out waiting for the lock/);
  events = new EventStream(server.url);
  await events.next('mode');

  const trend = captureIo();
  expect(await runTrend({ store: location, root: dir, last: 3 }, trend)).toBe(0);
  // The table of the last 3 runs, then the gate of the latest run (feature/x, which has no earlier run).
  expect(trend.stdout()).toMatch(/^Runs \(last 3 of 6\)\n/);
  expect(trend.stdout()).toContain(
    '20261122T030600Z-00000006  2026-11-22 03:06:00  ccccccc  feature/x  100.0%',
  );
  expect(trend.stdout()).toContain('No baseline run on feature/x to compare with yet.');

  const exported = captureIo();
  expect(await runTrendExport({ store: location, root: dir, out: 'export.json' }, exported)).toBe(0);
  const history = JSON.parse(await readFile(join(dir, 'export.json'), 'utf8')) as {
    runs: Array<{ id: string }>;
  };
  expect(history.runs).toHaveLength(6);

  const added = makeRun({ minute: 40, model: 'imported' });
  await addToHistoryFile(join(dir, 'more.json'), added);
  const imported = captureIo();
  expect(await runTrendImport({ store: location, root: dir, file: 'more.json' }, imported)).toBe(0);
  expect(imported.stdout()).toMatch(/^needlework: imported 1 run from more\.json into /);
  // The UI ran the import: its pages hear of the run.
  expect(((await events.next('run')).data as RunEvent).run.id).toBe(added.id);

  const report = captureIo();
  expect(await runReport({ store: location, root: dir, out: 'report.html' }, report)).toBe(0);
  const { info, answers } = readReport(await readFile(join(dir, 'report.html'), 'utf8'));
  expect(info.run).toBe(added.id);
  // Its workups too, read by the UI's process (the door's workup operation): this run's were built in memory.
  const workups = [...answers].filter(([path]) => path.includes('/workups/'));
  expect(workups.length).toBeGreaterThan(0);
  for (const [, answer] of workups)
    expect((answer as WorkupAnswer).problem?.message).toMatch(
      /^the workup \S+ has no file: its test built it in memory/,
    );

  const pruned = captureIo();
  expect(await runPrune({ store: location, root: dir, keepLast: 3 }, pruned)).toBe(0);
  expect(pruned.stdout()).toMatch(/^needlework: pruned 4 runs from \S+; 3 runs kept$/);
  await events.next('reset');
  expect(await runs(server)).toBe(3);
}, 60_000);
