import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A new user's first hour, for real: the packed tarball installed from the npm registry into a fresh project with no
// .npmrc, `needlework init`, then `npx vitest run` and tsc, in a CommonJS project (what `npm init -y` makes) and
// then in an ES module one. It needs the network to reach the registry, and takes minutes: set
// NEEDLEWORK_SKIP_INSTALL_TEST=1 to skip it on a machine without either. It packs dist/ as built (`npm run build`
// first; `npm test` does).
const ROOT = new URL('../../', import.meta.url).pathname;
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const MINUTES = 60_000;

/** The environment a user's shell would have: none of the npm, Vitest or test settings this process runs under. */
const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) => !/^(npm_|NPM_|VITEST|NODE_OPTIONS$|NODE_ENV$|TEST$|FORCE_COLOR$)/.test(key),
  ),
);

interface Ran {
  code: number;
  output: string;
}

/** Runs a command in the project; `output` is stdout and stderr together. */
async function sh(cwd: string, file: string, ...args: string[]): Promise<Ran> {
  try {
    const { stdout, stderr } = await promisify(execFile)(file, args, {
      cwd,
      // As CI runs it: the generated config writes the JUnit file and the HTML report only there.
      env: { ...env, NO_COLOR: '1', CI: 'true' },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code: number | string; stdout?: string; stderr?: string; message: string };
    return {
      code: typeof e.code === 'number' ? e.code : 1,
      output: `${e.stdout ?? ''}${e.stderr ?? e.message}`,
    };
  }
}

/** Bytes of every file under a folder (apparent size, symlinks not followed). */
async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await sizeOf(path);
    else if (entry.isFile()) total += (await stat(path)).size;
  }
  return total;
}

/** A matcher test written by hand, as a user would after reading the README. */
const HAND_WRITTEN = `import { loadSpec, loadWorkup, type NeedleSpec } from 'needlework';
import { expect, it } from 'vitest';

it('the example run walks the bridge and cites every hop', async () => {
  const run = await loadWorkup('workups/example-grounded');
  const needle = (await loadSpec('needles/example.needle.yaml')) as NeedleSpec;
  expect(run).toTraverse(['MEMBER_OF', 'CO_LOCATED', 'CO_LOCATED']);
  expect(run).toBeGrounded(needle);
  expect(run).toCite({ subject: 'Wren', relation: 'CO_LOCATED', object: 'Compound-Alpha' });
});
`;

/** What init writes, removed so the next project kind starts from nothing. */
const INIT_OUTPUT = ['needles', 'test', 'workups', '.github', 'vitest.config.ts', 'vitest.config.mts'];

