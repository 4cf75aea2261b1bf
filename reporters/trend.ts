import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type { Reporter, TestCase, TestModule, TestSpecification, Vitest } from 'vitest/node';
import { isUserError } from '../src/errors/index.js';
import { type CompareOptions, changeKey, isDefaultGate } from '../src/history/compare.js';
import { buildTrendRun, summarize, trendCheckOf, trendRunOf } from '../src/history/entry.js';
import { baselineFrom, findBaseline } from '../src/history/gate.js';
import { DEFAULT_TREND_FILE, LEGACY_TREND_FILE } from '../src/history/history.js';
import type { Revision } from '../src/history/revision.js';
import { detectRevision } from '../src/history/revision.js';
import { describeScope, detectScope, type ScopeSource } from '../src/history/scope.js';
import { isLockTimeout } from '../src/history/store/lock.js';
import {
  type OpenStoreOptions,
  resolveStore,
  storeName,
  withOpenedStore,
} from '../src/history/store/open.js';
import { type Retention, retentionPolicy } from '../src/history/store/retention.js';
import type { Store } from '../src/history/store/store.js';
import type { RunStream } from '../src/history/store/stream.js';
import type { TrendCheck, TrendRun } from '../src/history/types.js';
import { projectPaths } from '../src/io/display-path.js';
import { terminalSafe } from '../src/io/terminal.js';
import { isCheckMeta } from '../src/report/checks.js';
import { collectChecks, collectModuleChecks } from '../src/report/collect.js';
import { detectEnvironment, environmentLoader } from '../src/report/environment.js';
import { gateStory, type RunGate } from '../src/report/gate-text.js';
import { lendTrendBaseline, lendTrendStore, trackTrendWrite } from '../src/report/pending-trend.js';
import { gateOf } from '../src/report/run-history.js';
import { existingRunWorkupLoader } from '../src/report/workups.js';
import { openSharedStore } from '../src/ui/door/client.js';

/**
 * How many checks of a run the trend reporter sends to the embedded store at once while the tests run (see
 * `RunStream`): few enough that the last, sent after the last test, takes the run's end little time.
 */
const STREAM_CHECKS = 1000;

export interface NeedleworkTrendOptions {
  /**
   * The results store: a folder for the embedded store (relative to the project root) or a `postgres://` URL.
   * `needlework run` and `needlework trend` use the same default.
   * @default process.env.NEEDLEWORK_STORE, else '.needlework/store'
   */
  store?: string;
  /**
   * The trend.json that needlework wrote before the store (relative to the project root): imported once, when the
   * store is created, and no longer written (`needlework trend export` writes one on demand).
   * @default 'needlework-report/trend.json'
   */
  outputFile?: string;
  /**
   * What to do with a partial run (file filters, a `-t` filter, watch mode, the UI): `skip` leaves it out of the
   * store, so a later full run is never compared with a subset; `record` appends it with its scope, and the gate
   * then compares it only with partial runs of the same filters.
   * @default 'skip'
   */
  partialRuns?: 'skip' | 'record';
  /**
   * Which runs the store keeps, applied after each append: the last `keepLast`, and none older than `olderThan`
   * (`90d`). Without it every run is kept (`needlework prune` drops runs on demand).
   */
  retention?: Retention;
  /** The earlier name of `retention.keepLast`. */
  maxRuns?: number;
  /**
   * How long to wait (ms) for another process that has the embedded store open before failing.
   * @default 300000
   */
  lockTimeoutMs?: number;
  /**
   * The regression gate every output of the run renders (the terminal, JUnit, the HTML report, the job summary, OTel
   * events): the significance `level`, a `tolerance` / `relativeTolerance` (given, a value that moved the wrong way
   * past it is a regression too), and a `baseline` store or trend.json to compare with instead of this store's own
   * baseline run. See docs/gate.md.
   */
  gate?: CompareOptions & { baseline?: string };
}

