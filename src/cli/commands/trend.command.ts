import { UsageError } from '../../errors/index.js';
import type { CommandSpec } from '../command.js';
import { single, wholeNumber } from '../options.js';
import { GATE, gateNumbers, STORE } from '../shared-options.js';

export const trendCommand: CommandSpec = {
  usage: 'trend [...source]',
  description:
    'Show the last runs of the results store (or a trend.json), with deltas and sparklines, and the latest run against its baseline; `trend export`, `trend import <file>`',
  options: [
    STORE,
    { flags: '--last <n>', description: 'How many recent runs to show (default 10)' },
    ...GATE,
    { flags: '--out <file>', description: 'trend export: the file to write (default: standard output)' },
  ],
  examples: [
    'needlework trend',
    'needlework trend --store postgres://ci@db/needlework --fail-on-regression',
    'needlework trend export --out trend.json',
    'needlework trend import trend.json',
  ],
  async run({ args: [given], options, io }) {
    const source = given as string[];
    const store = single(options, 'store', 'store');
    const [first, ...rest] = source;
    if (first === 'export' || first === 'import') {
      const transfer = await import('./trend-transfer.js');
      const base = store !== undefined ? { store } : {};
      if (first === 'export') {
        if (rest.length > 0) throw new UsageError('trend export takes no file argument; use --out <file>');
        const out = single(options, 'out', 'file');
        return transfer.runTrendExport({ ...base, ...(out !== undefined && { out }) }, io);
      }
      if (rest.length !== 1) throw new UsageError('trend import takes one trend.json file');
      return transfer.runTrendImport({ ...base, file: rest[0]! }, io);
    }
    if (source.length > 1) throw new UsageError('trend takes one store or trend.json');
    const { runTrend } = await import('./trend.js');
    const last = wholeNumber(options, 'last', 0);
    const baseline = single(options, 'baseline', 'store or trend.json');
    return runTrend(
      {
        ...(first !== undefined ? { file: first } : {}),
        ...(store !== undefined ? { store } : {}),
        ...(last !== undefined ? { last } : {}),
        ...(baseline !== undefined ? { baseline } : {}),
        failOnRegression: options['failOnRegression'] === true,
        ...gateNumbers(options),
      },
      io,
    );
  },
};
