// A small seeded fuzzer over the input kinds the CLI reads: each kind's seed files (the shipped fixtures and specs,
// generated trend histories and recorded runs) are mutated (bytes flipped, spans cut or doubled, hostile values
// spliced in: null, -1, 1.5, "", 2^53 + 1, "..", deep nesting, long strings) and fed to the same loader the CLI runs.
// Counts crashes (any error but our UserError; a CLI command's exit code is its own answer) by class, and inputs over
// 1 s CPU. FUZZ_COUNT sets the number of inputs per kind (default 150), FUZZ_SEED the seed, FUZZ_KIND one kind.
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// FUZZ_ROOT runs it against another checkout's build (to see what the fuzzer finds there).
const root = process.env.FUZZ_ROOT ?? new URL('..', import.meta.url).pathname;
const dist = (path) => import(join(root, 'dist/src', path));
const { loadWorkup } = await dist('workup/load.js');
const { readLedger } = await dist('workup/ledger.js');
const { loadSpecs } = await dist('specs/load.js');
const { readHistory } = await dist('history/history.js');
const { renderTrendTable } = await dist('report/trend-table.js');
const { compareStored } = await dist('history/gate.js');
const { runImport } = await dist('cli/commands/import.js');
const { createRecorder } = await dist('recorder/index.js');
const { UserError } = await dist('errors/index.js');
const { parseJson } = await dist('parse/json.js');
const { Cassette } = await dist('judge/cassette.js');
const { CallCassette } = await dist('cassette/calls.js');
// The AI SDK harness registers its codecs (a recorded model response is checked against its shape at load).
await dist('harness/ai-sdk/index.js').catch(() => undefined);

const COUNT = Number(process.env.FUZZ_COUNT ?? 150);
const SEED = Number(process.env.FUZZ_SEED ?? 1);
const SLOW_MS = 1000;
const MAX_BYTES = 1024 * 1024;

/** mulberry32: a small seeded generator, so a run can be repeated exactly. */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = generator(SEED);
const pick = (list) => list[Math.floor(random() * list.length)];
const int = (n) => Math.floor(random() * n);

const HOSTILE = [
  'null',
  '-1',
  '0',
  '1.5',
  '""',
  '"."',
  '".."',
  '"a:b"',
  '[]',
  '{}',
  'true',
  '9007199254740993',
  '340282366920938463463374607431768211455',
  '1e309',
  '"\\u0000"',
  '"\\ud800"',
  `"${'x'.repeat(5000)}"`,
  `${'['.repeat(3000)}${']'.repeat(3000)}`,
  `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`,
  '"<script>"',
];
const HOSTILE_YAML = [
  'null',
  '-1',
  '1.5',
  '""',
  '[]',
  '{}',
  '~',
  '*a',
  '&a x',
  '!!binary x',
  '- - - -',
  `${'['.repeat(3000)}`,
  '? x',
  "'..'",
  'x'.repeat(5000),
];

/** One mutation of `text`. */
function mutate(text, yaml) {
  const at = int(text.length + 1);
  switch (int(6)) {
    case 0: // flip a character
      return text.slice(0, at) + String.fromCharCode(int(128)) + text.slice(at + 1);
    case 1: // cut a span
      return text.slice(0, at) + text.slice(at + int(200));
    case 2: {
      // double a span
      const span = text.slice(at, at + int(400));
      return text.slice(0, at) + span + span + text.slice(at);
    }
    case 3: {
      // replace a JSON value (after a colon) by a hostile one
      const colon = text.indexOf(':', at);
      if (colon === -1) return text;
      const end = text.slice(colon + 1).search(yaml ? /\n/ : /[,}\]]/);
      return `${text.slice(0, colon + 1)} ${pick(yaml ? HOSTILE_YAML : HOSTILE)}${end === -1 ? '' : text.slice(colon + 1 + end)}`;
    }
    case 4: // splice a hostile token anywhere
      return text.slice(0, at) + pick(yaml ? HOSTILE_YAML : HOSTILE) + text.slice(at);
    default: {
      // repeat a line many times
      const start = text.lastIndexOf('\n', at) + 1;
      const end = text.indexOf('\n', at);
      const line = text.slice(start, end === -1 ? text.length : end + 1);
      // Never past the size the target is for (a one-line text repeated 2,000 times over would not fit a string).
      const times = Math.min(1 + int(2000), Math.ceil(MAX_BYTES / Math.max(1, line.length)));
      return text.slice(0, start) + line.repeat(times) + text.slice(start);
    }
  }
}

const io = { out() {}, err() {}, color: false };