/**
 * Appends each full run to the results store: every check (spec, case, workup, task, trial, criterion, metric,
 * value, threshold, verdict and reason), the commit, branch and base branch, the model and agent version, and the
 * run's scope. Partial runs are left out unless `partialRuns` is `record`. A shard of a sharded run writes nothing:
 * the run is recorded once, complete, by `vitest --merge-reports` with this reporter. A store that cannot be opened
 * or reached is reported in one line and fails the run (`process.exitCode` 1), and the other reporters still write.
 * @example
 * ```ts
 * // vitest.config.ts
 * import { defineConfig } from 'vitest/config';
 * import NeedleworkTrendReporter from 'needlework/reporters/trend';
 * import { needlework } from 'needlework/vitest';
 *
 * export default defineConfig({
 *   plugins: [needlework({ needles: 'needles', workups: 'runs' })],
 *   test: { reporters: ['default', new NeedleworkTrendReporter()] },
 * });
 * ```
 */
export class NeedleworkTrendReporter implements Reporter {
  private readonly options: NeedleworkTrendOptions & { outputFile: string; partialRuns: 'skip' | 'record' };
  private vitest: Vitest | undefined;
  /** The id of the run this reporter appended last. */
  appendedRun: string | undefined;
  /** Why the last append failed (one line), when it did. */
  failure: string | undefined;
  /** The environments (model, agent version) of this run's workups, found as their modules are collected. */
  private environments: ReturnType<typeof environmentLoader> | undefined;
  /** The store opened when the run started, for this run's append. */
  private opened: Opened | undefined;
  /** This run's checks streamed to the store as their tests end (see `RunStream`), where the store takes them. */
  private streaming: Streaming | undefined;
  /** When this run started: its baseline is the latest run that ended before. */
  private startedAt = new Date();
  /** The commit and branch of this run, read once when it starts. */
  private revision: Promise<Revision> | undefined;
  /** The gate of the run this reporter appended last against its baseline; absent without a baseline. */
  gate: RunGate | undefined;
  /**
   * How many tests of that run failed that were not failing in its baseline (a plain Vitest test always counts): with
   * the gate on, `needlework run` passes a run whose only failures are known ones.
   */
  unknownFailures = 0;

  constructor(options: NeedleworkTrendOptions = {}) {
    this.options = {
      ...options,
      outputFile: options.outputFile ?? DEFAULT_TREND_FILE,
      partialRuns: options.partialRuns ?? 'skip',
    };
    // A malformed retention is the config's mistake: say so when the config loads, not after the run. So is a store
    // URL of an unknown scheme (`postgress://`), which `resolveStore` refuses whatever the root.
    retentionPolicy(this.retention());
    resolveStore(this.options.store, process.cwd());
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.startedAt = new Date();
    const root = this.root();
    this.revision = detectRevision(root);
    // The workups the run's HTML or OTel reporter reads are not read again for their metas.
    this.environments = environmentLoader(root, () => existingRunWorkupLoader(specifications, root));
    this.opened = undefined;
    this.streaming = undefined;
    // The store opens as the run starts (PostgreSQL starting in WebAssembly takes 0.3-0.4 s of the other core while the
    // test worker starts), reads the run's baseline, then takes the checks as their tests end: the run's end only
    // finishes the append. A run that will not append opens nothing. An embedded store another process holds (another
    // run appending to it) is not waited for now: it is opened after the tests, waited for as before, and the run
    // appended in one piece, so that a run never waits for another run's tests.
    if (this.skipReason()) return;
    this.opened = this.open({ wait: false });
    if (!this.vitest?.config.mergeReports) this.streaming = this.stream(this.opened, root);
  }

  onTestModuleCollected(module: TestModule): void {
    this.environments?.noteModule(module);
  }

  /** A finished test's check goes to the store's stream (in chunks of `STREAM_CHECKS`). */
  onTestCaseResult(test: TestCase): void {
    const streaming = this.streaming;
    const meta = test.meta().needlework;
    if (!streaming || streaming.none || !isCheckMeta(meta)) return;
    // A test reported twice would be inserted twice: the run is then appended in one piece after all.
    if (streaming.tests.has(test.id)) streaming.broken = true;
    streaming.tests.add(test.id);
    const check = trendCheckOf(meta, test.result().state, streaming.pathOf);
    streaming.checks.push(check);
    streaming.queued.push(check);
    if (streaming.queued.length >= STREAM_CHECKS) sendQueued(streaming);
  }

