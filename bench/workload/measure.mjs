// Runs a command and measures what a user waits for and what the machine holds: wall time, and the peak of the summed
// resident memory of the whole process tree (Vitest runs its tests in worker processes), sampled from /proc.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** The process ids below `root`, itself included (Linux /proc). */
function tree(root) {
  const parent = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: the fields after it start at the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parent.set(Number(name), ppid);
    } catch {}
  }
  const ids = [root];
  for (let i = 0; i < ids.length; i++) for (const [pid, ppid] of parent) if (ppid === ids[i]) ids.push(pid);
  return ids;
}

function rssKb(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+)/m);
    return line ? Number(line[1]) : 0;
  } catch {
    return 0;
  }
}

/**
 * Runs `command args` in `cwd` with its output discarded, and resolves to `{ code, wallS, peakMb }`. Exit codes are
 * reported, not thrown: a test run exits 1 when a planted failure fails, as it should.
 */
export function measure(command, args, { cwd, env = process.env } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd, env, stdio: 'ignore' });
    let peak = 0;
    const timer = setInterval(() => {
      const total = tree(child.pid).reduce((sum, pid) => sum + rssKb(pid), 0);
      if (total > peak) peak = total;
    }, 100);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(timer);
      resolve({ code, wallS: (performance.now() - started) / 1000, peakMb: peak / 1024 });
    });
  });
}
