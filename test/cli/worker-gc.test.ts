import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { WORKER_GC_FLAG, workerExecArgv } from '../../src/cli/commands/worker-gc.js';

const run = promisify(execFile);

describe("the test worker's garbage-collection flag", () => {
  it('is passed only to a Node whose V8 lists it', async () => {
    const listing = [
      '  --heap-growing-percent (specifies heap growing factor as (1 + heap_growing_percent/100))',
      '        type: int  default: --heap-growing-percent=0',
    ].join('\n');
    expect(await workerExecArgv(listing)).toEqual(['--heap-growing-percent=100']);
    expect(await workerExecArgv('  --max-old-space-size (max size of the old space (in Mbytes))')).toEqual(
      [],
    );
    // Mentioned in another flag's help is not listed.
    expect(await workerExecArgv('  --other (see --heap-growing-percent)')).toEqual([]);
    expect(await workerExecArgv('')).toEqual([]);
  });

  it('is listed by this Node, which starts a process with it (a misspelt flag would stop every worker)', async () => {
    expect(await workerExecArgv()).toEqual([WORKER_GC_FLAG]);
    const { stdout } = await run(process.execPath, [WORKER_GC_FLAG, '-e', "process.stdout.write('started')"]);
    expect(stdout).toBe('started');
  });
});
