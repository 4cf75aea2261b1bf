import type { CAC } from 'cac';
import type { Io } from './io.js';

/** One option of a command, as cac takes it: its flags (`--out-dir <dir>`, `-t, --test-name-pattern <pattern>`) and help. */
export interface OptionSpec {
  flags: string;
  description: string;
}

/** What a command's action is given: its positional arguments, its options as cac parsed them, the I/O, the raw argv. */
export interface CommandInput {
  args: unknown[];
  options: Record<string, unknown>;
  io: Io;
  rawArgs: readonly string[];
}

/**
 * A command as data: its usage (`run [...workups]`), description, options table, examples, and its action, which
 * lazy-imports the command's implementation (so `--help` stays fast) and returns the exit code.
 */
export interface CommandSpec {
  usage: string;
  description: string;
  options: readonly OptionSpec[];
  examples: readonly string[];
  run(input: CommandInput): Promise<number>;
}

/** Registers every command of the table on `cli`, each recording its exit code in `result.code`. */
export function registerCommands(
  cli: CAC,
  commands: readonly CommandSpec[],
  io: Io,
  result: { code: number },
): void {
  for (const spec of commands) {
    const command = cli.command(spec.usage, spec.description);
    for (const option of spec.options) {
      command.option(option.flags, option.description);
      // cac gives a `--no-x` flag the default `true` and prints `(default: true)` after its description, which reads
      // as if the flag were on by default. Unset, the option is `false` when given and absent otherwise; readers
      // test `!== false`.
      const added = command.options[command.options.length - 1];
      if (added?.negated) added.config.default = undefined;
    }
    for (const example of spec.examples) command.example(example);
    command.action(async (...given: unknown[]) => {
      // cac passes the positional arguments, then the options object.
      const options = given.pop() as Record<string, unknown>;
      result.code = await spec.run({ args: given, options, io, rawArgs: cli.rawArgs });
    });
  }
}
