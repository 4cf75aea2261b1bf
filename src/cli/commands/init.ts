import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { INIT_FILES } from '../init/templates.js';
import { colors, type Io } from '../io.js';

export interface InitOptions {
  /** The project folder. @default process.cwd() */
  dir: string;
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/**
 * Scaffolds needlework into an existing project: a needle, a Vitest config with the plugin and reporters, an example
 * test, a workups folder and a CI workflow. Never overwrites: a file that exists is left as it is and named, and for
 * an existing Vitest config the lines to add are printed instead.
 */
export async function runInit(options: InitOptions, io: Io): Promise<number> {
  const c = colors(io);
  const root = resolve(options.dir);
  const configs = [
    'vitest.config.ts',
    'vitest.config.mts',
    'vitest.config.js',
    'vitest.config.mjs',
    'vite.config.ts',
    'vite.config.js',
  ];
  const existingConfig = (
    await Promise.all(configs.map(async (f) => ((await exists(join(root, f))) ? f : undefined)))
  ).find(Boolean);
  for (const [path, text] of Object.entries(INIT_FILES)) {
    const target = join(root, path);
    if (path === 'vitest.config.ts' && existingConfig) {
      io.out(`${c.yellow('kept')}    ${existingConfig} ${c.dim('(add the plugin to it:)')}`);
      io.out(c.dim("          import { needlework } from 'needlework/vitest';"));
      io.out(
        c.dim(
          "          plugins: [needlework({ needles: ['needles/**/*.needle.yaml'], workups: ['workups'] })],",
        ),
      );
      continue;
    }
    if (await exists(target)) {
      io.out(`${c.yellow('kept')}    ${path} ${c.dim('(exists)')}`);
      continue;
    }
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, text, { flag: 'wx' });
    io.out(`${c.green('created')} ${path}`);
  }
  io.out(
    `\nNext: put agent runs in workups/, then ${c.bold('npx vitest run')} (or ${c.bold('npx needlework run')}).`,
  );
  return 0;
}
