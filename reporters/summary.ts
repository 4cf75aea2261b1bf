import { appendFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { historyLocation } from '../src/history/store/open.js';
import { projectPath } from '../src/io/display-path.js';
import { terminalSafe } from '../src/io/terminal.js';
import { collectChecks, recordTestLocations } from '../src/report/collect.js';
import { trendWriteBegun } from '../src/report/pending-trend.js';
import { runHistory } from '../src/report/run-history.js';
import {
  type AnnotationSources,
  buildAnnotations,
  formatAnnotation,
} from '../src/report/summary/annotations.js';
import { buildSummaryMarkdown, type SummaryInput } from '../src/report/summary/markdown.js';

export interface NeedleworkSummaryOptions {
  /**
   * The Markdown file to append the job summary to; nothing is written when it is empty or unset.
   * @default process.env.GITHUB_STEP_SUMMARY
   */
  summaryFile?: string | undefined;
  /**
   * Whether to print `::error` workflow commands, which GitHub Actions turns into annotations on the files.
   * @default process.env.GITHUB_ACTIONS === 'true'
   */
  annotations?: boolean;
  /**
   * The results store whose latest run that ended before this one started is the baseline for regressions (a folder
   * relative to the project root, or a `postgres://` URL); `false` for no regressions section.
   * @default process.env.NEEDLEWORK_STORE, else '.needlework/store'
   */
  store?: string | false;
  /** A trend.json export to take the baseline from instead of the store; `false` for no regressions section. */
  trendFile?: string | false;
  /**
   * The base of workup links, to which a workup's project-relative path is appended.
   * @default `${GITHUB_SERVER_URL}/${GITHUB_REPOSITORY}/blob/${GITHUB_SHA}/` when GitHub Actions sets those
   */
  linkBase?: string | undefined;
}

/** GitHub's address of a file at the commit under test, when the Actions environment says where that is. */
function githubLinkBase(env: NodeJS.ProcessEnv): string | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_SHA: sha } = env;
  return server && repo && sha ? `${server}/${repo}/blob/${sha}/` : undefined;
}

/**
 * Reports a run where GitHub Actions shows it: a Markdown job summary appended to `$GITHUB_STEP_SUMMARY` (pass rate,
 * the regression gate against the trend history with the cases that dropped, failing tests with their messages, a line per workup) and an `::error`
 * annotation per failure, on the spec line of a failed criterion and on the note line of each uncited or
 * unsupported claim. Outside Actions (neither variable set) it does nothing.
 * @example
 * ```ts
 * // vitest.config.ts
 * import { defineConfig } from 'vitest/config';
 * import NeedleworkSummaryReporter from 'needlework/reporters/summary';
 * import { needlework } from 'needlework/vitest';
 *
 * export default defineConfig({
 *   plugins: [needlework({ needles: 'needles', workups: 'runs' })],
 *   test: { reporters: ['default', new NeedleworkSummaryReporter()] },
 * });
 * ```
 */
export class NeedleworkSummaryReporter implements Reporter {
  private readonly options: {
    summaryFile: string | undefined;
    annotations: boolean;
    trendFile: string | false;
    linkBase: string | undefined;
  };
  private root = process.cwd();
  private startedAt = new Date();

  constructor(options: NeedleworkSummaryOptions = {}) {
    this.options = {
      summaryFile: 'summaryFile' in options ? options.summaryFile : process.env['GITHUB_STEP_SUMMARY'],
      annotations: options.annotations ?? process.env['GITHUB_ACTIONS'] === 'true',
      trendFile:
        options.trendFile === false || options.store === false
          ? false
          : (options.trendFile ?? options.store ?? ''),
      linkBase: 'linkBase' in options ? options.linkBase : githubLinkBase(process.env),
    };
  }

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
    this.startedAt = new Date();
    recordTestLocations(vitest);
  }

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    const { summaryFile, annotations } = this.options;
    if (!summaryFile && !annotations) return;
    await trendWriteBegun();
    const checks = collectChecks(testModules, this.root);
    if (annotations) {
      const sources = await this.sources(checks);
      const lines = buildAnnotations(checks, sources).map(formatAnnotation);
      // Check summaries quote agent and server text: escaped, so a log viewer's terminal emulation obeys none of it.
      if (lines.length > 0) process.stdout.write(`${terminalSafe(lines.join('\n'))}\n`);
    }
    if (summaryFile) {
      const input: SummaryInput = { checks };
      const gate = await this.gate(checks);
      if (gate) input.gate = gate;
      const base = this.options.linkBase;
      input.workupPlace = (workupPath) => {
        const path = projectPath(this.root, workupPath);
        // Only a path inside the project has a page on the forge.
        if (!base || path.startsWith('/') || /^[A-Za-z]:/.test(path)) return { path };
        return { path, href: `${base}${path.split('/').map(encodeURIComponent).join('/')}` };
      };
      // Appended, not replaced: GitHub gives each step one summary file that other tools of the step append to too,
      // so an atomic replace (read, add, rename) could drop what another wrote meanwhile.
      await appendFile(resolve(this.root, summaryFile), buildSummaryMarkdown(input));
    }
  }

  /**
   * The statistical gate (the default of `needlework trend` and `run`) for this run against the latest run of the
   * trend history that ended before this one started.
   */
  private async gate(checks: ReturnType<typeof collectChecks>): Promise<SummaryInput['gate']> {
    const location = historyLocation(this.options.trendFile, this.root);
    return location
      ? runHistory(checks, location, this.root, this.startedAt)
          .gate()
          .then((gate) => gate?.text)
      : undefined;
  }

  /** Spec lines by criterion, and each workup's note file, as project-relative paths. */
  private async sources(checks: ReturnType<typeof collectChecks>): Promise<AnnotationSources> {
    const metas = checks.flatMap((check) => (check.meta ? [check.meta] : []));
    const notes = new Map<string, { file: string; lines: boolean } | undefined>();
    for (const path of new Set(metas.flatMap((meta) => (meta.workupPath ? [meta.workupPath] : [])))) {
      notes.set(path, await noteFile(this.root, path));
    }
    return {
      criterion: (check) => {
        const meta = check.meta;
        if (!meta?.specFile) return undefined;
        return { file: projectPath(this.root, meta.specFile), ...meta.place };
      },
      note: (check) => (check.meta?.workupPath ? notes.get(check.meta.workupPath) : undefined),
    };
  }
}

/** A workup folder's `note.md`, or a single-file workup itself (its note's lines are not the file's). */
async function noteFile(
  root: string,
  workupPath: string,
): Promise<{ file: string; lines: boolean } | undefined> {
  const info = await stat(resolve(root, workupPath)).catch(() => undefined);
  if (!info) return undefined;
  if (info.isFile()) return { file: projectPath(root, workupPath), lines: false };
  const note = join(workupPath, 'note.md');
  return (await stat(resolve(root, note)).catch(() => undefined))?.isFile()
    ? { file: projectPath(root, note), lines: true }
    : undefined;
}

export default NeedleworkSummaryReporter;
