import type { CommandSpec } from '../command.js';

export const initCommand: CommandSpec = {
  usage: 'init [dir]',
  description: 'Add needlework to a project: a needle, a Vitest config, an example test, a CI workflow',
  options: [],
  examples: ['needlework init'],
  async run({ args: [dir], io }) {
    const { runInit } = await import('./init.js');
    return runInit({ dir: (dir as string | undefined) ?? '.' }, io);
  },
};
