// Workups in bulk: loading 10,000 runs from one `*.workups.jsonl` file against the same runs as 10,000 workup
// folders (trajectory.json + meta.json each), with `loadWorkups`, as `needlework run` and the plugin load them. Each
// run has 8 tool calls with their results, an answer and its task in the meta (the peer workload of issue 24). The two
// layouts are loaded in turn, 3 times each, in this one process; the medians and their ratio are printed (a shared
// machine's load moves both alike). Target: the JSONL file loads at least as fast as the folders, and yields the same
// workups.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadWorkups } from '../dist/src/workup/load.js';

const RUNS = 10_000;
const ROUNDS = 3;
const TOOLS = [
  'get_user_details',
  'search_direct_flight',
  'get_reservation_details',
  'update_reservation_flights',
];

function trajectory(i) {
  const steps = [];
  for (let c = 0; c < 8; c++) {
    const tool = TOOLS[(i + c) % TOOLS.length];
    const args = { reservation_id: `R${i}`, step: c };
    steps.push({
      step_id: steps.length + 1,
      step_type: 'tool_call',
      content: JSON.stringify(args),
      tool_name: tool,
      tool_input: args,
      tool_output: null,
      timestamp: null,
      latency_ms: 120,
      tokens_used: 40,
      error: null,
      call_id: `call_${c}`,
    });
    const output = { ok: true, reservation_id: `R${i}`, flights: [`HAT${(i + c) % 300}`] };
    steps.push({
      step_id: steps.length + 1,
      step_type: 'observation',
      content: JSON.stringify(output),
      tool_name: tool,
      tool_input: null,
      tool_output: output,
      timestamp: null,
      latency_ms: 0,
      tokens_used: 0,
      error: null,
      call_id: `call_${c}`,
    });
  }
  const answer = `Reservation R${i} is now on HAT${i % 300}.`;
  steps.push({
    step_id: steps.length + 1,
    step_type: 'answer',
    content: answer,
    tool_name: null,
    tool_input: null,
    tool_output: null,
    timestamp: null,
    latency_ms: 0,
    tokens_used: 0,
    error: null,
  });
  return {
    task_id: `case-${i}`,
    task_input: `Move reservation R${i}.`,
    steps,
    final_answer: answer,
    succeeded: true,
    total_tokens: 320,
    total_latency_ms: 960,
    metadata: {},
  };
}

const root = await mkdtemp(join(tmpdir(), 'needlework-bench-bulk-'));
try {
  const jsonl = join(root, 'runs.workups.jsonl');
  const folders = join(root, 'folders');
  let text = '';
  for (let i = 0; i < RUNS; i++) {
    text += `${JSON.stringify({ id: `run-${i}`, trajectory: trajectory(i), meta: { task: `case-${i}` } })}\n`;
  }
  await writeFile(jsonl, text);
  await mkdir(folders);
  for (let i = 0; i < RUNS; i += 200) {
    await Promise.all(
      Array.from({ length: Math.min(200, RUNS - i) }, async (_, k) => {
        const dir = join(folders, `run-${i + k}`);
        await mkdir(dir);
        await writeFile(join(dir, 'trajectory.json'), `${JSON.stringify(trajectory(i + k), null, 2)}\n`);
        await writeFile(join(dir, 'meta.json'), `${JSON.stringify({ task: `case-${i + k}` })}\n`);
      }),
    );
  }

  const times = { jsonl: [], folders: [], parse: [] };
  let loaded;
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, path] of [
      ['jsonl', jsonl],
      ['folders', folders],
    ]) {
      globalThis.gc?.();
      const started = performance.now();
      const { workups, failures } = await loadWorkups(path);
      times[name].push(performance.now() - started);
      if (workups.length !== RUNS || failures.length > 0)
        throw new Error(`${name}: ${workups.length} workups, ${failures.length} failures`);
      loaded ??= {};
      loaded[name] = workups;
    }
  }
  // The floor: reading the file and JSON.parse of each line, nothing checked or built.
  const { readFile } = await import('node:fs/promises');
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    const lines = (await readFile(jsonl, 'utf8')).split('\n');
    let n = 0;
    for (const l of lines) if (l !== '') n += JSON.parse(l) ? 1 : 0;
    times.parse.push(performance.now() - started);
    if (n !== RUNS) throw new Error(`parsed ${n} lines`);
  }
  // Same workups either way (but where each was read from).
  const key = (w) =>
    JSON.stringify([w.id, w.meta.task, w.trajectory.steps.length, w.trajectory.final_answer]);
  const same = loaded.jsonl.map(key).sort().join('\n') === loaded.folders.map(key).sort().join('\n');
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const j = median(times.jsonl);
  const f = median(times.folders);
  console.log(
    `load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}; ${RUNS} workups, ${ROUNDS} rounds each, interleaved`,
  );
  console.log(
    `one *.workups.jsonl (${(text.length / 1e6).toFixed(1)} MB): median ${j.toFixed(0)} ms (${((j / RUNS) * 1000).toFixed(0)} µs a workup) [${times.jsonl.map((t) => t.toFixed(0)).join(', ')}]`,
  );
  console.log(
    `${RUNS} workup folders:        median ${f.toFixed(0)} ms (${((f / RUNS) * 1000).toFixed(0)} µs a workup) [${times.folders.map((t) => t.toFixed(0)).join(', ')}]`,
  );
  const p = median(times.parse);
  console.log(
    `read + JSON.parse of each line: median ${p.toFixed(0)} ms [${times.parse.map((t) => t.toFixed(0)).join(', ')}]`,
  );
  console.log(
    `jsonl / folders: ${(j / f).toFixed(2)}; jsonl / bare parse: ${(j / p).toFixed(1)}; same workups: ${same}`,
  );
  const ok = same && j <= f;
  console.log(
    ok
      ? '✓ one JSONL file loads at least as fast as the folders'
      : '✗ the JSONL file loaded slower than the folders, or gave other workups',
  );
  process.exitCode = ok ? 0 : 1;
} finally {
  await rm(root, { recursive: true, force: true });
}
