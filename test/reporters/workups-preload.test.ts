import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import { NeedleworkHtmlReporter } from '../../reporters/html.js';
import { NeedleworkOtelReporter } from '../../reporters/otel.js';
import type { CheckRecord } from '../../src/report/checks.js';
import { runWorkupLoader, WorkupPreload, workupLoader } from '../../src/report/workups.js';
import { needlework } from '../helpers/needlework-run.js';
import { useTmpDir } from '../helpers/tmp.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const tmp = useTmpDir();

/** A check record of the workup at `path`, as the reporters collect one. */
function checkOf(path: string): CheckRecord {
  return {
    name: 'surfaced',
    suitePath: [],
    fullName: 'surfaced',
    file: 'x.needle.yaml',
    state: 'passed',
    durationMs: 0,
    errors: [],
    meta: {
      schema: 1,
      spec: 's',
      specKind: 'needle',
      workup: path,
      workupPath: path,
      criterion: 'surfaced',
      metric: 'recall',
      value: 1,
      verdict: 'pass',
    },
  };
}

/** A test module whose describes name the workups they check, as the plugin's spec modules do. */
function moduleOf(paths: readonly string[]) {
  const suites = paths.map((path) => ({ meta: () => ({ needleworkWorkup: path }) }));
  return { children: { allSuites: () => suites } } as unknown as Parameters<
    WorkupPreload<string>['noteModule']
  >[0];
}

describe('WorkupPreload', () => {
  it('reads each workup once, in order, whether a collected module or the checks name it', async () => {
    const started: string[] = [];
    const preload = new WorkupPreload(async (path) => {
      started.push(path);
      return `read ${path}`;
    });
    const paths = Array.from({ length: 20 }, (_, i) => `w${i}`);
    preload.noteModule(moduleOf(paths.slice(0, 12)));
    preload.noteModule(moduleOf(paths.slice(6, 12)));
    // Queued when the module is collected, read once the event loop turns, before any check exists.
    expect(started).toEqual([]);
    await new Promise((done) => setImmediate(done));
    await new Promise((done) => setImmediate(done));
    expect(started).toEqual(paths.slice(0, 12));
    const got = await preload.forChecks(paths.map(checkOf));
    expect([...got.keys()]).toEqual(paths);
    expect(got.get('w19')).toBe('read w19');
    expect(started).toEqual(paths);
  });

  it('takes the value a describe carries for its workup rather than reading it', async () => {
    const started: string[] = [];
    const preload = new WorkupPreload(
      async (path) => {
        started.push(path);
        return `read ${path}`;
      },
      (meta) => (meta.needleworkWorkup === 'w1' ? 'described w1' : undefined),
    );
    preload.noteModule(moduleOf(['w0', 'w1', 'w2']));
    await new Promise((done) => setImmediate(done));
    const got = await preload.forChecks(['w0', 'w1', 'w2'].map(checkOf));
    expect(Object.fromEntries(got)).toEqual({ w0: 'read w0', w1: 'described w1', w2: 'read w2' });
    expect(started).toEqual(['w0', 'w2']);
  });

  it("walks a collected module's describes after the reporter's hook has returned, not in it", async () => {
    // Vitest answers the test worker's collection once every reporter's onTestModuleCollected has returned, and the
    // worker waits for that answer before it runs the module's tests: 10,000 describes are not walked meanwhile.
    let walked = 0;
    const module = {
      children: {
        allSuites: () => {
          walked++;
          return [{ meta: () => ({ needleworkWorkup: 'w0' }) }];
        },
      },
    } as unknown as Parameters<WorkupPreload<string>['noteModule']>[0];
    const preload = new WorkupPreload(async (path) => path);
    preload.noteModule(module);
    expect(walked).toBe(0);
    await new Promise((done) => setImmediate(done));
    expect(walked).toBe(1);
    expect(await preload.started('w0')).toBe('w0');
  });

  it('lets the event loop turn every few milliseconds while it reads, so the test worker is still answered', async () => {
    const started: string[] = [];
    // Each load holds the thread for 1 ms, as a synchronous read of a large workup does.
    const preload = new WorkupPreload(async (path) => {
      started.push(path);
      const until = performance.now() + 1;
      while (performance.now() < until);
      return path;
    });
    const paths = Array.from({ length: 60 }, (_, i) => `w${i}`);
    preload.noteModule(moduleOf(paths));
    const seenAtTurns: number[] = [];
    const turns = new Promise<void>((done) => {
      const turn = () => {
        seenAtTurns.push(started.length);
        if (started.length < paths.length) setImmediate(turn);
        else done();
      };
      setImmediate(turn);
    });
    await preload.forChecks(paths.map(checkOf));
    await turns;
    // Turns came between slices of a few reads each, not only before the first read and after the last.
    const between = seenAtTurns.filter((n) => n > 0 && n < paths.length);
    expect(between.length).toBeGreaterThanOrEqual(5);
    expect(Math.max(...between.map((n, i) => n - (between[i - 1] ?? 0)))).toBeLessThan(20);
  });

  it('lets a workup go, and reads it again when asked for after', async () => {
    const started: string[] = [];
    const preload = new WorkupPreload(async (path) => {
      started.push(path);
      return `read ${path}`;
    });
    preload.noteModule(moduleOf(['w0', 'w1']));
    await new Promise((done) => setImmediate(done));
    expect(await preload.value('w0')).toBe('read w0');
    preload.release('w0');
    expect(preload.started('w0')).toBeUndefined();
    expect(await preload.started('w1')).toBe('read w1');
    expect(await preload.value('w0')).toBe('read w0');
    expect(started).toEqual(['w0', 'w1', 'w0']);
  });

  it('keeps a workup that does not load as its error, so the report still shows its checks', async () => {
    const dir = await tmp();
    const got = await workupLoader(dir).forChecks([checkOf('missing')]);
    expect(got.get('missing')).toEqual({ error: expect.stringContaining('missing') });
  });
});