function trendText(version) {
  const run = (i) => ({
    id: `20261122T03${String(i).padStart(2, '0')}00Z-0000000${i}`,
    time: `2026-11-22T03:${String(i).padStart(2, '0')}:00.000Z`,
    ...(version === 2 && { scope: { kind: 'full' } }),
    summary: { checks: 2, passed: 1, failed: 1, notApplicable: 0, skipped: 0, passRate: 0.5 },
    checks: [
      {
        spec: 's',
        workup: 'w1',
        ...(version === 2 && { task: 't', trial: 1 }),
        criterion: 'c',
        metric: 'recall',
        value: 1,
        threshold: 1,
        comparator: '>=',
        verdict: 'pass',
        state: 'passed',
      },
      {
        spec: 's',
        workup: 'w2',
        ...(version === 2 && { task: 't', trial: 2 }),
        criterion: 'c',
        metric: 'recall',
        value: 0,
        threshold: 1,
        comparator: '>=',
        verdict: 'fail',
        state: 'failed',
      },
    ],
    ...(version === 2 && {
      trials: [
        { spec: 's', criterion: 'c', task: 't', metric: 'recall', trials: 2, passes: 1, notApplicable: 0 },
      ],
    }),
  });
  return `{"schema":${version},"runs":[\n${[1, 2, 3].map((i) => JSON.stringify(run(i))).join(',\n')}\n]}\n`;
}

/** What `needlework trend` does with a history: read it, draw its table, and gate its latest run. */
async function trend(file) {
  renderTrendTable(await readHistory(file));
  await compareStored({ history: file });
}

/** A recorded run's files, as the recorder saves them. */
async function recordedRun(dir) {
  const recorder = createRecorder({ id: 'rec:1', task: 'book', trial: 2, input: 'Book a flight' });
  recorder.toolCall('search', { from: 'OSL', big: 12345678901234567890n }, 'c1');
  recorder.toolResult('c1', [{ subject: 'OSL', relation: 'FLIES_TO', object: 'LHR' }]);
  recorder.answer('Booked.');
  recorder.note('# Workup\n\n## Findings\n\n- Booked. [cite:c1]\n');
  return recorder.save(dir);
}

/** A judge cassette of three recorded verdicts, as a recording run writes one. */
function judgeCassetteText() {
  const entries = {};
  for (let i = 0; i < 3; i++) {
    entries[`${'ab'.repeat(31)}${i}${i}`] = {
      context: { rubric: 'icd-203', criterion: `criterion-${i}` },
      request: {
        model: 'judge-model',
        messages: [{ role: 'user', content: `Score criterion ${i} of the note.` }],
        schema: { name: 'verdict', schema: { type: 'object' } },
        temperature: 0,
        seed: 7,
        maxTokens: null,
        sample: null,
      },
      response: { score: 4, rationale: 'Cited throughout.', raw: '{"score":4}', model: 'judge-model' },
    };
  }
  return JSON.stringify({ version: 1, entries }, null, 2);
}

/** A call cassette of recorded tool calls and a model call, as a live run records them. */
function callCassetteText() {
  const entries = {
    [`${'cd'.repeat(32)}`]: {
      request: { kind: 'tool', name: 'graph_query', args: { q: 'neighbors("Halberd")' }, trial: 1 },
      response: { value: { rows: [{ id: 'g1', name: 'Ash Cell' }] } },
    },
    [`${'ef'.repeat(32)}`]: {
      request: { kind: 'tool', name: 'search', args: { q: 'Wren' }, trial: 2 },
      response: { error: 'timeout' },
    },
    [`${'01'.repeat(32)}`]: {
      request: { kind: 'model', name: 'generate', args: { prompt: 'Where?' } },
      response: { value: { text: 'Compound-Alpha' } },
    },
  };
  return JSON.stringify({ version: 1, entries }, null, 2);
}

/** Recorder calls as a script: the options, then each call as `[method, ...arguments]`. */
const RECORDER_SCRIPT = JSON.stringify({
  options: { id: 'rec:2', task: 'book', trial: 3, input: 'Book a flight', meta: { model: 'm' } },
  calls: [
    ['toolCall', 'search', { from: 'OSL' }, 'c1', { latencyMs: 12, tokens: 30 }],
    ['toolResult', 'c1', [{ subject: 'OSL', relation: 'FLIES_TO', object: 'LHR' }], { latencyMs: 40 }],
    ['usage', { inputTokens: 100, outputTokens: 20, costUsd: 0.001 }],
    ['answer', 'Booked.', { tokens: 5, latencyMs: 3 }],
    ['note', '# Workup\n\n## Findings\n\n- Booked. [cite:c1]\n'],
  ],
});
const RECORDER_METHODS = new Set(['toolCall', 'toolResult', 'usage', 'answer', 'note']);