  /** Begins streaming this run's checks to the store `opened` opens, once it has read the run's baseline. */
  private stream(opened: Opened, root: string): Streaming {
    const provisional = {
      id: `streaming-${randomBytes(8).toString('hex')}`,
      time: this.startedAt.toISOString(),
      scope: this.scope(),
      summary: summarize([]),
      checks: [],
      trials: [],
      root,
    };
    const streaming: Streaming = {
      stream: (async () => {
        const store = await opened.store;
        // Read first: on the embedded engine, a statement outside the stream's transaction waits for its end.
        await opened.baseline.catch(() => undefined);
        return store.streamAppend(provisional);
      })().catch(() => undefined),
      tests: new Set(),
      checks: [],
      queued: [],
      broken: false,
      none: false,
      pathOf: projectPaths(root),
    };
    // A store that takes no stream (a server, the UI's door, one another process held) is sent no more checks.
    void streaming.stream.then((stream) => {
      if (!stream) {
        streaming.none = true;
        streaming.checks = [];
        streaming.queued = [];
      }
    });
    return streaming;
  }

  /** A finished module's checks are collected now, while the next module runs, rather than after the last test. */
  onTestModuleEnd(module: TestModule): void {
    collectModuleChecks(module, this.root());
  }

  /**
   * Starts opening the store, and reading the run's baseline from it as soon as it is open; without `wait`, an
   * embedded store whose lock another process holds fails to open at once (`isLockTimeout`).
   */
  private open({ wait = true }: { wait?: boolean } = {}): Opened {
    let started: () => void = () => undefined;
    const begun = new Promise<void>((done) => {
      started = done;
    });
    // While `needlework ui` holds the embedded store, the run appends through it (src/ui/door).
    const store = openSharedStore(this.storeLocation(), {
      ...this.storeOptions(),
      started,
      ...(!wait && { lockTimeoutMs: 0 }),
    });
    // A store that cannot be opened is reported by the append, after the tests, in one line.
    store.catch(() => undefined);
    const baseline = store.then((opened) => this.baseline(opened));
    // A baseline that cannot be read means no gate, as it did when the reports read it.
    baseline.catch(() => undefined);
    return {
      store,
      baseline,
      started: Promise.race([
        begun,
        store.then(
          () => undefined,
          () => undefined,
        ),
      ]),
    };
  }

  /** The store `early` opened when the run started, or, where another process held it then, the store opened now. */
  private openedOrWhenFree(early: Opened): Opened {
    const again = early.store.then(
      () => undefined,
      (error: unknown) => (isLockTimeout(error) ? this.open() : undefined),
    );
    const now = (opened: Opened | undefined) => opened ?? early;
    const store = again.then((opened) => now(opened).store);
    const baseline = again.then((opened) => now(opened).baseline);
    // Handled where used, as `open` leaves them (a store that cannot be opened is reported by the append).
    store.catch(() => undefined);
    baseline.catch(() => undefined);
    return { store, baseline, started: again.then((opened) => now(opened).started) };
  }

  /** This run's baseline (see `findBaseline`), from the gate's `baseline` when it names one, else from `store`. */
  private async baseline(store: Store): Promise<TrendRun | undefined> {
    this.revision ??= detectRevision(this.root());
    const revision = await this.revision;
    const query = { scope: this.scope(), ...revision };
    const other = this.options.gate?.baseline;
    const found = other
      ? await baselineFrom(other, this.root(), query)
      : await findBaseline(store, query, this.startedAt.toISOString());
    return found.run;
  }

  /** The project root: Vitest's, else the working directory. */
  private root(): string {
    return this.vitest?.config.root ?? process.cwd();
  }

  /** The store this reporter appends to, resolved against the project root. */
  storeLocation(root: string = this.root()): string {
    return resolveStore(this.options.store, root);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    this.appendedRun = undefined;
    this.failure = undefined;
    this.gate = undefined;
    const skip = this.skipReason();
    if (skip) {
      process.stdout.write(`needlework: ${skip}\n`);
      return Promise.resolve();
    }
    // A store not opened when the run started (a reporter added after it started, or a store another process held
    // then) opens now.
    const opened = this.opened ? this.openedOrWhenFree(this.opened) : this.open();
    this.opened = undefined;
    const root = this.root();
    return trackTrendWrite(this.storeLocation(root), this.write(testModules, root, opened), opened.started);
  }

  private retention(): Retention {
    const retention = { ...this.options.retention };
    if (retention.keepLast === undefined && this.options.maxRuns !== undefined)
      retention.keepLast = this.options.maxRuns;
    return retention;
  }

