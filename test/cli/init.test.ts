import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInit } from '../../src/cli/commands/init.js';
import { parseSpec } from '../../src/specs/load.js';
import { captureIo } from '../helpers/io.js';
import { useTmpDir } from '../helpers/tmp.js';

const tmp = useTmpDir();

describe('needlework init', () => {
  it('scaffolds a needle that validates, a config with the plugin, a test and a workflow', async () => {
    const dir = await tmp();
    const io = captureIo();
    expect(await runInit({ dir }, io)).toBe(0);
    expect(io.stdout()).toContain('created needles/example.needle.yaml');
    expect(io.stdout()).toContain('created .github/workflows/needlework.yml');
    const needle = await readFile(join(dir, 'needles/example.needle.yaml'), 'utf8');
    expect(parseSpec(needle, 'example.needle.yaml')).toMatchObject({
      id: 'example',
      answer: 'Compound-Alpha',
    });
    expect(await readFile(join(dir, 'vitest.config.ts'), 'utf8')).toContain(
      "import { needlework } from 'needlework/vitest';",
    );
  });

  it('overwrites nothing, and prints what to add to an existing Vitest config', async () => {
    const dir = await tmp();
    await writeFile(join(dir, 'vite.config.ts'), 'export default {};\n');
    await mkdir(join(dir, 'needles'));
    await writeFile(join(dir, 'needles/example.needle.yaml'), 'mine\n');
    const io = captureIo();
    await runInit({ dir }, io);
    expect(io.stdout()).toContain('kept    vite.config.ts (add the plugin to it:)');
    expect(io.stdout()).toContain('kept    needles/example.needle.yaml (exists)');
    expect(await readFile(join(dir, 'needles/example.needle.yaml'), 'utf8')).toBe('mine\n');
    expect(await readFile(join(dir, 'vite.config.ts'), 'utf8')).toBe('export default {};\n');
  });
});
