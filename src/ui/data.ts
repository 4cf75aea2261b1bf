import { compare, type RunComparison } from '../history/compare.js';
import { baselineFilter } from '../history/gate.js';
import type { RunHead } from '../history/store/rows.js';
import type { Store } from '../history/store/store.js';
import type { TrendRun } from '../history/types.js';
import {
  type Compared,
  comparisonAnswer,
  runChange,
  runDetail,
  trendsAnswer,
  trialsAnswer,
} from './answers.js';
import type { CaseHistory, Comparison, RunChange, RunDetail, Trends, TrialsView } from './client/types.js';
import { caseChecks, checkCounts, facets, type RunsQuery, runsPage } from './queries.js';

/** How many checks the run cache holds at most (30,000 checks are about 15 MB of objects). */
const CACHE_CHECKS = 200_000;
/**
 * How many checks the change column reads at once, its runs' and then their baselines': both within the cache, and a
 * page of runs of 30 checks read in one statement each.
 */
const CHECKS_READ = 50_000;
/** How many comparisons the Compare view keeps answered. */
const COMPARISONS_KEPT = 8;
/** How many runs' heads (a run without its checks: a few hundred bytes) are kept. */
const HEADS_KEPT = 20_000;

/**
 * What the API reads, over one open store. A stored run never changes, nor does its baseline (the latest earlier run
 * of its scope) unless runs are pruned, so runs and their comparisons are cached: the compare of two 30,000-check
 * runs reads them from the store once. A run's comparison with the baseline its gate compared it with is read as the
 * gate kept it (`Store.keepComparison`), without reading either run's checks: two runs compare alike whenever they
 * are compared, so what made it stale would be another baseline (a run imported later, a pair asked for), and then
 * the two runs are compared here.
 */
export class UiData {
  private readonly runs = new Map<string, Promise<TrendRun | undefined>>();
  private readonly sizes = new Map<string, number>();
  private cached = 0;
  private readonly baselines = new Map<string, Promise<string | undefined>>();
  private readonly changes = new Map<string, Promise<RunChange>>();
  private readonly comparisons = new Map<string, Promise<Comparison | undefined>>();
  private readonly compared = new Map<string, RunComparison>();
  private readonly heads = new Map<string, Promise<RunHead | undefined>>();
  /** Runs the change column just found no kept comparison for: not looked for again while it compares them. */
  private readonly noneKept = new Set<string>();

  constructor(readonly store: Store) {}

  /** Forget what a prune may have changed: baselines and comparisons (runs themselves never change). */
  forgetBaselines(): void {
    this.baselines.clear();
    this.changes.clear();
    this.comparisons.clear();
    this.compared.clear();
  }

  runsPage(query: RunsQuery, offset: number, limit: number) {
    return runsPage(this.store.engine, query, offset, limit);
  }

  facets() {
    return facets(this.store.engine);
  }

  /** A run with its checks, from the cache when it holds it. */
  run(id: string): Promise<TrendRun | undefined> {
    let found = this.runs.get(id);
    if (found) {
      // Most recently used last.
      this.runs.delete(id);
      this.runs.set(id, found);
      return found;
    }
    found = this.store.run(id);
    this.keep(id, found);
    return found;
  }

  private keep(id: string, found: Promise<TrendRun | undefined>): void {
    this.runs.set(id, found);
    found.then(
      (run) => this.account(id, run ? run.checks.length : 0),
      () => this.runs.delete(id),
    );
  }

