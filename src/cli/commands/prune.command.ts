import type { CommandSpec } from '../command.js';
import { single, wholeNumber } from '../options.js';
import { STORE } from '../shared-options.js';

export const pruneCommand: CommandSpec = {
  usage: 'prune',
  description: 'Drop old runs from the results store (it keeps every run unless told)',
  options: [
    STORE,
    { flags: '--keep-last <n>', description: 'Keep only the most recent n runs' },
    { flags: '--older-than <age>', description: 'Drop runs that ended longer ago than this: 90d, 12h, 4w' },
  ],
  examples: ['needlework prune --keep-last 500', 'needlework prune --older-than 90d'],
  async run({ options, io }) {
    const { runPrune } = await import('./prune.js');
    const store = single(options, 'store', 'store');
    const olderThan = single(options, 'olderThan', 'age');
    const keepLast = wholeNumber(options, 'keepLast');
    return runPrune(
      {
        ...(store !== undefined && { store }),
        ...(keepLast !== undefined && { keepLast }),
        ...(olderThan !== undefined && { olderThan }),
      },
      io,
    );
  },
};