/**
 * Plays a recorder script (the recorder kind): what a harness calls, with the values the mutations gave. A call the
 * recorder refuses (a UserError) is a refusal; a run it accepted must save, load back, and equal its `workup()` (but
 * for `meta.path` and `note.file`): anything else is a crash, since the recorder took what it cannot keep.
 */
async function playRecorder(file, dir) {
  const script = parseJson(await readFile(file, 'utf8'), file);
  const recorder = createRecorder(script?.options);
  for (const call of Array.isArray(script?.calls) ? script.calls : []) {
    if (!Array.isArray(call) || !RECORDER_METHODS.has(call[0])) continue;
    recorder[call[0]](...call.slice(1));
  }
  const expected = asJson(recorder.workup());
  let loaded;
  try {
    loaded = await loadWorkup(await recorder.save(join(dir, 'recorded')));
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    throw new Error(
      `the recorder saved a run that does not load back: ${error.message.split('\n')[0].replace(/^\S*recorded\/\S*: /, '')}`,
    );
  }
  const back = asJson(loaded);
  // Where the files are: only a loaded workup has them.
  delete back.meta.path;
  if (back.note) delete back.note.file;
  const where = difference(expected, back, '');
  if (where !== undefined) throw new Error(`the saved run differs from workup() at ${where}`);
  return loaded;
}

const asJson = (value) => JSON.parse(JSON.stringify(value));