  private storeOptions(): OpenStoreOptions {
    return {
      importOnCreate: [
        resolve(this.root(), this.options.outputFile),
        resolve(this.root(), LEGACY_TREND_FILE),
      ],
      note: (line) => process.stdout.write(`${line}\n`),
      ...(this.options.lockTimeoutMs !== undefined && { lockTimeoutMs: this.options.lockTimeoutMs }),
    };
  }

  /** The run's scope: a merged report is the whole sharded run, full, whatever the merging process was started with. */
  private scope() {
    return this.vitest && !this.vitest.config.mergeReports
      ? detectScope(this.vitest as unknown as ScopeSource)
      : ({ kind: 'full' } as const);
  }

  /** Why this run is not appended (one line for the user), or undefined when it is. */
  private skipReason(): string | undefined {
    const shard = this.vitest?.config.shard;
    if (shard && !this.vitest?.config.mergeReports)
      return `shard ${shard.index}/${shard.count} leaves the trend to \`vitest --merge-reports\``;
    const scope = this.scope();
    if (scope.kind === 'partial' && this.options.partialRuns === 'skip')
      return `${describeScope(scope)} run not added to the results store ${storeName(this.storeLocation())} (set the trend reporter's partialRuns: 'record' to add it)`;
    return undefined;
  }

  private async write(testModules: ReadonlyArray<TestModule>, root: string, opened: Opened): Promise<void> {
    const streaming = this.streaming;
    this.streaming = undefined;
    let handedOver = false;
    try {
      handedOver = await this.append(testModules, root, opened, streaming);
    } finally {
      // A store not handed to the append (a throw before it) is closed, its stream rolled back: its lock is released.
      if (!handedOver) {
        await streaming?.stream.then((stream) => stream?.abandon());
        await opened.store.then(
          (store) => store.close(),
          () => undefined,
        );
      }
    }
  }

  /**
   * Appends the run through the store `opened` opens (ending the append `streaming` began, where it holds the run),
   * and whether the store was handed to the append (which closes it). The run's baseline is lent to the reports' gate
   * as soon as the append is sent.
   */
  private async append(
    testModules: ReadonlyArray<TestModule>,
    root: string,
    opened: Opened,
    streaming: Streaming | undefined,
  ): Promise<boolean> {
    const location = this.storeLocation(root);
    // The store's opening (its lock and folder checks, each a turn of this thread) reaches its own thread before this
    // one is busy collecting the checks and building the run: PostgreSQL then starts meanwhile, on the other core.
    await opened.started;
    const checks = collectChecks(testModules, root);
    const revision = await (this.revision ?? detectRevision(root));
    // The checks made for the stream as their tests ended are the run's, when there is one for every check.
    const run =
      streaming && !streaming.none && !streaming.broken && streaming.checks.length === checkCount(checks)
        ? trendRunOf(streaming.checks, revision, new Date(), this.scope(), root)
        : buildTrendRun(checks, revision, new Date(), this.scope(), root);
    const environment = await detectEnvironment(checks, root, this.environments);
    if (environment) run.environment = environment;
    if (streaming) sendQueued(streaming);
    try {
      const { kept, dropped } = await withOpenedStore(opened.store, async (store) => {
        const baseline = await opened.baseline.catch(() => undefined);
        // The append is ended (or sent in one piece) first: the gate is compared and the reports are built on this
        // thread while the store's thread appends.
        const appended = endAppend(store, run, streaming);
        const gate = baseline && gateOf(run, baseline, this.options.gate);
        this.gate = gate;
        this.unknownFailures = gate ? unknownFailures(checks, gate) : 0;
        lendTrendBaseline(location, { run, checks, baseline, gate });
        await appended;
        // The default gate's comparison is kept with the run: `needlework ui` shows it rather than read both runs and
        // compare them again. Only speed is lost without it, so a failure to keep it fails nothing.
        const { baseline: otherHistory, ...gateOptions } = this.options.gate ?? {};
        if (gate && otherHistory === undefined && isDefaultGate(gateOptions))
          await store.keepComparison(run.id, gate.comparison).catch(() => undefined);
        const dropped = await store.prune(retentionPolicy(this.retention()));
        // The reports of this run read the history through this open store rather than open it again.
        await lendTrendStore(location, { store, run, checks });
        return { kept: await store.count(), dropped };
      });
      this.appendedRun = run.id;
      process.stdout.write(
        `needlework: trend run ${run.id} appended to the results store ${storeName(location)} (${kept} run${kept === 1 ? '' : 's'}${dropped ? `; ${dropped} pruned` : ''})\n`,
      );
      // The gate's story, in the terminal of every run that has a baseline: one line when nothing changed.
      if (this.gate) {
        const outside = checks.filter((check) => check.state === 'failed' && !check.meta).length;
        const story = gateStory(this.gate.text);
        if (outside)
          story.push(
            `  ${outside} failing ${outside === 1 ? 'test' : 'tests'} outside the comparison (${outside === 1 ? 'a Vitest test' : 'Vitest tests'} with no needlework check); the gate fails on ${outside === 1 ? 'it' : 'them'} (docs/gate.md#exit-codes)`,
          );
        process.stdout.write(`${story.map((line) => `needlework: ${terminalSafe(line)}`).join('\n')}\n`);
      }
    } catch (error) {
      // One line naming the store; the run fails, and the JUnit and HTML reporters of this run still write.
      this.failure = isUserError(error)
        ? error.message
        : `${storeName(location)}: cannot append to the results store: ${String((error as Error)?.message ?? error).split('\n')[0]}`;
      process.stderr.write(`needlework: ${terminalSafe(this.failure)}\n`);
      process.exitCode = 1;
    }
    // `withOpenedStore` closed the store whatever happened.
    return true;
  }
}

