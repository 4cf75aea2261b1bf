import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { judgeTestTimeout } from '../../src/judge/test-timeout.js';
import { needlework, type Outcome } from '../helpers/needlework-run.js';
import { useTmpDir } from '../helpers/tmp.js';
import { type FakeJudgeServer, startFakeJudge, verdict } from './fake-server.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const tmp = useTmpDir();
const REPORTERS = ['default', 'needlework-junit', 'needlework-html', 'needlework-trend', 'needlework-otel'];

let server: FakeJudgeServer | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

/** A project holding ICD-203's first criterion alone as a rubric, and the grounded workup. */
async function rubricProject(): Promise<string> {
  const dir = await tmp();
  const rubric = await readFile(join(ROOT, 'needles/icd-203.rubric.yaml'), 'utf8');
  await mkdir(join(dir, 'needles'));
  await writeFile(
    join(dir, 'needles/one.rubric.yaml'),
    rubric.slice(0, rubric.indexOf('  - id: argumentation')),
  );
  await cp(join(ROOT, 'fixtures/workups/grounded'), join(dir, 'workups/grounded'), { recursive: true });
  return dir;
}

function run(dir: string, ...args: string[]): Promise<Outcome> {
  return needlework(dir, 'run', '--out-dir', 'out', ...REPORTERS.flatMap((r) => ['--reporter', r]), ...args);
}

/** Every file under `dir`, as text. */
async function filesUnder(dir: string, encoding: BufferEncoding = 'utf8'): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      files.set(path, await readFile(path, encoding));
    }
  }
  return files;
}

// Not shaped like any known key: only the rule "the key in use" can catch it.
const KEY = 'nw-local-3f9Qz81xVb';
const HOSTILE = '\u001b]0;pwned\u0007\u001b[2J';