describe.skipIf(process.env.NEEDLEWORK_SKIP_INSTALL_TEST === '1')(
  'the packed package in a fresh project',
  () => {
    let dir: string;
    let install: Ran;
    let seconds: number;

    beforeAll(async () => {
      expect(existsSync(join(ROOT, 'dist/src/index.js')), 'run `npm run build` first').toBe(true);
      dir = await mkdtemp(join(tmpdir(), 'needlework-install-'));
      const packed = await sh(ROOT, 'npm', 'pack', '--ignore-scripts', '--silent', '--pack-destination', dir);
      expect(packed.code, packed.output).toBe(0);
      const tarball = join(dir, packed.output.trim().split('\n').pop()!);
      const project = join(dir, 'project');
      await mkdir(project);
      expect((await sh(project, 'npm', 'init', '-y')).code).toBe(0);
      const started = performance.now();
      install = await sh(project, 'npm', 'install', '--no-audit', '--no-fund', 'vitest', tarball);
      seconds = (performance.now() - started) / 1000;
      dir = project;
    }, 10 * MINUTES);

    afterAll(async () => {
      if (dir) await rm(join(dir, '..'), { recursive: true, force: true });
    });

    it('installs from the registry alone, without the ONNX runtime', async () => {
      expect(install.code, install.output).toBe(0);
      expect(existsSync(join(dir, 'node_modules/onnxruntime-node'))).toBe(false);
      expect(existsSync(join(dir, 'node_modules/@huggingface/tokenizers'))).toBe(false);
      const megabytes = (await sizeOf(join(dir, 'node_modules'))) / 1e6;
      console.log(
        `npm install vitest needlework: ${megabytes.toFixed(1)} MB in node_modules, ${seconds.toFixed(1)} s`,
      );
      // 51 MB before the results store; its embedded engine, PGlite (PostgreSQL in WebAssembly: pglite.wasm 9 MB, its
      // file system image 6 MB, the contrib extensions), adds 27 MB. Still no binary download and no compile step.
      expect(megabytes).toBeLessThan(90);
    });

    it('ships no source maps, the schema the YAML files point at, and the docs the README links to', async () => {
      expect(existsSync(join(dir, 'node_modules/needlework/dist/src/index.js.map'))).toBe(false);
      expect(existsSync(join(dir, 'node_modules/needlework/dist/src/schemas/needle.schema.json'))).toBe(true);
      const readme = await readFile(join(dir, 'node_modules/needlework/README.md'), 'utf8');
      const docs = [...new Set([...readme.matchAll(/\]\((docs\/[^)#\s]+)/g)].map((m) => m[1]!))];
      expect(docs.length).toBeGreaterThan(10);
      expect(docs.filter((doc) => !existsSync(join(dir, 'node_modules/needlework', doc)))).toEqual([]);
      const pkg = JSON.parse(await readFile(join(dir, 'node_modules/needlework/package.json'), 'utf8'));
      expect(pkg.repository.url).toBe('git+https://github.com/needlework-dev/needlework.git');
    });

    it('`needlework entail` says which packages to install, in one line', async () => {
      // The bin itself, not npx: npx adds its own warnings about the machine's npm config.
      const ran = await sh(
        dir,
        join(dir, 'node_modules/.bin/needlework'),
        'entail',
        'a',
        'b',
        '--nli-model',
        'nli',
      );
      expect(ran.output).toBe(
        'error package.json: entailment needs the optional packages onnxruntime-node and @huggingface/tokenizers: npm install -D onnxruntime-node @huggingface/tokenizers\n',
      );
      expect(ran.code).toBe(1);
    });

    it.each([
      ['CommonJS', 'commonjs', 'mts'],
      ['ES module', 'module', 'ts'],
    ])('in a %s project: init, then tsc and the first `npx vitest run` are green', async (_, type, ts) => {
      for (const path of INIT_OUTPUT) await rm(join(dir, path), { recursive: true, force: true });
      const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { type?: string };
      await writeFile(join(dir, 'package.json'), JSON.stringify({ ...pkg, type }, null, 2));

      const init = await sh(dir, 'npx', '--no', 'needlework', 'init');
      expect(init.code, init.output).toBe(0);
      expect(init.output).toContain(`created test/agent.test.${ts}`);
      expect(init.output).toContain('created workups/example-grounded/');
      await writeFile(join(dir, `test/hand-written.test.${ts}`), HAND_WRITTEN);

      if (!existsSync(join(dir, 'tsconfig.json'))) {
        expect((await sh(dir, process.execPath, TSC, '--init')).code).toBe(0);
      }
      const tsc = await sh(dir, process.execPath, TSC, '--noEmit', '-p', '.');
      expect(tsc.output).toBe('');

      const vitest = await sh(dir, 'npx', '--no', 'vitest', 'run');
      expect(vitest.code, vitest.output).toBe(0);
      // The needle's criteria, the generated test's two and the hand-written one all ran on the example run.
      expect(vitest.output).toMatch(/Tests\s+\d+ passed/);
      expect(vitest.output).toContain('example.needle.yaml');
      expect(vitest.output).toContain(`agent.test.${ts}`);
      expect(vitest.output).toContain(`hand-written.test.${ts}`);
      expect(vitest.output).not.toMatch(/sourcemap|source map/i);
      expect(existsSync(join(dir, 'needlework-report/junit.xml'))).toBe(true);
    });
  },
);