  /** Reads the runs of `ids` the cache does not hold, in one statement: a page of runs costs one read, not 30. */
  async prefetch(ids: readonly string[]): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !this.runs.has(id));
    if (missing.length === 0) return;
    const read = this.store.runsById(missing).then((runs) => new Map(runs.map((run) => [run.id, run])));
    for (const id of missing)
      this.keep(
        id,
        read.then((runs) => runs.get(id)),
      );
    await read.catch(() => undefined);
  }

  private account(id: string, size: number): void {
    if (!this.runs.has(id)) return;
    this.sizes.set(id, size);
    this.cached += size;
    for (const [old] of this.runs) {
      if (this.cached <= CACHE_CHECKS || old === id) break;
      this.cached -= this.sizes.get(old) ?? 0;
      this.sizes.delete(old);
      this.runs.delete(old);
    }
  }

  /** A run without its checks: the cached run when there is one, else its row alone. */
  head(id: string): Promise<RunHead | undefined> {
    const run = this.runs.get(id);
    if (run) return run;
    const found = once(this.heads, id, () => this.store.runHeads([id]).then(([head]) => head));
    keepAtMost(this.heads, HEADS_KEPT);
    return found;
  }

  /** The id of a run's baseline, as the gate picks it (`findBaseline`'s filter), found without reading its checks. */
  baselineOf(run: RunHead): Promise<string | undefined> {
    return once(this.baselines, run.id, () => {
      const { where, scopeKey } = baselineFilter(run);
      return this.store.latestId({ ...where, scopeKey });
    });
  }

  /**
   * A run's comparison with `baselineId`, else with its own baseline; undefined without one. The comparison its gate
   * kept, when of that baseline, reads neither run's checks; else both runs are read and compared.
   */
  async comparison(current: RunHead, baselineId?: string): Promise<Compared | undefined> {
    const id = baselineId ?? (await this.baselineOf(current));
    if (id === undefined) return undefined;
    // The change column and the Compare view of one pair compare it once.
    const key = `${current.id}\0${id}`;
    let comparison = this.compared.get(key);
    if (comparison) this.compared.delete(key);
    else if (!this.noneKept.has(current.id)) {
      const kept = (await this.store.keptComparisons([current.id])).get(current.id);
      if (kept?.baseline === id) comparison = kept.comparison;
    }
    let baseline: RunHead | undefined;
    if (comparison) baseline = await this.head(id);
    else {
      const [run, full] = await Promise.all([this.run(current.id), this.run(id)]);
      if (run && full) comparison = compare(run, full);
      baseline = full;
    }
    if (!comparison || !baseline) return undefined;
    this.remember(key, comparison);
    return { baseline, comparison };
  }

  /** Keeps a pair's comparison (most recently used last), forgetting the oldest past `COMPARISONS_KEPT`. */
  private remember(key: string, comparison: RunComparison): void {
    this.compared.set(key, comparison);
    keepAtMost(this.compared, COMPARISONS_KEPT);
  }

  /**
   * The changes of the runs of `ids` against their baselines, in that order, until `gone` says the page went away:
   * those whose gate kept its comparison with that baseline from what it kept (one statement), the others with
   * their runs and then their baselines read in one statement each, and only then compared one by one.
   */
  async changesOf(ids: readonly string[], gone: () => boolean): Promise<RunChange[]> {
    const none = await this.keptChanges(ids);
    try {
      for (const group of await this.readGroups(ids.filter((id) => !this.changes.has(id)))) {
        if (gone()) break;
        await this.prefetch(group);
        const runs = await Promise.all(group.map((id) => this.run(id)));
        const baselines = await Promise.all(runs.map((run) => (run ? this.baselineOf(run) : undefined)));
        await this.prefetch(baselines.filter((id): id is string => id !== undefined));
        for (const id of group) {
          if (gone()) break;
          await this.change(id);
        }
      }
    } finally {
      for (const id of none) this.noneKept.delete(id);
    }
    const changes: RunChange[] = [];
    for (const id of ids) {
      if (!this.changes.has(id) && gone()) break;
      const change = await this.change(id);
      if (change) changes.push(change);
    }
    return changes;
  }

  /**
   * The changes of the runs of `ids` whose gate kept its comparison with the baseline the UI finds for them; returns
   * the runs that kept none (marked `noneKept` until the caller is done with them).
   */
  private async keptChanges(ids: readonly string[]): Promise<string[]> {
    const missing = ids.filter((id) => !this.changes.has(id));
    if (missing.length === 0) return [];
    const kept = await this.store.keptComparisons(missing);
    const none = missing.filter((id) => !kept.has(id) && !this.noneKept.has(id));
    for (const id of none) this.noneKept.add(id);
    for (const [id, { baseline: baselineId, comparison }] of kept) {
      const head = await this.head(id);
      if (!head || (await this.baselineOf(head)) !== baselineId) continue;
      const baseline = await this.head(baselineId);
      if (!baseline || this.changes.has(id)) continue;
      this.remember(`${id}\0${baselineId}`, comparison);
      this.changes.set(id, Promise.resolve(runChange(id, { baseline, comparison })));
    }
    return none;
  }

  /** `ids` in groups of at most `CHECKS_READ` checks (a run of more alone): what one read brings into the cache. */
  private async readGroups(ids: readonly string[]): Promise<string[][]> {
    const sizes = await checkCounts(this.store.engine, ids);
    const groups: string[][] = [];
    let size = Number.POSITIVE_INFINITY;
    for (const id of ids) {
      const checks = sizes.get(id) ?? 0;
      if (size + checks > CHECKS_READ) {
        groups.push([]);
        size = 0;
      }
      groups.at(-1)?.push(id);
      size += checks;
    }
    return groups;
  }

  /** Each run's change against its baseline, in counts and the gate's headline. */
  change(id: string): Promise<RunChange | undefined> {
    return once(this.changes, id, async () => {
      const head = await this.head(id);
      if (!head) throw new Error(`no run ${id}`);
      return runChange(id, await this.comparison(head));
    }).catch(() => undefined);
  }

  /**
   * The Compare view: `compare()` and `gateText()`, the same comparison and words as the gate. Two stored runs always
   * compare alike, so the answer is kept for the last few pairs asked (two runs of 30,000 checks: 1.6 s to compare).
   */
  compare(currentId: string, baselineId?: string): Promise<Comparison | undefined> {
    const found = once(this.comparisons, `${currentId}\0${baselineId ?? ''}`, () =>
      this.compareAnew(currentId, baselineId),
    );
    keepAtMost(this.comparisons, COMPARISONS_KEPT);
    return found;
  }

  private async compareAnew(currentId: string, baselineId?: string): Promise<Comparison | undefined> {
    const [current, chosen] = await Promise.all([
      this.head(currentId),
      baselineId !== undefined ? this.head(baselineId) : undefined,
    ]);
    if (!current) return undefined;
    if (baselineId !== undefined && !chosen) return undefined;
    return comparisonAnswer(current, await this.comparison(current, baselineId), baselineId !== undefined);
  }

  /** The One run view: the run's checks, and what its comparison with its baseline says of each. */
  async detail(id: string): Promise<RunDetail | undefined> {
    const run = await this.run(id);
    return run && runDetail(run, await this.comparison(run));
  }

  /**
   * The One case view: the case's newest checks across the runs, and the first run where each of their criteria
   * failed, in the whole history.
   */
  async caseHistory(ref: { spec: string; case?: string; task: string }): Promise<CaseHistory> {
    const { points, truncated, firstFailures } = await caseChecks(this.store.engine, ref);
    return {
      spec: ref.spec,
      ...(ref.case !== undefined && { case: ref.case }),
      task: ref.task,
      points,
      truncated,
      firstFailures: [...firstFailures].map(([criterion, point]) => ({ criterion, point })),
    };
  }

  /** The Trends view: the last runs' pass rates and metric means, and where the model or agent version changed. */
  async trends(last: number): Promise<Trends> {
    return trendsAnswer(await this.store.overview(last));
  }

  /** The Trials view: per spec x criterion x task, k of n passed, pass@k and pass^k, and each trial's verdict. */
  async trials(id: string): Promise<TrialsView | undefined> {
    const run = await this.run(id);
    return run && trialsAnswer(run);
  }
}

/** The promise `map` holds for `key`, else the one `make` starts, kept there until it fails. */
function once<V>(map: Map<string, Promise<V>>, key: string, make: () => Promise<V>): Promise<V> {
  let found = map.get(key);
  if (!found) {
    found = make();
    map.set(key, found);
    found.catch(() => map.delete(key));
  }
  return found;
}

/** Drops the entries of `map` put in first until it holds at most `max`. */
function keepAtMost(map: Map<unknown, unknown>, max: number): void {
  for (const old of map.keys()) {
    if (map.size <= max) break;
    map.delete(old);
  }
}
