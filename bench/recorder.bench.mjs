// Recording overhead per tool call: a recorder's toolCall + toolResult against a bare callback that only pushes the
// call and its result to an array, on the same calls in this same run. Target: under 50 microseconds per call. Runs
// are of RUN_CALLS calls each (a long agent run), a fresh recorder per run. Also shows what assembling a run's workup
// costs (the ledger mapping, step texts and timestamps), paid once per run after the agent is done.
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
