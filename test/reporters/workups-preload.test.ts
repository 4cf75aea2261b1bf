import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckRecord } from '../../src/report/checks.js';
import { WorkupPreload, workupLoader } from '../../src/report/workups.js';
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
  it('reads each workup once, whether a collected module or the checks name it, a few at a time', async () => {
    const started: string[] = [];
    let inFlight = 0;
    let most = 0;
    const preload = new WorkupPreload(async (path) => {
      started.push(path);
      most = Math.max(most, ++inFlight);
      await new Promise((done) => setTimeout(done, 2));
      inFlight--;
      return `read ${path}`;
    }, 3);
    const paths = Array.from({ length: 20 }, (_, i) => `w${i}`);
    preload.noteModule(moduleOf(paths.slice(0, 12)));
    preload.noteModule(moduleOf(paths.slice(6, 12)));
    // Begun when the module is collected, before any check exists.
    expect(started.length).toBe(3);
    const got = await preload.forChecks(paths.map(checkOf));
    expect([...got.keys()]).toEqual(paths);
    expect(got.get('w19')).toBe('read w19');
    expect([...started].sort()).toEqual([...paths].sort());
    expect(most).toBe(3);
  });

  it('keeps a workup that does not load as its error, so the report still shows its checks', async () => {
    const dir = await tmp();
    const got = await workupLoader(dir).forChecks([checkOf('missing')]);
    expect(got.get('missing')).toEqual({ error: expect.stringContaining('missing') });
  });
});

describe('needlework run', () => {
  it('names every workup a spec module checks when the module is collected, before its first test ends', async () => {
    const dir = await tmp();
    await cp(join(ROOT, 'needles/compound-alpha.needle.yaml'), join(dir, 'needles/a.needle.yaml'));
    for (const w of ['grounded', 'guessed'])
      await cp(join(ROOT, 'fixtures/workups', w), join(dir, 'workups', w), { recursive: true });
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
      const path = suite.meta().needleworkWorkup;
      if (path) seen.push({ path, ended });
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
      { path: join(dir, 'workups/grounded'), ended: 0 },
      { path: join(dir, 'workups/guessed'), ended: 0 },
    ]);
  });
});
