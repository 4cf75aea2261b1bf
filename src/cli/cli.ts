import { createRequire } from 'node:module';
import { cac } from 'cac';
import type { Io } from './io.js';

const { version } = createRequire(import.meta.url)('../../../package.json') as { version: string };

/**
 * Builds the `needlework` command line. Each command lazy-imports its implementation, so `--help` stays fast, and
 * records its exit code in `result.code` (0 clean, 1 a failed check or bad input, 2 a usage error).
 */
export function createCli(io: Io, result: { code: number } = { code: 0 }) {
  const cli = cac('needlework');

  cli
    .command('validate [...paths]', 'Check needle and rubric specs (and workups) against their schemas')
    .example('needlework validate needles/')
    .example('needlework validate needles fixtures/workups')
    .action(async (paths: string[]) => {
      const { runValidate } = await import('./commands/validate.js');
      result.code = await runValidate({ paths: paths.length > 0 ? paths : ['needles'] }, io);
    });

  cli.help();
  cli.version(version);
  return cli;
}