/** How many of the run's tests carry a needlework check: the checks of its history entry. */
function checkCount(checks: ReturnType<typeof collectChecks>): number {
  let count = 0;
  for (const check of checks) if (check.meta) count++;
  return count;
}

/** The failed tests of a run whose case x criterion had no failing trial in the baseline (see `unknownFailures`). */
function unknownFailures(checks: ReturnType<typeof collectChecks>, gate: RunGate): number {
  const known = new Set<string>();
  for (const change of gate.comparison.changes)
    if (change.before && change.before.passes < change.before.trials) known.add(changeKey(change));
  let unknown = 0;
  for (const check of checks) {
    if (check.state !== 'failed') continue;
    const meta = check.meta;
    if (!meta || !known.has(changeKey({ ...meta, task: meta.task ?? meta.workup }))) unknown++;
  }
  return unknown;
}

/**
 * Ends a run's append: its stream's, when the stream holds every check of the run, else the run in one piece (which
 * reports what failed, if anything does).
 */
async function endAppend(store: Store, run: TrendRun, streaming: Streaming | undefined): Promise<void> {
  const stream = await streaming?.stream;
  if (stream && streaming && !streaming.broken && stream.added === run.checks.length) {
    try {
      return await stream.finish(run);
    } catch {
      // Rolled back: appended in one piece below, which fails the same way if the run cannot be stored.
    }
  } else await stream?.abandon();
  await store.append(run);
}

/** A run's checks on their way to the store as their tests end. */
interface Streaming {
  /** The store's stream, once the store is open and has read the baseline; undefined where it takes none. */
  stream: Promise<RunStream | undefined>;
  /** The tests whose checks were queued. */
  tests: Set<string>;
  /** Every check queued, in the order their tests ended: the run's checks, built once (see `trendRunOf`). */
  checks: TrendCheck[];
  /** Checks not sent yet. */
  queued: TrendCheck[];
  /** A test was reported twice: the stream is not the run. */
  broken: boolean;
  /** The store took no stream: checks are no longer queued. */
  none: boolean;
  /** The workups' paths from the run's root (`projectPaths`). */
  pathOf: (file: string) => string;
}

/** Sends the queued checks to the stream, in order, once it has begun. */
function sendQueued(streaming: Streaming): void {
  const checks = streaming.queued;
  if (checks.length === 0) return;
  streaming.queued = [];
  void streaming.stream.then((stream) => stream?.add(checks));
}

/** A store being opened for a run's append, and the run's baseline read from it. */
interface Opened {
  store: Promise<Store>;
  baseline: Promise<TrendRun | undefined>;
  /** Settles once the store is being opened off this thread (see `OpenStoreOptions.started`), or failed to open. */
  started: Promise<void>;
}

export default NeedleworkTrendReporter;
