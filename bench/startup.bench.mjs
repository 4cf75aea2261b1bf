// CLI startup: `node -e 0` (the floor: Node itself), `needlework --help` and `needlework validate <one spec>`, run
// side by side, round after round, so a busy machine slows all three alike. Prints each one's median wall time
// and the ratios to the floor. Target (issue 12): validate at most 2x `node -e 0`. BENCH_STARTUP_RUNS sets the
// rounds (default 21).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'dist/src/cli/bin.js');
const spec = join(root, 'needles/compound-alpha.needle.yaml');
const rounds = Number(process.env.BENCH_STARTUP_RUNS ?? 21);

const commands = {
  'node -e 0': ['-e', '0'],
  'needlework --help': [bin, '--help'],
  'needlework validate <spec>': [bin, 'validate', spec],
};

/** Wall milliseconds of one child process, from spawn to exit; throws when it fails. */
function time(args) {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return ms;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const samples = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
for (const args of Object.values(commands)) time(args); // warm the file cache
for (let round = 0; round < rounds; round++) {
  for (const [name, args] of Object.entries(commands)) samples[name].push(time(args));
}

const floor = median(samples['node -e 0']);
console.log(`startup, median of ${rounds} runs each (interleaved)`);
for (const [name, values] of Object.entries(samples)) {
  const ms = median(values);
  console.log(`  ${name.padEnd(28)} ${ms.toFixed(0).padStart(5)} ms  ${(ms / floor).toFixed(2)}x node -e 0`);
}
const ratio = median(samples['needlework validate <spec>']) / floor;
console.log(`target validate <= 2.0x node -e 0: ${ratio <= 2 ? 'met' : 'MISSED'} (${ratio.toFixed(2)}x)`);
