import type { CommandSpec } from '../command.js';
import { single, wholeNumber } from '../options.js';
import {
  ENTAIL,
  entailSettings,
  GATE,
  gateNumbers,
  JUDGE,
  JUDGE_TIMEOUT,
  many,
  NLI_MODEL,
  NO_CACHE,
  SAMPLES,
  STORE,
} from '../shared-options.js';
import { defaultReporters, NEEDLEWORK_REPORTERS } from './run-reporters.js';

export const runCommand: CommandSpec = {
  usage: 'run [...workups]',
  description: 'Run every spec (needles, rubrics, task cases) against the workups it names, as Vitest tests',
  options: [
    { flags: '--needles <glob>', description: 'Spec files, folders or globs (repeatable; default: needles)' },
    {
      flags: '--workups <glob>',
      description: 'Workup folders, files or globs (repeatable; default: the arguments, else workups)',
    },
    {
      flags: '--reporter <name>',
      description: `A Vitest reporter or one of ${NEEDLEWORK_REPORTERS.join(', ')} (repeatable; default: by context, see docs/vitest.md)`,
    },
    {
      flags: '--out-dir <dir>',
      description: 'Where the needlework reporters write (default: needlework-report)',
    },
    { flags: '--watch', description: 'Re-run when a spec or workup changes' },
    { flags: '--ui', description: 'Open the Vitest UI (needs @vitest/ui)' },
    { flags: '--shard <i/n>', description: "Run only this shard of the tests (Vitest's --shard)" },
    { flags: '--bail <n>', description: 'Stop after n failed tests' },
    {
      flags: '-t, --test-name-pattern <pattern>',
      description: "Run only the tests whose full name matches (Vitest's -t)",
    },
    {
      flags: '--merge-reports [dir]',
      description: 'Report the blobs of sharded runs (default folder: .vitest-reports)',
    },
    ENTAIL,
    NLI_MODEL,
    NO_CACHE,
    { flags: '--no-spec-cache', description: 'Parse every spec file anew, without the spec cache' },
    JUDGE,
    SAMPLES,
    JUDGE_TIMEOUT,
    STORE,
    ...GATE,
  ],
  examples: [
    'needlework run fixtures/workups',
    'needlework run runs/ --needles specs/ --reporter default --reporter needlework-junit',
    'needlework run runs/ --entail --nli-model ./nli-model --judge replay:judge.cassette.json',
  ],
  async run({ args: [given], options, io }) {
    const { runRun } = await import('./run.js');
    if (options['ui'] === true) {
      const { requireVitestUi } = await import('./run-reporters.js');
      requireVitestUi('--ui', [process.cwd()]);
    }
    const reporters = many(options['reporter']);
    const bail = wholeNumber(options, 'bail');
    const samples = wholeNumber(options, 'samples');
    const timeoutMs = wholeNumber(options, 'timeout');
    const outDir = single(options, 'outDir', 'folder');
    const shard = single(options, 'shard', '<index>/<count>');
    const testNamePattern = single(options, 'testNamePattern', 'pattern');
    for (const [name, what] of [
      ['model', 'model'],
      ['judge', 'judge'],
      ['baseline', 'store or trend.json'],
    ] as const)
      single(options, name, what);
    const store = single(options, 'store', 'store');
    const workups = [...(given as string[]), ...many(options['workups'])];
    const needles = many(options['needles']);
    const entail = entailSettings(options);
    return runRun(
      {
        needles: needles.length > 0 ? needles : ['needles'],
        workups: workups.length > 0 ? workups : ['workups'],
        reporters: reporters.length > 0 ? reporters : defaultReporters(),
        outDir: outDir ?? 'needlework-report',
        watch: options['watch'] === true,
        ui: options['ui'] === true,
        specCache: options['specCache'] !== false,
        ...(shard !== undefined && { shard }),
        ...(bail !== undefined && { bail }),
        ...(testNamePattern !== undefined && { testNamePattern }),
        ...(options['mergeReports'] !== undefined && {
          mergeReports:
            typeof options['mergeReports'] === 'string' ? options['mergeReports'] : '.vitest-reports',
        }),
        ...(entail && { entail }),
        ...(typeof options['judge'] === 'string' && { judge: options['judge'] }),
        ...(samples !== undefined && { samples }),
        ...(timeoutMs !== undefined && { timeoutMs }),
        ...(typeof options['baseline'] === 'string' && { baseline: options['baseline'] }),
        ...(store !== undefined && { store }),
        failOnRegression: options['failOnRegression'] === true,
        gate: gateNumbers(options),
      },
      io,
    );
  },
};
