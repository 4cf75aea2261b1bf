import { compare, type RunComparison } from '../history/compare.js';
import { findBaseline } from '../history/gate.js';
import type { Store } from '../history/store/store.js';
import type { TrendRun } from '../history/types.js';
import { comparisonAnswer, runChange, runDetail, trendsAnswer, trialsAnswer } from './answers.js';
import type { CaseHistory, Comparison, RunChange, RunDetail, Trends, TrialsView } from './client/types.js';
import { caseChecks, facets, type RunsQuery, runsPage } from './queries.js';

/** How many checks the run cache holds at most (30,000 checks are about 15 MB of objects). */
const CACHE_CHECKS = 200_000;
/** How many comparisons the Compare view keeps answered. */
const COMPARISONS_KEPT = 8;

/**
 * What the API reads, over one open store. A stored run never changes, nor does its baseline (the latest earlier run
 * of its scope) unless runs are pruned, so runs and their comparisons are cached: the compare of two 30,000-check
 * runs reads them from the store once.
 */
export class UiData {
  private readonly runs = new Map<string, Promise<TrendRun | undefined>>();
  private readonly sizes = new Map<string, number>();
  private cached = 0;
  private readonly baselines = new Map<string, Promise<string | undefined>>();
  private readonly changes = new Map<string, Promise<RunChange>>();
  private readonly comparisons = new Map<string, Promise<Comparison | undefined>>();

  constructor(readonly store: Store) {}

  /** Forget what a prune may have changed: baselines and comparisons (runs themselves never change). */
  forgetBaselines(): void {
    this.baselines.clear();
    this.changes.clear();
    this.comparisons.clear();
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
    this.runs.set(id, found);
    found.then(
      (run) => this.account(id, run ? run.checks.length : 0),
      () => this.runs.delete(id),
    );
    return found;
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

  /** The id of a run's baseline, as the gate picks it (`findBaseline`). */
  baselineOf(run: TrendRun): Promise<string | undefined> {
    let found = this.baselines.get(run.id);
    if (!found) {
      found = findBaseline(this.store, run).then((b) => b.run?.id);
      this.baselines.set(run.id, found);
      found.catch(() => this.baselines.delete(run.id));
    }
    return found;
  }

  /** A run's comparison with `baselineId`, else with its own baseline; undefined without one. */
  async comparison(
    current: TrendRun,
    baselineId?: string,
  ): Promise<{ baseline: TrendRun; comparison: RunComparison } | undefined> {
    const id = baselineId ?? (await this.baselineOf(current));
    if (id === undefined) return undefined;
    const baseline = await this.run(id);
    if (!baseline) return undefined;
    return { baseline, comparison: compare(current, baseline) };
  }

  /** Each run's change against its baseline, in counts and the gate's headline. */
  change(id: string): Promise<RunChange | undefined> {
    let found = this.changes.get(id);
    if (!found) {
      found = (async () => {
        const run = await this.run(id);
        if (!run) throw new Error(`no run ${id}`);
        return runChange(id, await this.comparison(run));
      })();
      this.changes.set(id, found);
      found.catch(() => this.changes.delete(id));
    }
    return found.catch(() => undefined);
  }

  /**
   * The Compare view: `compare()` and `gateText()`, the same comparison and words as the gate. Two stored runs always
   * compare alike, so the answer is kept for the last few pairs asked (two runs of 30,000 checks: 1.6 s to compare).
   */
  compare(currentId: string, baselineId?: string): Promise<Comparison | undefined> {
    const key = `${currentId}\0${baselineId ?? ''}`;
    let found = this.comparisons.get(key);
    if (!found) {
      found = this.compareAnew(currentId, baselineId);
      this.comparisons.set(key, found);
      found.catch(() => this.comparisons.delete(key));
      for (const old of this.comparisons.keys()) {
        if (this.comparisons.size <= COMPARISONS_KEPT) break;
        this.comparisons.delete(old);
      }
    }
    return found;
  }

  private async compareAnew(currentId: string, baselineId?: string): Promise<Comparison | undefined> {
    const current = await this.run(currentId);
    if (!current) return undefined;
    if (baselineId !== undefined && !(await this.run(baselineId))) return undefined;
    return comparisonAnswer(current, await this.comparison(current, baselineId), baselineId !== undefined);
  }

  /** The One run view: the run's checks, and what its comparison with its baseline says of each. */
  async detail(id: string): Promise<RunDetail | undefined> {
    const run = await this.run(id);
    return run && runDetail(run, await this.comparison(run));
  }

  /** The One case view: the case's verdicts across every run, and the first run where each criterion failed. */
  async caseHistory(ref: { spec: string; case?: string; task: string }): Promise<CaseHistory> {
    const points = await caseChecks(this.store.engine, ref);
    const firstFailures = new Map<string, CaseHistory['firstFailures'][number]>();
    for (const point of points)
      if (point.verdict === 'fail' && !firstFailures.has(point.criterion))
        firstFailures.set(point.criterion, { criterion: point.criterion, point });
    return {
      spec: ref.spec,
      ...(ref.case !== undefined && { case: ref.case }),
      task: ref.task,
      points,
      firstFailures: [...firstFailures.values()],
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
