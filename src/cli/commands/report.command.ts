import type { CommandSpec } from '../command.js';
import { single } from '../options.js';
import { STORE } from '../shared-options.js';

export const reportCommand: CommandSpec = {
  usage: 'report [run]',
  description: 'Write the static HTML report of a stored run (default: the latest) from the results store',
  options: [
    STORE,
    {
      flags: '--out <file>',
      description: 'Where to write the page (default: needlework-report/report.html)',
    },
  ],
  examples: ['needlework report', 'needlework report 20261128T051413Z-08257d5b --out main.html'],
  async run({ args: [run], options, io }) {
    const { runReport } = await import('./report.js');
    const store = single(options, 'store', 'store');
    const out = single(options, 'out', 'file');
    return runReport(
      {
        ...(run !== undefined && { run: String(run) }),
        ...(store !== undefined && { store }),
        ...(out !== undefined && { out }),
      },
      io,
    );
  },
};
