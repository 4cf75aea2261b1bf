import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInit } from '../../src/cli/commands/init.js';
import { runScore } from '../../src/cli/commands/score.js';
import { parseSpec } from '../../src/specs/load.js';
import { captureIo } from '../helpers/io.js';
import { useTmpDir } from '../helpers/tmp.js';

const tmp = useTmpDir();

/** A project folder whose package.json has this `type` (none at all when undefined). */
async function project(type?: 'module' | 'commonjs'): Promise<string> {
  const dir = await tmp();
  if (type) await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'p', type }));
  return dir;
}

describe('needlework init', () => {
  it('scaffolds a needle that validates, a config with the plugin, a test, an example run and a workflow', async () => {
    const dir = await project('module');
    const io = captureIo();
    expect(await runInit({ dir }, io)).toBe(0);
    expect(io.stdout()).toContain('created needles/example.needle.yaml');
    expect(io.stdout()).toContain('created needles/example.cases.yaml');
    expect(io.stdout()).toContain('created test/agent.test.ts');
    expect(io.stdout()).toContain('created workups/example-grounded/');
    expect(io.stdout()).toContain('created .github/workflows/needlework.yml');
    const needle = await readFile(join(dir, 'needles/example.needle.yaml'), 'utf8');
    expect(parseSpec(needle, 'example.needle.yaml')).toMatchObject({
      id: 'example',
      answer: 'Compound-Alpha',
      workups: ['example-*'],
    });
    const config = await readFile(join(dir, 'vitest.config.ts'), 'utf8');
    expect(config).toContain("import { needlework, needleworkReporters } from 'needlework/vitest';");
    expect(config).toContain('    reporters: needleworkReporters(),');
    expect((await readdir(join(dir, 'workups/example-grounded'))).sort()).toEqual([
      'gold.trajectory.json',
      'meta.json',
      'note.md',
      'provenance.jsonl',
      'trajectory.json',
    ]);
  });

  it('adds .needlework/ to .gitignore: creates it, or appends to it keeping every line, once', async () => {
    const fresh = await project('module');
    const first = captureIo();
    await runInit({ dir: fresh }, first);
    expect(first.stdout()).toContain('created .gitignore (.needlework/: the results store stays local)');
    expect(await readFile(join(fresh, '.gitignore'), 'utf8')).toBe(
      "# needlework's results store (needlework init)\n.needlework/\n",
    );

    const mine = await project('module');
    await writeFile(join(mine, '.gitignore'), 'node_modules\n# build\ndist'); // no newline at the end
    const io = captureIo();
    await runInit({ dir: mine }, io);
    expect(io.stdout()).toContain('updated .gitignore');
    const after =
      "node_modules\n# build\ndist\n# needlework's results store (needlework init)\n.needlework/\n";
    expect(await readFile(join(mine, '.gitignore'), 'utf8')).toBe(after);
    const again = captureIo();
    await runInit({ dir: mine }, again);
    expect(again.stdout()).toContain('kept    .gitignore (ignores .needlework/ already)');
    expect(await readFile(join(mine, '.gitignore'), 'utf8')).toBe(after);

    // However the user wrote it.
    const theirs = await project('module');
    await writeFile(join(theirs, '.gitignore'), '/.needlework\n');
    await runInit({ dir: theirs }, captureIo());
    expect(await readFile(join(theirs, '.gitignore'), 'utf8')).toBe('/.needlework\n');
  });

  it('writes a needle the example run passes, every criterion (the first run starts green)', async () => {
    const dir = await project('module');
    await runInit({ dir }, captureIo());
    const io = captureIo();
    const code = await runScore(
      {
        workup: join(dir, 'workups/example-grounded'),
        needles: [join(dir, 'needles/example.needle.yaml')],
        json: false,
      },
      io,
    );
    expect(io.stdout()).toMatch(/pass +supporting facts +1 +>= 0.8 +F1 1 /);
    expect(io.stdout()).not.toMatch(/^ *fail /m);
    expect(code).toBe(0);
  });

  it('points each YAML file it writes at a JSON schema, the needle at the one shipped in the package', async () => {
    const dir = await project('module');
    await runInit({ dir }, captureIo());
    expect((await readFile(join(dir, 'needles/example.needle.yaml'), 'utf8')).split('\n')[0]).toBe(
      '# yaml-language-server: $schema=../node_modules/needlework/dist/src/schemas/needle.schema.json',
    );
    expect((await readFile(join(dir, '.github/workflows/needlework.yml'), 'utf8')).split('\n')[0]).toBe(
      '# yaml-language-server: $schema=https://json.schemastore.org/github-workflow.json',
    );
  });

  it.each([
    ['"type": "commonjs"', 'commonjs' as const],
    ['no package.json', undefined],
  ])(
    'names the TypeScript files .mts in a CommonJS project (%s), so they stay ES modules',
    async (_, type) => {
      const dir = await project(type);
      const io = captureIo();
      await runInit({ dir }, io);
      expect(io.stdout()).toContain('created vitest.config.mts');
      expect(io.stdout()).toContain('created test/agent.test.mts');
      expect(io.stdout()).not.toContain('agent.test.ts');
    },
  );

  it('overwrites nothing, and prints what to add to an existing Vitest config', async () => {
    const dir = await project('module');
    await writeFile(join(dir, 'vite.config.ts'), 'export default {};\n');
    await mkdir(join(dir, 'needles'));
    await writeFile(join(dir, 'needles/example.needle.yaml'), 'mine\n');
    await mkdir(join(dir, 'workups/example-grounded'), { recursive: true });
    await writeFile(join(dir, 'workups/example-grounded/note.md'), 'my note\n');
    const io = captureIo();
    await runInit({ dir }, io);
    expect(io.stdout()).toContain('kept    vite.config.ts (add the plugin to it:)');
    // The lines to add name every kind of spec file, task cases included, as the config init writes does.
    expect(io.stdout()).toContain(
      "plugins: [needlework({ needles: ['needles/**/*.needle.yaml', 'needles/**/*.rubric.yaml', 'needles/**/*.cases.yaml'], workups: ['workups'] })],",
    );
    expect(io.stdout()).toContain('kept    needles/example.needle.yaml (exists)');
    expect(io.stdout()).toContain('kept    workups/example-grounded/ (exists)');
    expect(await readFile(join(dir, 'needles/example.needle.yaml'), 'utf8')).toBe('mine\n');
    expect(await readFile(join(dir, 'vite.config.ts'), 'utf8')).toBe('export default {};\n');
    expect(await readdir(join(dir, 'workups/example-grounded'))).toEqual(['note.md']);
  });
});
