import { cp, mkdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { createFileExclusive } from '../../io/atomic.js';
import { IGNORED, ignoreStore } from '../init/gitignore.js';
import { EXAMPLE_WORKUP, initFiles, PLUGIN_LINE, type ProjectModules } from '../init/templates.js';
import { colors, type Io } from '../io.js';
import { packageRoot } from '../package-root.js';

export interface InitOptions {
  /** The project folder. @default process.cwd() */
  dir: string;
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** Every name Vitest (or Vite, whose config Vitest reads) looks for, in its order. */
const CONFIG_NAMES = ['vitest', 'vite'].flatMap((base) =>
  ['ts', 'mts', 'cts', 'js', 'mjs', 'cjs'].map((ext) => `${base}.config.${ext}`),
);

/**
 * ES modules when the project's package.json says `"type": "module"`; CommonJS otherwise, as Node and tsc read a
 * `.ts` file there (`npm init -y` writes `"type": "commonjs"`).
 */
export async function projectModules(root: string): Promise<ProjectModules> {
  try {
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { type?: unknown };
    return pkg.type === 'module' ? 'esm' : 'cjs';
  } catch {
    return 'cjs';
  }
}

/**
 * Scaffolds needlework into an existing project: a needle, a Vitest config with the plugin and reporters, an example
 * test, an example workup both pass on (so the first `npx vitest run` is green), a CI workflow, and `.needlework/` (the
 * results store) in `.gitignore`. Never overwrites: a file that exists is left as it is and named, and for an existing Vitest config the lines to add are
 * printed instead.
 */
export async function runInit(options: InitOptions, io: Io): Promise<number> {
  const c = colors(io);
  const root = resolve(options.dir);
  const existingConfig = (
    await Promise.all(CONFIG_NAMES.map(async (f) => ((await exists(join(root, f))) ? f : undefined)))
  ).find(Boolean);
  for (const [path, text] of Object.entries(initFiles(await projectModules(root)))) {
    const target = join(root, path);
    if (path.startsWith('vitest.config.') && existingConfig) {
      io.out(`${c.yellow('kept')}    ${existingConfig} ${c.dim('(add the plugin to it:)')}`);
      io.out(c.dim("          import { needlework } from 'needlework/vitest';"));
      io.out(c.dim(`          ${PLUGIN_LINE}`));
      continue;
    }
    if (await exists(target)) {
      io.out(`${c.yellow('kept')}    ${path} ${c.dim('(exists)')}`);
      continue;
    }
    await mkdir(dirname(target), { recursive: true });
    // Whole or not at all, and never over a file another process made meanwhile.
    if (!(await createFileExclusive(target, text))) {
      io.out(`${c.yellow('kept')}    ${path} ${c.dim('(exists)')}`);
      continue;
    }
    io.out(`${c.green('created')} ${path}`);
  }
  const example = join(root, EXAMPLE_WORKUP.to);
  if (await exists(example)) {
    io.out(`${c.yellow('kept')}    ${EXAMPLE_WORKUP.to}/ ${c.dim('(exists)')}`);
  } else {
    await cp(join(packageRoot(), EXAMPLE_WORKUP.from), example, {
      recursive: true,
      errorOnExist: true,
      force: false,
    });
    io.out(`${c.green('created')} ${EXAMPLE_WORKUP.to}/ ${c.dim('(an example run to read)')}`);
  }
  const ignored = await ignoreStore(root);
  io.out(
    ignored === 'kept'
      ? `${c.yellow('kept')}    .gitignore ${c.dim(`(ignores ${IGNORED} already)`)}`
      : `${c.green(ignored)} .gitignore ${c.dim(`(${IGNORED}: the results store stays local)`)}`,
  );
  io.out(
    `\nNext: ${c.bold('npx vitest run')} checks the example run with the example needle, task cases and test (all should pass).` +
      `\nThen put your agent's runs in workups/ (${c.bold('npx needlework import <log> --out workups/<name>')} reads chat logs and traces)` +
      `\nand write a case for each task in needles/example.cases.yaml (${c.bold('npx needlework validate needles workups')}).`,
  );
  return 0;
}