describe('runWorkupLoader', () => {
  it('gives the reporters of one run one loader, and a new run a new one', () => {
    const run: TestSpecification[] = [];
    const loader = runWorkupLoader(run, '/project');
    expect(runWorkupLoader(run, '/project')).toBe(loader);
    expect(runWorkupLoader([], '/project')).not.toBe(loader);
    expect(runWorkupLoader(run, '/elsewhere')).not.toBe(loader);
  });

  it('is what the HTML and OTel reporters of a run read its workups through, so each workup is read once', () => {
    const vitest = { config: { root: '/project' } } as unknown as Vitest;
    const html = new NeedleworkHtmlReporter();
    const otel = new NeedleworkOtelReporter();
    html.onInit(vitest);
    otel.onInit(vitest);
    // Vitest hands every reporter's onTestRunStart the same array.
    const run: TestSpecification[] = [];
    html.onTestRunStart(run);
    otel.onTestRunStart(run);
    const loaderOf = (reporter: object) => (reporter as { workups: unknown }).workups;
    expect(loaderOf(html)).toBe(runWorkupLoader(run, '/project'));
    expect(loaderOf(otel)).toBe(loaderOf(html));
  });
});

describe('needlework run', () => {
  it('names every workup a spec module checks when the module is collected, before its first test ends', async () => {
    const dir = await tmp();
    await cp(join(ROOT, 'needles/compound-alpha.needle.yaml'), join(dir, 'needles/a.needle.yaml'));
    for (const w of ['grounded', 'guessed'])
      await cp(join(ROOT, 'fixtures/workups', w), join(dir, 'workups', w), { recursive: true });
    // The model and agent version a workup's meta names ride on its describe, for the trend reporter.
    await writeFile(
      join(dir, 'workups/guessed/meta.json'),
      JSON.stringify({ model: { modelId: 'gpt-test' }, agent: { version: 7 } }),
    );
    await mkdir(join(dir, 'out'));
    // A reporter that writes down, at collection, the workups the module's describes name and how many tests ended.
    await writeFile(
      join(dir, 'capture.mjs'),
      `import { writeFileSync } from 'node:fs';
let ended = 0;
const seen = [];
export default class Capture {
  onTestCaseResult() { ended++; }
  onTestModuleCollected(module) {
    for (const suite of module.children.allSuites()) {
      const { needleworkWorkup: path, needleworkEnvironment: environment } = suite.meta();
      if (path) seen.push({ path, environment, ended });
    }
  }
  onTestRunEnd() { writeFileSync('out/seen.json', JSON.stringify(seen)); }
}
`,
    );
    const outcome = await needlework(dir, 'run', '--reporter', './capture.mjs');
    expect(outcome.stderr).toBe('');
    const seen = JSON.parse(await readFile(join(dir, 'out/seen.json'), 'utf8'));
    expect(seen).toEqual([
      { path: join(dir, 'workups/grounded'), environment: {}, ended: 0 },
      { path: join(dir, 'workups/guessed'), environment: { model: 'gpt-test', agentVersion: '7' }, ended: 0 },
    ]);
  });
});
