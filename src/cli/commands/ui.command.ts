import type { CommandSpec } from '../command.js';
import { single, wholeNumber } from '../options.js';
import { STORE } from '../shared-options.js';

export const uiCommand: CommandSpec = {
  usage: 'ui',
  description: 'Serve the run history to a browser: runs, compare, a case over time, trends, trials, live',
  options: [
    STORE,
    { flags: '--port <n>', description: 'The port (default 4173, or the next free one)' },
    {
      flags: '--host [address]',
      description: 'Listen on this address rather than 127.0.0.1 (alone: every address)',
    },
  ],
  examples: ['needlework ui'],
  async run({ options, io }) {
    const { runUi } = await import('./ui.js');
    const store = single(options, 'store', 'store');
    const port = wholeNumber(options, 'port', 0);
    const host = options['host'] === true ? '0.0.0.0' : single(options, 'host', 'address');
    return runUi(
      {
        ...(store !== undefined && { store }),
        ...(port !== undefined && { port }),
        ...(host !== undefined && { host }),
      },
      io,
    );
  },
};
