// Loading a large provenance.jsonl: it is read as a stream, so the raw text is never held whole. Prints the file size,
// the load time and the peak RSS, and the peak RSS of the same file read whole and JSON.parse'd line by line (what
// a naive loader does), measured in the same run. BENCH_LEDGER_MB sets the size (default 200).
import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const child = process.argv[2];
if (child === 'stream') {
  const { readLedger } = await import('../dist/src/workup/ledger.js');
  const started = performance.now();
  const entries = await readLedger(process.argv[3]);
  const ms = performance.now() - started;
  console.log(JSON.stringify({ ms, entries: entries.length, rss: process.resourceUsage().maxRSS * 1024 }));
} else if (child === 'naive') {
  const { readFileSync } = await import('node:fs');
  const started = performance.now();
  const entries = readFileSync(process.argv[3], 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const ms = performance.now() - started;
  console.log(JSON.stringify({ ms, entries: entries.length, rss: process.resourceUsage().maxRSS * 1024 }));
} else {
  const megabytes = Number(process.env.BENCH_LEDGER_MB ?? 200);
  const dir = await mkdtemp(join(tmpdir(), 'needlework-ledger-bench-'));
  try {
    const file = join(dir, 'provenance.jsonl');
    const out = createWriteStream(file);
    const entities = Array.from({ length: 5000 }, (_, i) => `Entity ${i}`);
    const relations = ['MEMBER_OF', 'CO_LOCATED', 'EMPLOYED_BY', 'MET', 'FUNDED_BY'];
    let written = 0;
    for (let i = 0; written < megabytes * 1024 * 1024; i++) {
      const results = Array.from({ length: 8 }, (_, j) => ({
        subject: entities[(i * 7 + j) % entities.length],
        relation: relations[(i + j) % relations.length],
        object: entities[(i * 13 + j * 3) % entities.length],
        store: 'graph',
      }));
      const line = `${JSON.stringify({ id: `g${i}`, store: 'graph', query: `neighbors("${entities[i % entities.length]}")`, results, ts: '2026-06-02T10:00:00Z' })}\n`;
      written += line.length;
      if (!out.write(line)) await new Promise((resolve) => out.once('drain', resolve));
    }
    await new Promise((resolve) => out.end(resolve));
    const size = (await stat(file)).size;
    const run = (mode) => {
      const result = spawnSync(
        process.execPath,
        ['--max-old-space-size=8192', new URL(import.meta.url).pathname, mode, file],
        { encoding: 'utf8' },
      );
      if (result.status !== 0) return { error: /ERR_\w+|Error: [^\n]+/.exec(result.stderr)?.[0] ?? 'failed' };
      return JSON.parse(result.stdout);
    };
    const streamed = run('stream');
    const naive = run('naive');
    const mb = (b) => `${(b / 1024 / 1024).toFixed(0)} MB`;
    console.log(`provenance.jsonl: ${mb(size)}, ${streamed.entries.toLocaleString()} entries`);
    console.log(
      `  needlework readLedger (stream, validated, strings shared): ${(streamed.ms / 1000).toFixed(2)} s, peak RSS ${mb(streamed.rss)} (${(streamed.rss / size).toFixed(2)}x the file)`,
    );
    console.log(
      `  naive readFile + JSON.parse per line (no validation):     ${(naive.ms / 1000).toFixed(2)} s, peak RSS ${mb(naive.rss)} (${(naive.rss / size).toFixed(2)}x the file)`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
