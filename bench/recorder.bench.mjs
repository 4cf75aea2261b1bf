// Recording overhead per tool call: a recorder's toolCall + toolResult against a bare callback that only pushes the
// call and its result to an array, on the same calls in this same run. Target: under 50 microseconds per call. Runs
// are of RUN_CALLS calls each (a long agent run), a fresh recorder per run. Also shows what assembling a run's workup
// costs (the ledger mapping, step texts and timestamps), paid once per run after the agent is done. Then the whole
// path with the AI SDK harness and a cassette (bench/harness-path.mjs), before (a base commit built in this run) and
// after.
import { createRecorder } from '../dist/src/recorder/index.js';

const RUN_CALLS = 2_000;
const RUNS = 10;
const ROUNDS = 7;
const fmt = (x, digits = 2) =>
  x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

const entities = ['Halberd', 'Ash Cell', 'Compound-Alpha', 'Wren', 'Depot-Seven', 'Kestrel Group'];
const inputs = Array.from({ length: RUN_CALLS }, (_, i) => ({
  entity: entities[i % entities.length],
  relation: 'CO_LOCATED',
  limit: 10,
}));
const outputs = inputs.map(({ entity }) => [
  { subject: entity, relation: 'MEMBER_OF', object: 'Ash Cell', store: 'graph' },
  { subject: entity, relation: 'CO_LOCATED', object: 'Compound-Alpha', store: 'graph' },
  { subject: 'Wren', relation: 'CO_LOCATED', object: entity, store: 'graph' },
]);
const ledger = ({ output }) => (Array.isArray(output) ? output : undefined);

/** Nanoseconds for RUNS runs of RUN_CALLS calls, each through `run()`'s callbacks. */
function timed(run) {
  let ns = 0;
  for (let r = 0; r < RUNS; r++) {
    const { call, result } = run();
    const start = process.hrtime.bigint();
    for (let i = 0; i < RUN_CALLS; i++) result(call('graph_query', inputs[i], `call-${i}`), outputs[i]);
    ns += Number(process.hrtime.bigint() - start);
  }
  return ns;
}

function bare() {
  const events = [];
  return {
    call: (name, input, id) => {
      events.push({ name, input, id });
      return id;
    },
    result: (id, output) => events.push({ id, output }),
  };
}

let lastRecorder;
function recorded() {
  const recorder = createRecorder({ id: 'bench', ledger });
  lastRecorder = recorder;
  return {
    call: (name, input, id) => recorder.toolCall(name, input, id),
    result: (id, output) => recorder.toolResult(id, output),
  };
}

/** The best of several rounds: on a shared machine, slower rounds measure the neighbours. */
function best(fn) {
  let min = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ROUNDS; round++) {
    globalThis.gc?.();
    min = Math.min(min, fn());
  }
  return min;
}

timed(bare);
timed(recorded); // warm both paths before timing
const calls = RUN_CALLS * RUNS;
const bareNs = best(() => timed(bare));
const recordedNs = best(() => timed(recorded));
const perCallUs = (ns) => ns / calls / 1000;
const overheadUs = perCallUs(recordedNs) - perCallUs(bareNs);
let workupNs = Number.POSITIVE_INFINITY;
for (let round = 0; round < ROUNDS; round++) {
  const start = process.hrtime.bigint();
  const workup = lastRecorder.workup();
  workupNs = Math.min(workupNs, Number(process.hrtime.bigint() - start));
  if (workup.ledger.length !== RUN_CALLS || workup.ledger[0].results.length !== 3)
    throw new Error('lost calls');
}

