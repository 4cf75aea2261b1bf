import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const EXAMPLES = join(ROOT, 'examples');

it('the example project passes its tests with the plugin, the matchers and the reporters', async () => {
  // What `npm install` does for its `"needlework": "file:.."` dependency: a link to this package.
  const link = join(EXAMPLES, 'node_modules/needlework');
  if (!existsSync(link)) {
    await mkdir(join(EXAMPLES, 'node_modules'), { recursive: true });
    await symlink('../..', link);
  }
  await rm(join(EXAMPLES, 'reports'), { recursive: true, force: true });
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run'],
    {
      cwd: EXAMPLES,
      env: { ...process.env, NO_COLOR: '1' },
    },
  );
  expect(stdout).toMatch(/Tests {2}14 passed \| 1 skipped \(15\)/);
  for (const report of ['junit.xml', 'report.html'])
    expect(existsSync(join(EXAMPLES, 'reports', report))).toBe(true);
  // The trend reporter appended the run to the embedded results store, where the HTML report charts it from.
  expect(stdout).toMatch(/trend run \S+ appended to the results store \S*\.needlework\/store \(\d+ runs?\)/);
  expect(existsSync(join(EXAMPLES, '.needlework/store/PG_VERSION'))).toBe(true);
  // A live agent's run reaches the reports as a loaded workup does: by the folder runAgent saved it to.
  expect(await readFile(join(EXAMPLES, 'reports', 'junit.xml'), 'utf8')).toContain(
    `value="${join(EXAMPLES, '.needlework/workups/test/live-agent/finds-the-link')}"`,
  );
});
