import { utimesSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/history/store/open.js';
import type { RunsPage, WorkupAnswer } from '../../src/ui/client/types.js';
import { startUi, type UiServer } from '../../src/ui/server.js';
import { needlework } from '../helpers/needlework-run.js';
import { useTmpDir } from '../helpers/tmp.js';
import { emptyEmbeddedStore } from '../history/engines.js';
import { ask, serveHistory } from './serve.js';
import { LONG_STEPS, workupProject } from './workups.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const tmp = useTmpDir();
let ui: UiServer | undefined;
afterEach(async () => {
  await ui?.close();
  ui = undefined;
});

async function started() {
  const dir = await tmp();
  const project = await workupProject(dir);
  ui = await serveHistory(dir, [project.run]);
  const base = `${ui.url}api/runs/${project.run.id}/workups/`;
  const get = async (workup: string, query = '') => {
    const answer = await ask(`${base}${encodeURIComponent(workup)}${query}`);
    return { status: answer.status, body: answer.body, json: JSON.parse(answer.body) as WorkupAnswer };
  };
  return { ...project, get, base };
}

describe('GET /api/runs/<run>/workups/<workup>', () => {
  it("reads the workup from the file its stored checks name, under the run's root, with its checks laid over it", async () => {
    const { get, run } = await started();
    const { status, json } = await get('book');
    expect(status).toBe(200);
    expect(json).toMatchObject({ run: run.id, workup: 'book', path: 'runs/book', task: 'book-trip' });
    expect(json.problem).toBeUndefined();
    expect(json.steps.map((s) => s.type)).toEqual([
      'thought',
      'tool_call',
      'observation',
      'tool_call',
      'observation',
      'tool_call',
      'observation',
      'answer',
    ]);
    expect(json.expected[0]!.calls.map((c) => [c.tool, c.status])).toEqual([
      ['search', 'matched'],
      ['book', 'out-of-order'],
      ['pay', 'missing'],
    ]);
    expect(json.checks.map((c) => c.criterion)).toEqual(['tool-calls']);
    const long = await get('long');
    expect(long.json.steps).toHaveLength(LONG_STEPS);
    const grounded = await get('grounded');
    expect(grounded.json.paths[0]!.hops.every((h) => h.status === 'traversed')).toBe(true);
    // A line of a *.workups.jsonl file, read with the loader every reader uses.
    const line = await get('single-file');
    expect(line.json).toMatchObject({ path: 'runs/all.workups.jsonl:2', workup: 'single-file' });
    expect(line.json.problem).toBeUndefined();
    expect(line.json.ledger.map((e) => e.id)).toEqual(['g1', 'g2', 'g3']);
  });

  it('never reads a path outside the root: up and out, absolute, or through a link', async () => {
    const { get, root } = await started();
    for (const [workup, path] of [
      ['passwd', '../outside/passwd'],
      ['etc', '../../../../../../../../etc/passwd'],
      ['abs', '/etc/passwd'],
    ] as const) {
      const { status, body, json } = await get(workup);
      expect(status, workup).toBe(200);
      expect(json.problem, workup).toEqual({
        kind: 'outside',
        message: `the workup path ${path} lies outside the run's project root ${root}: it is not read`,
      });
      expect(body).not.toContain('root:x:0:0');
      expect(json.steps).toEqual([]);
    }
    const link = await get('link');
    expect(link.json.problem?.kind).toBe('outside');
    expect(link.json.note).toBeUndefined();
    expect(link.json.ledger).toEqual([]);
  });

  it('answers 404 for a workup no check of the run names, whatever path the request spells', async () => {
    const { get, base } = await started();
    for (const name of ['nothing', '../outside/passwd', '/etc/passwd', 'runs/book'])
      expect((await get(name)).status, name).toBe(404);
    expect((await ask(`${base}..%2F..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
    expect((await ask(`${base}book?file=2`)).status).toBe(404);
    expect((await ask(`${base}book?file=..%2Foutside%2Fpasswd`)).status).toBe(404);
    const noRun = await ask(`${base.replace(/runs\/[^/]+/, 'runs/nope')}book`);
    expect(noRun.status).toBe(404);
    expect(JSON.parse(noRun.body)).toEqual({ error: 'no run nope' });
  });

  it('says plainly that a workup file is gone, or changed since the run', async () => {
    const { get, root } = await started();
    const gone = await get('gone');
    expect(gone.status).toBe(200);
    expect(gone.json.problem).toEqual({
      kind: 'gone',
      message: 'the workup file runs/gone is no longer there',
    });
    expect(gone.json.checks).toHaveLength(1);
    const later = new Date(Math.ceil(Date.now() / 1000) * 1000 + 60_000);
    utimesSync(join(root, 'runs', 'book', 'trajectory.json'), later, later);
    const changed = await get('book');
    expect(changed.json.problem?.kind).toBe('changed');
    expect(changed.json.problem?.message).toBe(
      `the workup file runs/book changed after the run (written ${later.toISOString()}): what is shown may differ from what the run checked`,
    );
    // Still shown.
    expect(changed.json.steps).toHaveLength(8);
  });
});

describe('a run of `needlework run` (needs `npm run build`)', () => {
  it("records its root and each check's workup path, so the UI reads the workup it checked", async () => {
    const dir = await tmp();
    await cp(join(ROOT, 'needles'), join(dir, 'needles'), { recursive: true });
    await cp(join(ROOT, 'fixtures/workups/grounded'), join(dir, 'workups/grounded'), { recursive: true });
    const location = await emptyEmbeddedStore(join(dir, '.needlework', 'store'));
    await needlework(dir, 'run', 'workups', '--reporter', 'needlework-trend');
    const store = await openStore(location);
    const [row] = await store.engine.query<{ root: string }>('SELECT root FROM needlework_runs');
    await store.close();
    expect(row?.root).toBe(dir);
    ui = await startUi({ store: location, port: 0 });
    const page = JSON.parse((await ask(`${ui.url}api/runs`)).body) as RunsPage;
    const answer = JSON.parse(
      (await ask(`${ui.url}api/runs/${page.rows[0]!.id}/workups/grounded`)).body,
    ) as WorkupAnswer;
    expect(answer).toMatchObject({ workup: 'grounded', path: 'workups/grounded' });
    expect(answer.problem).toBeUndefined();
    expect(answer.paths[0]!.hops.map((h) => h.status)).toEqual(['traversed', 'traversed', 'traversed']);
    expect(answer.note!.counts.resolved).toBeGreaterThan(0);
  }, 300_000);
});
