#!/usr/bin/env node
import module from 'node:module';
import { closest } from '../errors/closest.js';
import { UsageError, UserError } from '../errors/index.js';
import { terminalSafe } from '../io/terminal.js';
import { createCli } from './cli.js';
import { colors, processIo } from './io.js';
import { explainUnknownOption } from './options.js';

// `needlework ... | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

// Node 22.1+ keeps compiled code between runs (as tsc does): a CLI started again and again should not recompile
// the same modules each time. Node 20 has no such cache; there this does nothing.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const io = processIo();
const c = colors(io);
const result = { code: 0 };
const cli = createCli(io, result);
try {
  cli.parse(process.argv, { run: false });
  if (!cli.matchedCommand && cli.args.length > 0) {
    const near = closest(
      String(cli.args[0]),
      cli.commands.map((command) => command.name),
    );
    throw new UsageError(`unknown command "${cli.args[0]}"${near ? ` (did you mean ${near}?)` : ''}`);
  }
  if (!cli.matchedCommand && !cli.options.help && !cli.options.version) cli.outputHelp();
  else await cli.runMatchedCommand();
  process.exitCode = result.code;
} catch (error) {
  if (error instanceof UserError) {
    // A message may quote a file's or a server's text: escaped, so it cannot drive the terminal.
    io.err(`${c.red('error')} ${terminalSafe(error.message)}`);
    process.exitCode = 1;
  } else if (error instanceof UsageError || (error instanceof Error && error.name === 'CACError')) {
    // One line: what was wrong, and where the usage is.
    const command = cli.matchedCommand?.name;
    const message =
      error instanceof UsageError
        ? error.message
        : explainUnknownOption(error.message, cli.matchedCommand, cli.globalCommand);
    io.err(
      `${c.red('error')} ${terminalSafe(message)}; see "needlework ${command ? `${command} ` : ''}--help"`,
    );
    process.exitCode = 2;
  } else {
    io.err(terminalSafe(error instanceof Error ? (error.stack ?? error.message) : String(error)));
    process.exitCode = 1;
  }
}
