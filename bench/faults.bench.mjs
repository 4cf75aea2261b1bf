// Faults: 30 `kill -9`s of `needlework run` while it writes its reports (JUnit, HTML, OTLP), and 30 while it appends
// to the results store (the embedded store in .needlework/store), each followed by a normal run. Targets: 0 malformed
// report files after a kill, 0 stale locks or temporary files after the next run, a store that still opens with
// every run the completed runs appended (a killed run may be lost, never another), and the lock a kill left costing
// the next append under 100 ms (an empty lock used to cost 8 s): measured by taking that lock in this process.
// Each kill waits until a temporary file appears in the reports folder (or the store's lock, for the appends), then a
// seeded random delay within what a normal run takes from that moment to its end (at most 250 ms), so the kills land
// at different moments of the writes.
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'junit2json';
import { acquireLock } from '../dist/src/history/store/lock.js';

/** Takes the store's lock and lets it go, as the next run's open and close would. */
const takeAndRelease = async (path, options) => (await acquireLock(path, options))();

import { openStore } from '../dist/src/history/store/open.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'dist/src/cli/bin.js');
const KILLS = 30;
const COPIES = 100;
const REPORTERS = ['needlework-junit', 'needlework-html', 'needlework-trend', 'needlework-otel'];
const FILES = ['junit.xml', 'report.html', 'evaluations.otlp.json'];

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

const store = join(dir, '.needlework/store');
const storeLock = `${store}.lock`;
const exists = (path) =>
  stat(path).then(
    () => true,
    () => false,
  );
const leftovers = async () => {
  const names = await readdir(out).catch(() => []);
  return {
    locks: names.filter((n) => n.endsWith('.lock')).length + ((await exists(storeLock)) ? 1 : 0),
    temps: names.filter((n) => n.endsWith('.tmp')).length,
  };
};
/** The runs the store holds, or -1 when it does not open. */
async function storedRuns() {
  try {
    const opened = await openStore(store, { mustExist: true });
    try {
      return await opened.count();
    } finally {
      await opened.close();
    }
  } catch {
    return -1;
  }
}

// The store the kills land on: made by a first run, then 20 more, as a CI job that has run for a while has.
for (let i = 0; i < 21; i++) {
  const first = await runToEnd();
  if (first.code !== 0) throw new Error(`a seeding run failed:\n${first.stderr}`);
}

/**
 * How long a normal run goes on once `ready()` first holds (the median of 3 runs): the kills' random delay is drawn
 * within it, so that they land inside the writes however fast the writes have become.
 */
async function window(ready) {
  const spans = [];
  for (let r = 0; r < 3; r++) {
    const child = start();
    let ended = false;
    const exited = new Promise((done) => child.on('exit', () => done()));
    exited.then(() => {
      ended = true;
    });
    let readyAt;
    while (!ended) {
      if (readyAt === undefined && (await ready())) readyAt = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await exited;
    if (readyAt !== undefined) spans.push(performance.now() - readyAt);
  }
  return spans.sort((a, b) => a - b)[1] ?? 250;
}

/**
 * 30 kills, each when `ready()` first holds, then a random delay up to 250 ms or 80% of the window `ready()` opens on
 * a normal run (whichever is shorter), each followed by a normal run.
 */
async function killRound(ready) {
  const span = Math.min(250, 0.8 * (await window(ready)));
  const tally = {
    hit: 0,
    malformed: 0,
    leftLocks: 0,
    leftTemps: 0,
    stale: 0,
    failedNext: 0,
    lost: 0,
    broken: 0,
  };
  const lockMs = [];
  const freshMs = [];
  for (let k = 0; k < KILLS; k++) {
    const before = await storedRuns();
    const child = start();
    const exited = new Promise((done) => child.on('exit', () => done()));
    let ended = false;
    exited.then(() => {
      ended = true;
    });
    while (!ended) {
      if (await ready()) {
        await new Promise((resolve) => setTimeout(resolve, Math.floor(rand() * span)));
        if (!ended && child.kill('SIGKILL')) tally.hit++;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await exited;
    for (const file of FILES) if (!(await whole(join(out, file)))) tally.malformed++;
    const left = await leftovers();
    tally.leftLocks += left.locks;
    tally.leftTemps += left.temps;
    if (await exists(storeLock)) {
      const began = performance.now();
      await takeAndRelease(storeLock, { timeoutMs: 30_000 });
      lockMs.push(performance.now() - began);
      // The same lock once free, for the ratio: what the leftover costs beyond taking a lock at all.
      const again = performance.now();
      await takeAndRelease(storeLock, { timeoutMs: 30_000 });
      freshMs.push(performance.now() - again);
    }
    const afterKill = await storedRuns();
    const next = await runToEnd();
    if (next.code !== 0) tally.failedNext++;
    const after = await leftovers();
    tally.stale += after.locks + after.temps;
    for (const file of FILES) if (!(await whole(join(out, file)))) tally.malformed++;
    const now = await storedRuns();
    if (afterKill === -1 || now === -1) tally.broken++;
    // The next run is kept; the killed one may or may not have been; none before it is lost.
    else if (now < before + 1 || afterKill < before) tally.lost++;
  }
  return { ...tally, lockMs, freshMs };
}

const writes = await killRound(async () =>
  (await readdir(out).catch(() => [])).some((n) => n.endsWith('.tmp')),
);
const appends = await killRound(() => exists(storeLock));

const verdict = (ok) => (ok ? 'met' : 'MISSED');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const rows = [];
for (const [name, t] of [
  ['report writes', writes],
  ['store appends', appends],
]) {
  rows.push(
    [`kills during ${name}`, `${t.hit} of ${KILLS}`, '', `${KILLS}`, verdict(t.hit === KILLS)],
    ['  left by the kills', `${t.leftLocks} locks, ${t.leftTemps} temps`, '', '', ''],
    ['  malformed report files', String(t.malformed), '', '0', verdict(t.malformed === 0)],
    ['  stale locks and temps after the next run', String(t.stale), '', '0', verdict(t.stale === 0)],
    ['  next runs that failed', String(t.failedNext), '', '0', verdict(t.failedNext === 0)],
    ['  store that no longer opens', String(t.broken), '', '0', verdict(t.broken === 0)],
    ['  runs lost beyond the killed one', String(t.lost), '', '0', verdict(t.lost === 0)],
    [
      '  taking a lock a kill left: median, slowest',
      t.lockMs.length
        ? `${median(t.lockMs).toFixed(1)} ms, ${Math.max(...t.lockMs).toFixed(1)} ms`
        : 'no lock was left',
      `${t.lockMs.length} locks; a free lock ${median(t.freshMs).toFixed(1)} ms`,
      'median < 100 ms',
      verdict(median(t.lockMs) < 100),
    ],
  );
}
const widths = [0, 1, 2, 3, 4].map((i) => Math.max(...rows.map((r) => String(r[i]).length), 6));
for (const r of [['what', 'count', 'note', 'target', 'verdict'], ...rows])
  console.log(r.map((c, i) => String(c).padEnd(widths[i])).join('  '));
if (rows.some((r) => r[4] === 'MISSED')) process.exitCode = 1;
await rm(dir, { recursive: true, force: true });
