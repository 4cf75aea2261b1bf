import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { Reporter, TestModule } from 'vitest/node';
import { startVitest } from 'vitest/node';
import { needlework } from '../../src/vitest/plugin.js';
import { useTmpDir } from '../helpers/tmp.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const tmp = useTmpDir();

// Three watched runs on a shared 2-core machine: generous room, since a missed re-run hangs until the timeout anyway.
it('re-runs a spec when a workup or the spec changes, in watch mode', { timeout: 240_000 }, async () => {
  const dir = await tmp();
  await cp(join(ROOT, 'fixtures/workups/grounded'), join(dir, 'workups/grounded'), { recursive: true });
  await writeFile(
    join(dir, 'bridge.needle.yaml'),
    'id: bridge\nanswer: Compound-Alpha\nrequired_path: [MEMBER_OF, CO_LOCATED, CO_LOCATED]\n',
  );
  const runs: string[][] = [];
  let notify: () => void = () => {};
  const reporter: Reporter = {
    onTestRunEnd(modules: ReadonlyArray<TestModule>) {
      runs.push(
        modules
          .flatMap((m) => [...m.children.allTests()].map((t) => `${t.name}: ${t.result().state}`))
          .sort(),
      );
      notify();
    },
  };
  const nextRun = () => new Promise<void>((resolve) => (notify = resolve));
  const first = nextRun();
  const vitest = await startVitest(
    'test',
    [],
    { root: dir, config: false, watch: true, reporters: [reporter] },
    { plugins: [needlework({ needles: ['*.needle.yaml'], workups: ['workups'], includeTests: false })] },
  );
  try {
    await first;
    expect(runs[0]).toContain('surfaced: passed');

    const second = nextRun();
    const note = join(dir, 'workups/grounded/note.md');
    await writeFile(note, (await readFile(note, 'utf8')).replaceAll('Compound-Alpha', 'the facility'));
    await second;
    expect(runs[1]).toContain('surfaced: failed');

    const third = nextRun();
    await writeFile(
      join(dir, 'bridge.needle.yaml'),
      'id: bridge\nanswer: the facility\nrequired_path: [MEMBER_OF]\n',
    );
    await third;
    expect(runs[2]).toContain('surfaced: passed');
  } finally {
    await vitest.close();
  }
});
