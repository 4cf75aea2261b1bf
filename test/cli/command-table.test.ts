import { describe, expect, it, vi } from 'vitest';
import { COMMANDS, createCli } from '../../src/cli/cli.js';
import type { OptionSpec } from '../../src/cli/command.js';
import { captureIo } from '../helpers/io.js';

/**
 * Flags whose meaning is their command's own: `--out` a folder for import, a file for trend export and report;
 * `--rubric` the one rubric judge scores, or the rubrics score adds (repeatable).
 */
const OWN_MEANING = new Set(['--out', '--rubric']);

/** The long flag an option declares: `--nli-model, --model <dir>` -> `--nli-model`. */
const longFlag = (option: OptionSpec) => /--[a-z-]+/.exec(option.flags)?.[0] ?? option.flags;

describe('the command table', () => {
  it('declares each flag once: a flag several commands take is one shared declaration', () => {
    const declared = new Map<string, Set<OptionSpec>>();
    for (const command of COMMANDS)
      for (const option of command.options) {
        const flag = longFlag(option);
        if (!declared.has(flag)) declared.set(flag, new Set());
        declared.get(flag)!.add(option);
      }
    const twice = [...declared]
      .filter(([flag, specs]) => specs.size > 1 && !OWN_MEANING.has(flag))
      .map(([f]) => f);
    expect(twice).toEqual([]);
  });

  it('registers every command of the table with its options and examples, in its order', () => {
    const cli = createCli(captureIo());
    expect(cli.commands.map((c) => c.rawName)).toEqual(COMMANDS.map((c) => c.usage));
    const run = cli.commands.find((c) => c.name === 'run')!;
    expect(run.options.map((o) => o.rawName)).toEqual(
      COMMANDS.find((c) => c.usage.startsWith('run '))!.options.map((o) => o.flags),
    );
    expect(run.examples).toContain('needlework run fixtures/workups');
  });

  it('prints no default for a --no- flag, and leaves it absent unless given', async () => {
    const cli = createCli(captureIo());
    const run = cli.commands.find((c) => c.name === 'run')!;
    const flag = run.options.find((o) => o.rawName === '--no-spec-cache')!;
    expect(flag.config.default).toBeUndefined();
    const printed = vi.spyOn(console, 'info').mockImplementation(() => {});
    cli.parse(['node', 'needlework', 'run', '--help'], { run: false });
    cli.outputHelp();
    const help = printed.mock.calls.flat().join('\n');
    printed.mockRestore();
    expect(help).toMatch(/--no-spec-cache +Parse every spec file anew, without the spec cache *\n/);
    expect(help).not.toContain('(default: true)');
    expect(
      cli.parse(['node', 'needlework', 'run', '--no-spec-cache'], { run: false }).options['specCache'],
    ).toBe(false);
    expect(cli.parse(['node', 'needlework', 'run'], { run: false }).options['specCache']).toBeUndefined();
  });
});
