import { resolve } from 'node:path';
import type { Reporter, TestModule, TestSpecification, Vitest } from 'vitest/node';
import { historyLocation } from '../src/history/store/open.js';
import { displayPath } from '../src/io/display-path.js';
import { writeReportFile } from '../src/io/report-file.js';
import { collectChecks } from '../src/report/collect.js';
import { type EvaluatedSpan, evaluatedSpan, evaluationLogsJson } from '../src/report/otel/events.js';
import { trendWriteBegun } from '../src/report/pending-trend.js';
import { runHistory } from '../src/report/run-history.js';
import {
  type LoadedWorkup,
  runWorkupLoader,
  type WorkupPreload,
  workupLoader,
} from '../src/report/workups.js';
import { version } from '../src/version.js';

export interface NeedleworkOtelOptions {
  /**
   * Where to write the OTLP/JSON `ExportLogsServiceRequest`, relative to the project root.
   * @default 'needlework-otel.json'
   */
  outputFile?: string;
  /**
   * The resource's `service.name`.
   * @default 'needlework'
   */
  serviceName?: string;
  /**
   * The results store whose comparison of this run with its baseline is written as `needlework.gate` events (a
   * folder relative to the project root, or a `postgres://` URL); `false` for none.
   * @default process.env.NEEDLEWORK_STORE, else '.needlework/store'
   */
  store?: string | false;
}

/**
 * Writes every needlework check of a run as an OpenTelemetry `gen_ai.evaluation.result` event, in an OTLP/JSON file
 * any OTel collector or backend can load (`otelcol`'s `otlpjsonfile` receiver, or a POST to `/v1/logs`). A check of a
 * workup imported from an OTel trace (its meta.json `trace: { traceId, spanId }`) is parented to that trace and span,
 * so the verdict shows next to the agent run it judges.
 * @example
 * ```ts
 * // vitest.config.ts
 * import { defineConfig } from 'vitest/config';
 * import NeedleworkOtelReporter from 'needlework/reporters/otel';
 * import { needlework } from 'needlework/vitest';
 *
 * export default defineConfig({
 *   plugins: [needlework({ needles: 'needles', workups: 'runs' })],
 *   test: { reporters: ['default', new NeedleworkOtelReporter({ outputFile: 'reports/otel.json' })] },
 * });
 * ```
 */
export class NeedleworkOtelReporter implements Reporter {
  private readonly options: Required<Omit<NeedleworkOtelOptions, 'store'>> &
    Pick<NeedleworkOtelOptions, 'store'>;
  private startedAt = new Date();
  private root = process.cwd();
  /** The workups of this run (for the traces they came from), read as their tests finish. */
  private workups: WorkupPreload<LoadedWorkup> = workupLoader(this.root);

  constructor(options: NeedleworkOtelOptions = {}) {
    this.options = {
      outputFile: options.outputFile ?? 'needlework-otel.json',
      serviceName: options.serviceName ?? 'needlework',
      ...(options.store !== undefined && { store: options.store }),
    };
  }

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    // Shared with the other reporters of this run that read its workups.
    this.workups = runWorkupLoader(specifications, this.root);
  }

  onTestModuleCollected(module: TestModule): void {
    this.workups.noteModule(module);
  }

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    await trendWriteBegun();
    const checks = collectChecks(testModules, this.root);
    const location = historyLocation(this.options.store, this.root);
    const gate = location
      ? await runHistory(checks, location, this.root, this.startedAt)
          .gate()
          .catch(() => undefined)
      : undefined;
    const spans = new Map<string, EvaluatedSpan | undefined>();
    for (const [path, loaded] of await this.workups.forChecks(checks)) {
      spans.set(path, 'workup' in loaded ? evaluatedSpan(loaded.workup.meta.trace) : undefined);
    }
    const tally = { records: 0, parented: 0 };
    // Written record by record as each is built: the whole file is never held (86 MB at 30,000 checks).
    const json = evaluationLogsJson(
      checks,
      {
        time: new Date(),
        serviceName: this.options.serviceName,
        version,
        spanOf: (meta) => (meta.workupPath ? spans.get(meta.workupPath) : undefined),
        ...(gate && { gate: gate.text }),
      },
      tally,
    );
    const path = resolve(this.root, this.options.outputFile);
    if (!(await writeReportFile(path, json))) return;
    process.stdout.write(
      `needlework: ${tally.records} evaluation events (${tally.parented} parented to their trace) written to ${displayPath(path)}\n`,
    );
  }
}

export default NeedleworkOtelReporter;
