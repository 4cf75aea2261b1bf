// Runs every bench/*.bench.mjs in its own Node process (so each one's peak RSS is its own), one after another,
// against the built dist/. `npm run bench -- trajectory` runs only the benchmarks whose file name contains "trajectory".
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(here)
  .filter((name) => name.endsWith('.bench.mjs'))
  .filter((name) => filters.length === 0 || filters.some((f) => name.includes(f)))
  .sort();
let failed = 0;
for (const file of files) {
  console.log(`\n━━ ${file}`);
  const run = spawnSync(process.execPath, ['--expose-gc', join(here, file)], { stdio: 'inherit' });
  if (run.status !== 0) failed++;
}
if (files.length === 0) console.log('no benchmarks matched');
process.exitCode = failed > 0 ? 1 : 0;
