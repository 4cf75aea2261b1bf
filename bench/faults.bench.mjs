// Faults: 30 `kill -9`s of `needlework run` while it writes its reports (JUnit, HTML, OTLP and a trend history of 49
// runs), each followed by a normal run. Targets: 0 malformed report files after a kill, 0 stale locks or temporary
// files after the next run, and the lock a kill left costing the next append under 100 ms (an empty lock used to cost
// 8 s): measured here by taking that lock in this process, before the next run starts.
// Each kill waits until a temporary or lock file appears in the reports folder, then a seeded random 0-250 ms, so
// the kills land at different moments of the writes.
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'junit2json';
import { withLock } from '../dist/src/report/trend/lock.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'dist/src/cli/bin.js');
const KILLS = 30;
const COPIES = 100;
const REPORTERS = ['needlework-junit', 'needlework-html', 'needlework-trend', 'needlework-otel'];
const FILES = ['junit.xml', 'report.html', 'trend.json', 'evaluations.otlp.json'];

let seed = 25;
const rand = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};

const dir = await mkdtemp(join(tmpdir(), 'needlework-bench-faults-'));
const out = join(dir, 'out');
await mkdir(join(dir, 'needles'));
const needle = await readFile(join(ROOT, 'needles/compound-alpha.needle.yaml'), 'utf8');
await writeFile(
  join(dir, 'needles/compound-alpha.needle.yaml'),
  needle.replace(/^workups: .*$/m, "workups: ['grounded-*']"),
);
for (let i = 0; i < COPIES; i++)
  await cp(join(ROOT, 'fixtures/workups/grounded'), join(dir, 'workups', `grounded-${i}`), {
    recursive: true,
  });

function start() {
  return spawn(
    process.execPath,
    [BIN, 'run', '--out-dir', 'out', ...REPORTERS.flatMap((r) => ['--reporter', r])],
    {
      cwd: dir,
      env: { ...process.env, CI: 'true', NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
}

/** A normal run: its exit code, stderr and wall time. */
function runToEnd() {
  const began = performance.now();
  const child = start();
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  return new Promise((done) =>
    child.on('exit', (code) => done({ code, stderr, seconds: (performance.now() - began) / 1000 })),
  );
}

/** Whether a report file is whole: JUnit parses, HTML ends, JSON parses. */
async function whole(file) {
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return true; // absent (never written yet) is not malformed
  }
  try {
    if (file.endsWith('.xml')) await parse(text);
    else if (file.endsWith('.html')) return text.trimEnd().endsWith('</html>');
    else JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const leftovers = async () => {
  const names = await readdir(out).catch(() => []);
  return {
    locks: names.filter((n) => n.endsWith('.lock')).length,
    temps: names.filter((n) => n.endsWith('.tmp')).length,
  };
};

// The history the kills land on: 49 runs, as a CI job that has run for a while has.
const first = await runToEnd();
if (first.code !== 0) throw new Error(`the first run failed:\n${first.stderr}`);
const history = await readFile(join(out, 'trend.json'), 'utf8');
const lines = history.split('\n');
const run = lines[1];
const runs = Array.from({ length: 49 }, (_, i) =>
  run.replace(
    /^\{"id":"[^"]*","time":"[^"]*"/,
    `{"id":"seed-${i}","time":"2020-01-01T00:00:${String(i).padStart(2, '0')}.000Z"`,
  ),
);
await writeFile(join(out, 'trend.json'), `${lines[0]}\n${runs.join(',\n')}\n]}\n`);
const historyMb = (await readFile(join(out, 'trend.json'))).length / 1e6;
const clean = await runToEnd();
if (clean.code !== 0) throw new Error(`a run on the seeded history failed:\n${clean.stderr}`);

let hit = 0;
let malformed = 0;
let leftLocks = 0;
let leftTemps = 0;
let stale = 0;
let failedNext = 0;
const lockMs = [];
const freshMs = [];
for (let k = 0; k < KILLS; k++) {
  const child = start();
  const exited = new Promise((done) => child.on('exit', () => done()));
  let ended = false;
  exited.then(() => {
    ended = true;
  });
  while (!ended) {
    const names = await readdir(out).catch(() => []);
    if (names.some((n) => n.endsWith('.tmp') || n.endsWith('.lock'))) {
      await new Promise((resolve) => setTimeout(resolve, Math.floor(rand() * 250)));
      if (!ended && child.kill('SIGKILL')) hit++;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await exited;
  for (const file of FILES) if (!(await whole(join(out, file)))) malformed++;
  const left = await leftovers();
  leftLocks += left.locks;
  leftTemps += left.temps;
  if (left.locks > 0) {
    const began = performance.now();
    await withLock(join(out, 'trend.json.lock'), async () => undefined, { timeoutMs: 30_000 });
    lockMs.push(performance.now() - began);
    // The same lock once free, for the ratio: what the leftover costs beyond taking a lock at all.
    const again = performance.now();
    await withLock(join(out, 'trend.json.lock'), async () => undefined, { timeoutMs: 30_000 });
    freshMs.push(performance.now() - again);
  }
  const next = await runToEnd();
  if (next.code !== 0) failedNext++;
  const after = await leftovers();
  stale += after.locks + after.temps;
  for (const file of FILES) if (!(await whole(join(out, file)))) malformed++;
}

const verdict = (ok) => (ok ? 'met' : 'MISSED');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const slowest = lockMs.length > 0 ? Math.max(...lockMs) : 0;
const rows = [
  [
    'kills while writing',
    `${hit} of ${KILLS}`,
    `history ${historyMb.toFixed(1)} MB`,
    `${KILLS}`,
    verdict(hit === KILLS),
  ],
  ['left by the kills', `${leftLocks} locks, ${leftTemps} temps`, '', '', ''],
  ['malformed report files', String(malformed), '', '0', verdict(malformed === 0)],
  ['stale locks and temps after the next run', String(stale), '', '0', verdict(stale === 0)],
  ['next runs that failed', String(failedNext), '', '0', verdict(failedNext === 0)],
  [
    'taking a lock a kill left: median, slowest',
    `${median(lockMs).toFixed(1)} ms, ${slowest.toFixed(1)} ms`,
    `${lockMs.length} locks; a free lock ${median(freshMs).toFixed(1)} ms, ${Math.max(0, ...freshMs).toFixed(1)} ms`,
    'median < 100 ms',
    verdict(median(lockMs) < 100),
  ],
];
const widths = [0, 1, 2, 3, 4].map((i) => Math.max(...rows.map((r) => String(r[i]).length), 6));
for (const r of [['what', 'count', 'note', 'target', 'verdict'], ...rows])
  console.log(r.map((c, i) => String(c).padEnd(widths[i])).join('  '));
await rm(dir, { recursive: true, force: true });
