import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Reporter } from 'vitest/node';
import type { VerifierOptions } from '../../entailment/create.js';
import { UsageError, UserError } from '../../errors/index.js';
import { needlework } from '../../vitest/plugin.js';
import type { Io } from '../io.js';

/** The reporters `--reporter` knows besides Vitest's own (`default`, `verbose`, `dot`, `json`, `junit`, `blob`, ...). */
export const NEEDLEWORK_REPORTERS = ['needlework-junit', 'needlework-html', 'needlework-trend'] as const;

export interface RunOptions {
  /** Spec files, folders of specs, or globs. @default ['needles'] */
  needles: string[];
  /** Workup folders, files or globs. @default ['workups'] */
  workups: string[];
  /** Reporter names, Vitest's or needlework's. @default ['default', ...NEEDLEWORK_REPORTERS] */
  reporters: string[];
  /** Where the needlework reporters write. @default 'needlework-report' */
  outDir: string;
  watch: boolean;
  ui: boolean;
  /** Vitest's `--shard`, `i/n`. */
  shard?: string;
  /** Stop after this many failed tests. */
  bail?: number;
  /** Report the blobs that sharded runs wrote (`--reporter blob`) in this folder instead of running tests. */
  mergeReports?: string;
  /** Check citation precision with an NLI model (`--entail`, `--model`, `--no-cache`). */
  entail?: VerifierOptions;
  /** A judge for rubric specs: a base URL or `replay:<cassette>`. */
  judge?: string;
  samples?: number;
  /** Fail when a metric regressed against this history's latest run (`--baseline`). */
  baseline?: string;
  /** Fail when a metric regressed against the previous run of the trend history. */
  failOnRegression: boolean;
  /** The gate: significance at `--level` (default 0.05), or a fixed `--tolerance` / `--relative-tolerance`. */
  gate?: import('./trend.js').GateFlags;
  /** The project folder. @default process.cwd() */
  root?: string;
}

/** A folder of specs becomes the globs of its spec files; a file or glob stays as written. */
function specGlobs(root: string, pattern: string): string[] {
  const path = resolve(root, pattern);
  if (existsSync(path) && statSync(path).isDirectory()) {
    return [join(pattern, '**/*.needle.{yaml,yml}'), join(pattern, '**/*.rubric.{yaml,yml}')];
  }
  return [pattern];
}

async function reporterFor(name: string, outDir: string): Promise<Reporter | string> {
  switch (name) {
    case 'needlework-junit': {
      const { NeedleworkJUnitReporter } = await import('../../../reporters/junit.js');
      return new NeedleworkJUnitReporter({ outputFile: join(outDir, 'junit.xml') });
    }
    case 'needlework-html': {
      const { NeedleworkHtmlReporter } = await import('../../../reporters/html.js');
      return new NeedleworkHtmlReporter({
        outputFile: join(outDir, 'report.html'),
        trendFile: join(outDir, 'trend.json'),
      });
    }
    case 'needlework-trend': {
      const { NeedleworkTrendReporter } = await import('../../../reporters/trend.js');
      return new NeedleworkTrendReporter({ outputFile: join(outDir, 'trend.json') });
    }
    default:
      return name;
  }
}

/**
 * Runs every spec against every workup as real Vitest tests, through Vitest's Node API with the needlework plugin,
 * in a folder that needs no Vitest config of its own. Returns 0 when every test passed (and nothing regressed), 1
 * otherwise. In watch or UI mode it returns when Vitest closes.
 */
export async function runRun(options: RunOptions, io: Io): Promise<number> {
  const root = resolve(options.root ?? process.cwd());
  const needles = options.needles.flatMap((n) => specGlobs(root, n));
  const workupPaths = options.workups.map((w) => resolve(root, w));
  if (options.shard !== undefined && !/^\d+\/\d+$/.test(options.shard)) {
    throw new UsageError(`--shard must be <index>/<count>, like 1/2; got ${options.shard}`);
  }
  const gate = options.baseline !== undefined || options.failOnRegression;
  if (gate && !options.reporters.includes('needlework-trend')) {
    throw new UsageError('--baseline and --fail-on-regression need the needlework-trend reporter');
  }
  // Checked before Vitest starts: a malformed gate flag must not cost a run.
  const gateOptions = (await import('./trend.js')).gateSettings(options.gate ?? {});
  if (options.mergeReports === undefined) {
    // Checked before Vitest starts, so that reporters never record an empty run.
    const { glob } = await import('tinyglobby');
    if ((await glob(needles, { cwd: root, ignore: ['**/node_modules/**'] })).length === 0) {
      throw new UserError({
        file: options.needles.join(', '),
        message: 'no specs (*.needle.yaml, *.rubric.yaml) found',
      });
    }
  }
  let entail = options.entail;
  if (entail) {
    // Resolved once here, so a Hub model downloads once (with its progress bar) before any worker needs it.
    const { resolveModel, MODEL_ENV } = await import('../../entailment/resolve.js');
    const model = await resolveModel(entail.model);
    if (model === undefined) {
      throw new UsageError(`--entail needs a model: give --model <dir|hf:owner/name> or set ${MODEL_ENV}`);
    }
    entail = { ...entail, model };
  }
  const reporters = await Promise.all(options.reporters.map((name) => reporterFor(name, options.outDir)));

  const { startVitest } = await import('vitest/node');
  const vitest = await startVitest(
    'test',
    [],
    {
      root,
      config: false,
      watch: options.watch,
      ui: options.ui,
      open: options.ui,
      reporters,
      // Vitest's own file reporters write beside needlework's.
      outputFile: {
        json: join(options.outDir, 'results.json'),
        junit: join(options.outDir, 'vitest-junit.xml'),
        html: join(options.outDir, 'vitest', 'index.html'),
      },
      passWithNoTests: false,
      // Spec modules share nothing mutable, so one worker may run several and read the workups once.
      isolate: options.watch || options.ui,
      ...(options.shard !== undefined && { shard: options.shard }),
      ...(options.bail !== undefined && { bail: options.bail }),
      ...(options.mergeReports !== undefined && { mergeReports: options.mergeReports }),
    },
    {
      plugins: [
        needlework({
          includeTests: false,
          reuseWorkups: !(options.watch || options.ui),
          needles,
          workups: workupPaths,
          ...(entail && { entail }),
          ...(options.judge !== undefined && {
            judge: {
              spec: options.judge,
              ...(options.samples !== undefined && { samples: options.samples }),
            },
          }),
        }),
      ],
    },
  );
  if (options.watch || options.ui) {
    await new Promise<void>((done) => vitest.onClose(done));
  }
  const failed = vitest.state.getCountOfFailedTests() > 0 || vitest.state.getUnhandledErrors().length > 0;
  const ran = vitest.state.getFiles().length > 0;
  await vitest.close();
  if (!ran) {
    throw new UserError({
      file: options.needles.join(', '),
      message: 'no specs (*.needle.yaml, *.rubric.yaml) found',
    });
  }
  let code = failed ? 1 : 0;
  if (gate) {
    const { runRegressionGate } = await import('./trend.js');
    const gated = await runRegressionGate(
      {
        ...gateOptions,
        history: resolve(root, options.outDir, 'trend.json'),
        ...(options.baseline !== undefined && { baseline: resolve(root, options.baseline) }),
        // --baseline alone gates too: naming a baseline is asking to be held to it.
        failOnRegression: true,
      },
      io,
    );
    code = Math.max(code, gated);
  }
  return code;
}