describe('needlework run --judge with a server that echoes the Authorization header', () => {
  const other = `sk-proj-${'A1b2C3d4'.repeat(4)}`; // a key-shaped value the server also leaks
  const echo = (auth: unknown) =>
    `Incorrect API key provided in "Authorization: ${String(auth)}" (also ${other}) ${HOSTILE}`;

  it.each([
    {
      // Two samples: a 401 (not retried) and a 500 retried at once; neither scores, so the failure is printed.
      server: 'error bodies',
      samples: '2',
      reply: (auth: unknown, index: number) =>
        index === 0
          ? { status: 401, raw: JSON.stringify({ error: { message: echo(auth) } }) }
          : { status: 500, headers: { 'retry-after-ms': '1' }, raw: echo(auth) },
    },
    {
      // A verdict of 1 fails the criterion, and the failure shows its rationale.
      server: 'a verdict',
      samples: '1',
      reply: (auth: unknown) => ({ content: verdict(1, `No alternatives. ${echo(auth)}`) }),
    },
  ])(
    '$server: the key is in no report and printed nowhere; escape sequences are written out',
    async (c) => {
      vi.stubEnv('OPENAI_API_KEY', KEY);
      server = await startFakeJudge((request, index) => c.reply(request.headers.authorization, index));
      const dir = await rubricProject();
      const outcome = await run(dir, '--judge', server.url, '--samples', c.samples);
      expect(outcome.code).toBe(1);
      // The key really was sent, so finding it nowhere is the redaction's doing.
      expect(server.received[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
      const files = await filesUnder(join(dir, 'out'));
      expect([...files.keys()].map((f) => f.slice(dir.length + 1)).sort()).toEqual([
        'out/evaluations.otlp.json',
        'out/junit.xml',
        'out/report.html',
      ]);
      // The run's checks are rows of the results store: its files hold no key either.
      const store = await filesUnder(join(dir, '.needlework'), 'latin1');
      expect(store.size).toBeGreaterThan(0);
      const outputs: Array<[string, string]> = [
        ...files,
        ...store,
        ['stdout', outcome.stdout],
        ['stderr', outcome.stderr],
      ];
      for (const [file, text] of outputs) {
        expect(text.includes(KEY), `${file} holds the key`).toBe(false);
        expect(text.includes(other), `${file} holds the key-shaped value`).toBe(false);
        expect(text.includes('\u001b]0;'), `${file} holds a raw OSC`).toBe(false);
        expect(text.includes('\u001b[2J'), `${file} holds a raw clear-screen`).toBe(false);
      }
      // What the server said still shows, redacted and with its escapes written out.
      const terminal = outcome.stdout + outcome.stderr;
      expect(terminal).toContain('Authorization: Bearer [REDACTED]');
      expect(terminal).toContain('(also [REDACTED])');
      expect(terminal).toContain('\\x1b]0;pwned\\x07\\x1b[2J');
      expect(files.get(join(dir, 'out/junit.xml'))).toContain('Bearer [REDACTED]');
    },
    60_000,
  );
});

describe("a judge's time limit governs its tests", () => {
  it('fails a test against a judge that never answers with the URL and the time waited, not a test timeout', async () => {
    server = await startFakeJudge(() => ({ hang: true }));
    const dir = await rubricProject();
    // 4 attempts of 1.4 s are 5.6 s before any backoff: past Vitest's default 5 s test timeout, which must not apply.
    const outcome = await run(dir, '--judge', server.url, '--samples', '1', '--timeout', '1400');
    const terminal = outcome.stdout + outcome.stderr;
    expect(outcome.code).toBe(1);
    expect(terminal).not.toContain('Test timed out');
    expect(terminal).toMatch(
      new RegExp(
        `the judge at ${server.url}/chat/completions did not answer within 1400 ms \\(4 attempts, \\d+\\.\\d s waited in all\\)`,
      ),
    );
    // "4 attempts" is the client's count: on a loaded machine the server may not have read a request before the
    // client cut it off, so the server's count is only bounded.
    expect(server.received.length).toBeGreaterThanOrEqual(1);
    expect(server.received.length).toBeLessThanOrEqual(4);
  }, 60_000);

  it('gives the checks of a run without a judge no timer at all', async () => {
    const dir = await tmp();
    await mkdir(join(dir, 'needles'));
    await writeFile(
      join(dir, 'needles/answer.cases.yaml'),
      'id: answers\ncases:\n  - id: grounded\n    expect:\n      answer:\n        contains: Compound\n',
    );
    await cp(join(ROOT, 'fixtures/workups/grounded'), join(dir, 'workups/grounded'), { recursive: true });
    // A reporter of the project's own, as a user may add one: it writes each test's timeout as Vitest holds it.
    const reporter = join(dir, 'timeouts.mjs');
    await writeFile(
      reporter,
      `import { writeFileSync } from 'node:fs';
export default class {
  onTestRunEnd(modules) {
    const timeouts = modules.flatMap((m) => [...m.children.allTests()].map((t) => [t.fullName, t.options.timeout]));
    writeFileSync(${JSON.stringify(join(dir, 'timeouts.json'))}, JSON.stringify(timeouts));
  }
}
`,
    );
    const outcome = await needlework(dir, 'run', '--reporter', 'default', '--reporter', reporter);
    expect(outcome.code, outcome.stderr).toBe(0);
    // Vitest's default 5 s would wrap each check in a timer, keeping its closure and a stack trace per test for the
    // run; a judge's tests get the judge's time limit instead (above).
    expect(JSON.parse(await readFile(join(dir, 'timeouts.json'), 'utf8'))).toEqual([
      ['answers > grounded › grounded > answer contains "Compound"', 0],
    ]);
  }, 60_000);

  it('refuses --timeout without --judge, and a --timeout that is not a whole number', async () => {
    const dir = await rubricProject();
    const alone = await needlework(dir, 'run', '--timeout', '300');
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain("--timeout is the judge's time limit per request; it needs --judge");
    const bad = await needlework(dir, 'run', '--judge', 'http://127.0.0.1:9/v1', '--timeout', '1.5');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--timeout expects a whole number');
  });
});

describe('judgeTestTimeout', () => {
  it('is the longest the judge can take: turns of samples x 2 rounds x (attempts + the waits between them)', () => {
    // Defaults: 4 attempts of 60 s, 3 waits of at most max(backoff ceiling, 60 s Retry-After), 3 samples in 1 turn.
    expect(judgeTestTimeout()).toBe(2 * (4 * 60_000 + 3 * 60_000) + 5_000);
    expect(judgeTestTimeout({ timeoutMs: 300, maxRetries: 0 })).toBe(2 * 300 + 5_000);
    const waits = Math.max(100, 50) + Math.max(200, 50) + Math.max(250, 50); // base 100, doubling, capped at 250
    const options = {
      timeoutMs: 300,
      maxRetries: 3,
      backoff: { baseMs: 100, maxMs: 250, maxRetryAfterMs: 50 },
    };
    expect(judgeTestTimeout(options)).toBe(2 * (4 * 300 + waits) + 5_000);
    // 5 samples, 4 at a time: two turns.
    expect(judgeTestTimeout({ ...options, samples: 5 })).toBe(2 * 2 * (4 * 300 + waits) + 5_000);
    expect(judgeTestTimeout({ ...options, samples: 5, concurrency: 5 })).toBe(judgeTestTimeout(options));
  });
});
