import { cac } from 'cac';
import { version } from '../version.js';
import { type CommandSpec, registerCommands } from './command.js';
import { entailCommand } from './commands/entail.command.js';
import { importCommand } from './commands/import.command.js';
import { initCommand } from './commands/init.command.js';
import { judgeCommand } from './commands/judge.command.js';
import { pruneCommand } from './commands/prune.command.js';
import { reportCommand } from './commands/report.command.js';
import { runCommand } from './commands/run.command.js';
import { scoreCommand } from './commands/score.command.js';
import { trendCommand } from './commands/trend.command.js';
import { uiCommand } from './commands/ui.command.js';
import { validateCommand } from './commands/validate.command.js';
import type { Io } from './io.js';

/** The commands, in the order `--help` lists them: each declared as data beside its implementation. */
export const COMMANDS: readonly CommandSpec[] = [
  validateCommand,
  runCommand,
  initCommand,
  importCommand,
  trendCommand,
  reportCommand,
  uiCommand,
  pruneCommand,
  scoreCommand,
  judgeCommand,
  entailCommand,
];

/**
 * Builds the `needlework` command line from the command table. Each command lazy-imports its implementation, so
 * `--help` stays fast, and records its exit code in `result.code` (0 clean, 1 a failed check or bad input, 2 a usage
 * error).
 */
export function createCli(io: Io, result: { code: number } = { code: 0 }) {
  const cli = cac('needlework');
  registerCommands(cli, COMMANDS, io, result);
  cli.help();
  cli.version(version);
  return cli;
}