console.log(
  `  ${RUNS} runs of ${RUN_CALLS.toLocaleString('en-US')} tool calls (call + result, 3 facts each), best of ${ROUNDS} rounds`,
);
console.log(`  bare callback (push to an array): ${fmt(perCallUs(bareNs), 3)} µs per call`);
console.log(`  recorder (toolCall + toolResult): ${fmt(perCallUs(recordedNs), 3)} µs per call`);
console.log(`  recorder/bare: ${fmt(recordedNs / bareNs, 1)}x; overhead ${fmt(overheadUs, 3)} µs per call`);
console.log(
  `  workup() of one run, once at its end (ledger mapping, texts, timestamps): ${fmt(workupNs / 1e6, 1)} ms, ${fmt(workupNs / RUN_CALLS / 1000, 2)} µs per call`,
);
console.log(
  `  target overhead < 50 µs per tool call: ${overheadUs < 50 ? 'met' : 'MISSED'} (${fmt(overheadUs, 3)} µs)`,
);

// The whole path with the harness, against the same path at an earlier commit (BENCH_BASE, default bf2e475: before
// cassettes kept trials apart and wrote in the background) built in this run, and the bare loop.
const { buildBase } = await import('./base-build.mjs');
const { measure, RUNS: HARNESS_RUNS, STEPS } = await import('./harness-path.mjs');
const loadLib = async (root) => {
  const m = (p) => import(`${root}/src/${p}`);
  const [rec, cas, ai, save] = await Promise.all([
    m('recorder/index.js'),
    m('cassette/index.js'),
    m('harness/ai-sdk/index.js'),
    m('workup/save.js'),
  ]);
  const { recordAiSdk, cassetteModel, cassetteTools } = ai;
  return {
    createRecorder: rec.createRecorder,
    CallCassette: cas.CallCassette,
    recordAiSdk,
    cassetteModel,
    cassetteTools,
    saveWorkup: save.saveWorkup,
  };
};
const baseRef = process.env.BENCH_BASE ?? 'bf2e475';
let before;
try {
  before = await loadLib(buildBase(baseRef));
} catch (error) {
  console.log(
    `  before (${baseRef}): not measured, the commit could not be built here: ${error.message.split('\n')[0]}`,
  );
}
const after = await loadLib(new URL('../dist', import.meta.url).pathname);
const HARNESS_ROUNDS = 3;
const bestOf = {};
const keep = (label, result) => {
  for (const [mode, figures] of Object.entries(result)) {
    const key = `${label} ${mode}`;
    bestOf[key] ??= {};
    for (const [name, value] of Object.entries(figures))
      bestOf[key][name] = Math.min(bestOf[key][name] ?? Infinity, value);
  }
};
for (let round = 0; round < HARNESS_ROUNDS; round++) {
  keep('bare', await measure(undefined));
  if (before) keep('before', await measure(before));
  keep('after', await measure(after));
}
const bareCall = bestOf['bare bare'];
console.log(
  `\n  the whole path with the AI SDK harness: ${HARNESS_RUNS} runs of ${STEPS} steps (a model call and a tool call each) recorded into one cassette, then replayed; best of ${HARNESS_ROUNDS} rounds; bare loop ${fmt(bareCall.callUs, 1)} µs wall, ${fmt(bareCall.callCpuUs, 1)} µs CPU per step`,
);
for (const mode of ['record', 'replay']) {
  for (const label of before ? ['before', 'after'] : ['after']) {
    const f = bestOf[`${label} ${mode}`];
    console.log(
      `  ${mode} ${label.padEnd(6)}: per tool call ${fmt(f.callUs - bareCall.callUs, 1)} µs wall, ${fmt(f.callCpuUs - bareCall.callCpuUs, 1)} µs CPU over bare; end of run (workup, save, cassette flush) ${fmt(f.runMs, 2)} ms wall, ${fmt(f.runCpuMs, 2)} ms CPU`,
    );
  }
  if (before) {
    const b = bestOf[`before ${mode}`];
    const a = bestOf[`after ${mode}`];
    const whole = (f) => f.callCpuUs - bareCall.callCpuUs + (f.runCpuMs * 1000) / STEPS;
    console.log(
      `  ${mode}: after/before CPU per tool call (its share of the end of run included) ${fmt(whole(a) / whole(b), 2)}x (target <= 0.5: ${whole(a) <= whole(b) / 2 ? 'met' : 'MISSED'})`,
    );
  }
}