/** The path of the first difference between two JSON values (its last key only, so crashes group by field). */
function difference(a, b, path) {
  if (a === b) return undefined;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return path || '(top)';
  if (Array.isArray(a) !== Array.isArray(b)) return path;
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const found = difference(a[key], b[key], Array.isArray(a) ? `${path}[]` : `${path}.${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Each kind: its seed texts, the file it is written as, and how the CLI reads it. */
async function kinds(dir) {
  const folder = (name) => async (file) => loadWorkup(file.slice(0, -name.length - 1));
  const importer = (from) => async (file) =>
    runImport({ file, out: join(dir, 'out'), force: true, from }, io);
  return [
    ['workup json', ['fixtures/workups/single-file.workup.json'], 'w.json', loadWorkup],
    [
      'note',
      ['grounded', 'uncited', 'unsupported', 'dangling', 'guessed'].map(
        (w) => `fixtures/workups/${w}/note.md`,
      ),
      'nt/note.md',
      folder('note.md'),
    ],
    ['ledger', ['fixtures/workups/grounded/provenance.jsonl'], 'l/provenance.jsonl', readLedger],
    [
      'trajectory',
      ['fixtures/workups/grounded/trajectory.json'],
      't/trajectory.json',
      folder('trajectory.json'),
    ],
    [
      'needle yaml',
      ['needles/compound-alpha.needle.yaml', 'needles/wren-tie.needle.yaml'],
      'n.needle.yaml',
      loadSpecs,
    ],
    ['rubric yaml', ['needles/icd-203.rubric.yaml'], 'r.rubric.yaml', loadSpecs],
    [
      'cases yaml',
      ['examples/support/support.cases.yaml', 'examples/coding/coding.cases.yaml'],
      'c.cases.yaml',
      loadSpecs,
    ],
    ['openai', ['fixtures/imports/openai-chat.json'], 'o.json', importer('openai')],
    [
      'otlp',
      ['fixtures/imports/otel-genai-trace.json', 'fixtures/imports/any-agent-trace.json'],
      'x.json',
      importer('otel'),
    ],
    ['otel sdk', ['fixtures/imports/otel-sdk-spans.json'], 's.json', importer('otel-sdk')],
    [
      'swe-agent',
      ['fixtures/imports/swe-agent-commands.traj', 'fixtures/imports/swe-agent-function-calling.traj'],
      'a.traj',
      importer('swe-agent'),
    ],
    ['tau-bench', ['fixtures/imports/tau-bench-results.json'], 'u.json', importer('tau-bench')],
    [
      'judge cassette',
      [{ text: judgeCassetteText() }],
      'judge.cassette.json',
      async (file) => (await Cassette.load(file, { mustExist: true })).models(),
    ],
    [
      'call cassette',
      [{ text: callCassetteText() }],
      'calls.cassette.json',
      (file) => CallCassette.open({ file, mode: 'replay' }),
    ],
    ['recorder calls', [{ text: RECORDER_SCRIPT }], 'script.json', (file) => playRecorder(file, dir)],
    ['trend v1', [{ text: trendText(1) }], 'trend1.json', trend],
    ['trend v2', [{ text: trendText(2) }], 'trend2.json', trend],
    ['recorded run meta', [join(recorded, 'meta.json')], 'm/meta.json', folder('meta.json')],
    [
      'recorded run trajectory',
      [join(recorded, 'trajectory.json')],
      'k/trajectory.json',
      folder('trajectory.json'),
    ],
  ];
}

const dir = await mkdtemp(join(tmpdir(), 'needlework-fuzz-'));
const recorded = await recordedRun(join(dir, 'seed-recorded'));
const crashes = new Map();
let total = 0;
let slow = 0;
// The slowest input, kept whatever its time, so a near miss can be read and made a fixture.
let slowest = 0;
let slowestInput = { kind: '', name: '', text: '' };
try {
  for (const [kind, seeds, name, load] of await kinds(dir)) {
    if (process.env.FUZZ_KIND && !kind.includes(process.env.FUZZ_KIND)) continue;
    const texts = await Promise.all(
      seeds.map((s) =>
        typeof s === 'string' ? readFile(s.startsWith('/') ? s : join(root, s), 'utf8') : s.text,
      ),
    );
    const file = join(dir, 'in', name);
    await mkdir(join(file, '..'), { recursive: true });
    // A recorded run's file is mutated in a copy of the whole recorded folder, so the rest of the run is there.
    if (kind.startsWith('recorded run')) await cp(recorded, join(file, '..'), { recursive: true });
    let kindCrashes = 0;
    let refused = 0;
    for (let i = 0; i < COUNT; i++) {
      let text = pick(texts);
      for (let m = 1 + int(3); m > 0; m--) text = mutate(text, name.endsWith('.yaml'));
      // The target is for inputs of up to 1 MB: a longer mutation is cut to that.
      if (text.length > MAX_BYTES) text = text.slice(0, MAX_BYTES);
      await writeFile(file, text);
      total++;
      const start = process.cpuUsage();
      try {
        // loadSpecs reports its problems and import its exit code: a refusal too, not a crash.
        const result = await load(file);
        if (result === 1 || result?.errors?.length > 0) refused++;
      } catch (error) {
        if (error instanceof UserError) refused++;
        else {
          kindCrashes++;
          const frame =
            String(error?.stack ?? '')
              .split('\n')
              .find((l) => l.includes('/dist/')) ?? '';
          const key = `${kind}: ${error?.name}: ${String(error?.message).split('\n')[0].slice(0, 90)} ${frame.trim().replace(/^at /, '').replace(root, '')}`;
          const seen = crashes.get(key);
          if (seen) seen.count++;
          else {
            crashes.set(key, {
              count: 1,
              example: join(dir, `crash-${crashes.size}-${name.replace(/\//g, '_')}`),
            });
            await writeFile(crashes.get(key).example, text);
          }
        }
      }
      const used = process.cpuUsage(start);
      const ms = (used.user + used.system) / 1000;
      if (ms > slowest) {
        slowest = ms;
        slowestInput = { kind, name, text };
      }
      if (ms > SLOW_MS) {
        slow++;
        await writeFile(join(dir, `slow-${slow}-${name.replace(/\//g, '_')}`), text);
      }
    }
    console.log(
      `${kind}: ${COUNT} inputs, ${refused} refused with our one-line errors, ${kindCrashes} crashes`,
    );
  }
  console.log(
    `\n${total} inputs (seed ${SEED}): ${[...crashes.values()].reduce((n, c) => n + c.count, 0)} crashes in ${crashes.size} classes, ${slow} over ${SLOW_MS} ms CPU (slowest ${slowest.toFixed(0)} ms)`,
  );
  if (slowestInput.text) {
    // Beside the fuzzer's folder, which is removed when nothing was found.
    const kept = `${dir}-slowest-${slowestInput.name.replace(/\//g, '_')}`;
    await writeFile(kept, slowestInput.text);
    console.log(
      `  slowest input: ${slowestInput.kind}, ${slowestInput.text.length} characters, kept: ${kept}`,
    );
  }
  for (const [key, { count, example }] of crashes)
    console.log(`  ${count} x ${key}\n      example kept: ${example}`);
  console.log(
    `target 0 crashes, 0 inputs over 1 s CPU: ${crashes.size === 0 && slow === 0 ? 'met' : 'MISSED'}`,
  );
  process.exitCode = crashes.size === 0 && slow === 0 ? 0 : 1;
} finally {
  // Examples of crashes and slow inputs are kept for minimizing; a clean run leaves nothing.
  if (crashes.size === 0 && slow === 0) await rm(dir, { recursive: true, force: true });
  else await rm(join(dir, 'in'), { recursive: true, force: true });
}
