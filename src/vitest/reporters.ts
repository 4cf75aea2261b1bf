import { join } from 'node:path';
import { defaultRows } from '../../reporters/table.js';
import { inCI } from '../io/ci.js';

/** A Vitest reporter as a config names it: a name, or a name and its options. */
export type ReporterEntry = string | [string, Record<string, unknown>];

export interface NeedleworkReportersOptions {
  /** Where the JUnit file and the HTML report go. @default 'needlework-report' */
  outDir?: string;
  /** The environment whose `CI` variable decides. @default process.env */
  env?: NodeJS.ProcessEnv;
}

/**
 * The reporters of a Vitest config, by context, as `needlework run` picks them without `--reporter`: on a
 * developer's machine Vitest's terminal reporter and the trend reporter (the run appended to the results store, and its
 * comparison with the baseline printed); in CI (the `CI` variable) also the JUnit file, the HTML report and the GitHub
 * job summary. `npx needlework report` writes the HTML report of any stored run.
 *
 * @example
 * import { needlework, needleworkReporters } from 'needlework/vitest';
 * import { defineConfig } from 'vitest/config';
 *
 * export default defineConfig({
 *   plugins: [needlework({ needles: ['needles/**\/*.needle.yaml'], workups: ['workups'] })],
 *   test: { reporters: needleworkReporters() },
 * });
 */
export function needleworkReporters(options: NeedleworkReportersOptions = {}): ReporterEntry[] {
  const outDir = options.outDir ?? 'needlework-report';
  return [
    'default',
    ...defaultRows(inCI(options.env)).map((row): ReporterEntry => {
      const module = `needlework/reporters/${row.module}`;
      // The trend reporter's file is the trend.json it imports once into a new store: its own default is that.
      return row.file !== undefined && row.module !== 'trend'
        ? [module, { outputFile: join(outDir, row.file) }]
        : module;
    }),
  ];
}
