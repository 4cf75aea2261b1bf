import { resolve } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { reportWriteFailure } from '../src/io/report-file.js';
import { collectChecks } from '../src/report/collect.js';
import { displayPath } from '../src/report/display-path.js';
import { buildTrendRun } from '../src/report/trend/entry.js';
import { appendRun, DEFAULT_MAX_RUNS, DEFAULT_TREND_FILE } from '../src/report/trend/history.js';
import { trackTrendWrite } from '../src/report/trend/pending.js';
import { detectRevision } from '../src/report/trend/revision.js';
import { describeScope, detectScope, type ScopeSource } from '../src/report/trend/scope.js';

export interface NeedleworkTrendOptions {
  /**
   * The history file, relative to the project root. `needlework run` and `needlework trend` use the same default.
   * @default 'needlework-report/trend.json'
   */
  outputFile?: string;
  /**
   * What to do with a partial run (file filters, a `-t` filter, watch mode, the UI): `skip` leaves it out of the
   * history, so a later full run is never compared with a subset; `record` appends it with its scope, and the gate
   * then compares it only with partial runs of the same filters.
   * @default 'skip'
   */
  partialRuns?: 'skip' | 'record';
  /**
   * How many runs the history keeps; older ones are dropped.
   * @default 50
   */
  maxRuns?: number;
  /**
   * How long to wait (ms) for another run's lock on the history before failing.
   * @default 30000
   */
  lockTimeoutMs?: number;
}

/**
 * Appends each full run to a trend history: every spec x workup x criterion value and verdict, the trials and passes
 * per task, the commit and branch, the run's scope and a summary. Partial runs are left out unless `partialRuns` is
 * `record`. Concurrent runs are serialised by a lock and the file is replaced atomically. A shard of a sharded run
 * writes nothing: the run is recorded once, complete, by `vitest --merge-reports` with this reporter.
 */
export class NeedleworkTrendReporter implements Reporter {
  private readonly options: Required<NeedleworkTrendOptions>;
  private vitest: Vitest | undefined;

  constructor(options: NeedleworkTrendOptions = {}) {
    this.options = {
      outputFile: options.outputFile ?? DEFAULT_TREND_FILE,
      partialRuns: options.partialRuns ?? 'skip',
      maxRuns: options.maxRuns ?? DEFAULT_MAX_RUNS,
      lockTimeoutMs: options.lockTimeoutMs ?? 30_000,
    };
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    const root = this.vitest?.config.root ?? process.cwd();
    return trackTrendWrite(resolve(root, this.options.outputFile), this.write(testModules, root));
  }

  private async write(testModules: ReadonlyArray<TestModule>, root: string): Promise<void> {
    const shard = this.vitest?.config.shard;
    if (shard && !this.vitest?.config.mergeReports) {
      process.stdout.write(
        `needlework: shard ${shard.index}/${shard.count} leaves the trend to \`vitest --merge-reports\`\n`,
      );
      return;
    }
    const path = resolve(root, this.options.outputFile);
    // A merged report is the whole sharded run: full, whatever the merging process was started with.
    const scope =
      this.vitest && !this.vitest.config.mergeReports
        ? detectScope(this.vitest as unknown as ScopeSource)
        : ({ kind: 'full' } as const);
    if (scope.kind === 'partial' && this.options.partialRuns === 'skip') {
      process.stdout.write(
        `needlework: ${describeScope(scope)} run not added to ${displayPath(path)} (set the trend reporter's partialRuns: 'record' to add it)\n`,
      );
      return;
    }
    const run = buildTrendRun(
      collectChecks(testModules, root),
      await detectRevision(root),
      new Date(),
      scope,
    );
    let kept: number;
    try {
      kept = await appendRun(path, run, {
        maxRuns: this.options.maxRuns,
        timeoutMs: this.options.lockTimeoutMs,
      });
    } catch (error) {
      return reportWriteFailure(path, error); // one line, exit 1; the previous history is left whole
    }
    process.stdout.write(
      `needlework: trend run ${run.id} appended to ${displayPath(path)} (${kept} run${kept === 1 ? '' : 's'} kept)\n`,
    );
  }
}

export default NeedleworkTrendReporter;
