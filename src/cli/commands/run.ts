import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { VerifierOptions } from '../../entailment/create.js';
import { UsageError, UserError } from '../../errors/index.js';
import { hasRegressed } from '../../history/compare.js';
import { needlework } from '../../vitest/plugin.js';
import { boundHeapGrowth } from '../heap-growth.js';
import type { Io } from '../io.js';
import { checkReporterNames, reporterFor, reporterNotes } from './run-reporters.js';

export { NEEDLEWORK_REPORTERS } from './run-reporters.js';

export interface RunOptions {
  /** Spec files, folders of specs, or globs. @default ['needles'] */
  needles: string[];
  /** Workup folders, files or globs. @default ['workups'] */
  workups: string[];
  /** Reporter names, Vitest's or needlework's. @default defaultReporters(): by context, the terminal and the history; in CI also JUnit, HTML and the job summary */
  reporters: string[];
  /** Where the needlework reporters write. @default 'needlework-report' */
  outDir: string;
  watch: boolean;
  ui: boolean;
  /**
   * Keep each spec as read for the next run (`--no-spec-cache` turns it off): the plugin's `specCache`.
   * @default true
   */
  specCache?: boolean;
  /** Vitest's `--shard`, `i/n`. */
  shard?: string;
  /** Stop after this many failed tests. */
  bail?: number;
  /** Vitest's `-t`: run only the tests whose full name (`spec > case › workup > assertion`) matches this pattern. */
  testNamePattern?: string;
  /** Report the blobs that sharded runs wrote (`--reporter blob`) in this folder instead of running tests. */
  mergeReports?: string;
  /** Check citation precision with an NLI model (`--entail`, `--nli-model`, `--no-cache`). */
  entail?: VerifierOptions;
  /** A judge for rubric specs: a base URL or `replay:<cassette>`. */
  judge?: string;
  samples?: number;
  /**
   * Time allowed for one judge request (`--timeout`, ms); each rubric test's timeout follows from it and the judge's
   * retries (`judgeTestTimeout`). @default 60000
   */
  timeoutMs?: number;
  /** Fail when a metric regressed against the latest run of this store or trend.json (`--baseline`). */
  baseline?: string;
  /** The results store (`--store`): a folder or a postgres:// URL; else `NEEDLEWORK_STORE`, else `.needlework/store`. */
  store?: string;
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
    return [join(pattern, '**/*.{needle,rubric,cases}.{yaml,yml}')];
  }
  return [pattern];
}

/** Vitest's `--shard <index>/<count>`: both whole numbers, 1 <= index <= count (Vitest throws a stack trace else). */
function checkShard(shard: string): void {
  const match = /^(\d+)\/(\d+)$/.exec(shard);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || index < 1 || count < 1 || index > count) {
    throw new UsageError(`--shard must be <index>/<count> with 1 <= index <= count, like 1/2; got ${shard}`);
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
  if (options.shard !== undefined) checkShard(options.shard);
  if (options.timeoutMs !== undefined && options.judge === undefined) {
    throw new UsageError("--timeout is the judge's time limit per request; it needs --judge");
  }
  await checkReporterNames(options.reporters, root);
  for (const note of reporterNotes(options.reporters)) io.err(note);
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
        message: 'no specs (*.needle.yaml, *.rubric.yaml, *.cases.yaml) found',
      });
    }
  }
  let entail = options.entail;
  if (entail) {
    // Resolved once here, so a Hub model downloads once (with its progress bar) before any worker needs it.
    const { resolveModel, NLI_MODEL_HINT } = await import('../../entailment/resolve.js');
    await (await import('../../entailment/onnx/peers.js')).loadNliPeers(); // fails now, not in every worker
    const model = await resolveModel(entail.model);
    if (model === undefined) throw new UsageError(`--entail needs a model: ${NLI_MODEL_HINT}`);
    entail = { ...entail, model };
  }
  const gateConfig = {
    ...gateOptions,
    ...(options.baseline !== undefined && { baseline: resolve(root, options.baseline) }),
  };
  const reporters = await Promise.all(
    options.reporters.map((name) => reporterFor(name, options.outDir, options.store, gateConfig)),
  );
  const { NeedleworkTrendReporter } = await import('../../../reporters/trend.js');
  const trend = reporters.find(
    (r): r is InstanceType<typeof NeedleworkTrendReporter> => r instanceof NeedleworkTrendReporter,
  );

  const { reportWriteFailures } = await import('../../io/report-file.js');
  const writeFailuresBefore = reportWriteFailures();
  // Heaps are held near their live size while the tests run, and let go whatever way the run ends.
  const freeHeapGrowth = boundHeapGrowth();
  let failed: boolean;
  let vitestErrors = 0;
  let ran: boolean;
  try {
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
        // A worker thread, not a child process: every test's result crosses to the reporters, and a message port costs
        // far less than a child process's serialised pipe (10,000 cases, `--reporter default`: 9.1-9.7 s against
        // 11.0-12.4 s; 1,000 cases: 2.46-2.60 s against 2.60-2.85 s).
        pool: 'threads',
        // Only spec tests run here, and each check carries its place in its spec from load: the line of a generated
        // test in its virtual module tells nobody anything, and finding it costs a stack trace per test and describe.
        includeTaskLocation: false,
        // A check is computed from what was loaded, and ends: no timer per test (a judge's tests get the judge's own
        // time limit, see judgeTestTimeout). Vitest's runner keeps a timeout's closure and the stack trace it made for
        // it with every test it wraps (10,000 cases: 20,000 of each, held in the worker for the run).
        testTimeout: 0,
        ...(options.shard !== undefined && { shard: options.shard }),
        ...(options.bail !== undefined && { bail: options.bail }),
        ...(options.testNamePattern !== undefined && { testNamePattern: options.testNamePattern }),
        ...(options.mergeReports !== undefined && { mergeReports: options.mergeReports }),
      },
      {
        plugins: [
          needlework({
            includeTests: false,
            reuseWorkups: !(options.watch || options.ui),
            specCache: options.specCache !== false,
            needles,
            workups: workupPaths,
            ...(entail && { entail }),
            ...(options.judge !== undefined && {
              judge: {
                spec: options.judge,
                ...(options.samples !== undefined && { samples: options.samples }),
                ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
              },
            }),
          }),
        ],
      },
    );
    if (options.watch || options.ui) {
      await new Promise<void>((done) => vitest.onClose(done));
    }
    vitestErrors = vitest.state.getUnhandledErrors().length;
    failed = vitest.state.getCountOfFailedTests() > 0 || vitestErrors > 0;
    ran = vitest.state.getFiles().length > 0;
    await vitest.close();
  } finally {
    freeHeapGrowth();
  }
  if (!ran) {
    throw new UserError({
      file: options.needles.join(', '),
      message: 'no specs (*.needle.yaml, *.rubric.yaml, *.cases.yaml) found',
    });
  }
  // A report that could not be written (a full disk, a read-only folder) was said in one line; the run still fails.
  const writeFailed = reportWriteFailures() > writeFailuresBefore;
  let code = failed || writeFailed ? 1 : 0;
  // A store that could not be opened or reached was reported in one line by the trend reporter: the run fails.
  if (trend?.failure) code = 1;
  // With the gate on, a run whose only failures were failing in the baseline too passes, and one where something got
  // worse (a regression, or a failure the baseline did not have) fails. The trend reporter printed the comparison.
  if (gate && trend?.gate && !trend.failure && !writeFailed && vitestErrors === 0)
    code = hasRegressed(trend.gate.comparison) || trend.unknownFailures > 0 ? 1 : 0;
  return code;
}
