// The criteria of a task case (`*.cases.yaml`): each assertion kind is a small module of its own.
import { closest } from '../errors/closest.js';
import type { SpecPlace } from '../model/check.js';
import type {
  CaseAssertions,
  CasesSpec,
  GroundedAssertion,
  StepsAssertion,
  TaskCase,
} from '../model/spec.js';
import { toolCallTrajectory } from '../model/trajectory.js';
import type { Workup } from '../model/workup.js';
import { appliesTo } from '../specs/applies.js';
import { answerChecks } from './answer.js';
import { budgetChecks } from './budgets.js';
import { citationPrecision, citationRecall, citationsResolve } from './citations.js';
import { formatValue } from './format.js';
import { type Measured, NOTE, requiring, type SpecRef, TRAJECTORY } from './measure.js';
import { rubricCriterion } from './rubric.js';
import { type CheckOptions, type Criterion, criterionOf } from './spec.js';
import { calledTools, toolChecks, toolsNamed } from './tools.js';
import {
  EFFICIENCY,
  ERROR_RECOVERY,
  REDUNDANCY,
  SIMILARITY,
  STEP_F1,
  STEP_PRECISION,
  STEP_RECALL,
  type StepScore,
  stepScore,
  trajectoryMatch,
} from './trajectory.js';

interface CaseIndex {
  /** Cases by an exact workup id of their patterns, and by their own id (a run's `meta.json` task). */
  byId: Map<string, TaskCase[]>;
  byTask: Map<string, TaskCase>;
  /**
   * Cases with a `*` pattern, by the text before the pattern's first `*`: a workup id is tested only against the
   * patterns whose text it starts with (10,000 cases of `case-7-*` and 10,000 runs took 59 s tested one by one), at the
   * lengths in `prefixLengths` (ascending).
   */
  wild: Map<string, TaskCase[]>;
  prefixLengths: number[];
  /** Each case's place in the file, so that the cases of one workup are put in file order without a scan. */
  order: Map<TaskCase, number>;
}

const indexes = new WeakMap<CasesSpec, CaseIndex>();

/** The spec's cases indexed by the ids they take, built once: 10,000 cases meet 10,000 workups without a scan each. */
function indexOf(spec: CasesSpec): CaseIndex {
  let index = indexes.get(spec);
  if (!index) {
    index = { byId: new Map(), byTask: new Map(), wild: new Map(), prefixLengths: [], order: new Map() };
    for (const c of spec.cases) {
      index.order.set(c, index.order.size);
      index.byTask.set(c.id, c);
      for (const p of c.workups) {
        const star = p.indexOf('*');
        const [map, key] = star === -1 ? [index.byId, p] : [index.wild, p.slice(0, star)];
        const list = map.get(key);
        if (!list) map.set(key, [c]);
        else if (list.at(-1) !== c) list.push(c);
      }
    }
    index.prefixLengths = [...new Set([...index.wild.keys()].map((prefix) => prefix.length))].sort(
      (a, b) => a - b,
    );
    indexes.set(spec, index);
  }
  return index;
}

/**
 * The cases a workup is a run of, in file order: those whose `workups` patterns take its id, or whose id is its
 * `meta.json` task.
 */
export function casesOf(spec: CasesSpec, workup: Workup): TaskCase[] {
  const index = indexOf(spec);
  const found = new Set<TaskCase>(index.byId.get(workup.id));
  const task = typeof workup.meta.task === 'string' ? index.byTask.get(workup.meta.task) : undefined;
  if (task) found.add(task);
  for (const length of index.prefixLengths) {
    if (length > workup.id.length) break;
    for (const c of index.wild.get(workup.id.slice(0, length)) ?? [])
      if (appliesTo(c.workups, workup.id)) found.add(c);
  }
  return inFileOrder(index, found);
}

/**
 * The runs of each case of the spec among `workups`, in one pass over the workups: each list in the order given; a
 * case no workup is a run of is no key.
 */
export function runsOfCases(spec: CasesSpec, workups: readonly Workup[]): Map<TaskCase, Workup[]> {
  const runs = new Map<TaskCase, Workup[]>();
  for (const workup of workups) {
    for (const c of casesOf(spec, workup)) {
      const list = runs.get(c);
      if (list) list.push(workup);
      else runs.set(c, [workup]);
    }
  }
  return runs;
}

/** Cases of the spec in the order its file lists them, by their place in the spec's index (no scan of the file). */
export function casesInFileOrder(spec: CasesSpec, cases: Iterable<TaskCase>): TaskCase[] {
  return inFileOrder(indexOf(spec), cases);
}

function inFileOrder(index: CaseIndex, cases: Iterable<TaskCase>): TaskCase[] {
  const list = [...cases];
  if (list.length > 1) list.sort((a, b) => index.order.get(a)! - index.order.get(b)!);
  return list;
}

const STEP_SCORES: Array<[keyof StepsAssertion, StepScore]> = [
  ['step_precision', STEP_PRECISION],
  ['step_recall', STEP_RECALL],
  ['step_f1', STEP_F1],
  ['efficiency', EFFICIENCY],
  ['redundancy', REDUNDANCY],
  ['error_recovery', ERROR_RECOVERY],
  ['similarity', SIMILARITY],
];

type Decide = (workup: Workup) => Measured | Promise<Measured>;

/**
 * The criteria of one case, in the order its assertions are documented: tool calls, tool rules, answer, step
 * metrics and budgets, citations, the judge's rubric. Each is one test named for what it asserts.
 */
export function caseCriteria(spec: CasesSpec, c: TaskCase, options: CheckOptions = {}): Criterion[] {
  const ref: SpecRef = {
    id: spec.id,
    kind: 'cases',
    ...(spec.file && { file: spec.file }),
    case: c.id,
    ...(c.place && { casePlace: c.place }),
  };
  const list: Criterion[] = [];
  // Each assertion is placed at its own key (`tools.must_call`), else at its kind's (`tools`), else at the case.
  const placeOf = (kind: keyof CaseAssertions, key?: string) =>
    (key !== undefined ? c.places?.[`${kind}.${key}`] : undefined) ?? c.places?.[kind] ?? c.place;
  const add = (id: string, name: string, decide: Decide, at: SpecPlace | undefined) =>
    list.push(criterionOf(ref, id, name, decide, at));
  const e = c.expect;

  if (e.tool_calls) {
    const t = e.tool_calls;
    const reference = toolCallTrajectory(c.id, t.calls);
    const options = {
      mode: t.match,
      toolArgs: t.args,
      ...(t.overrides && { toolArgsOverrides: t.overrides }),
    };
    // A run without a trajectory fails: it recorded no calls. The reference is the case's, never the workup's gold.
    add(
      'tool-calls',
      `tool calls match (${t.match}, args ${t.args})`,
      requiring(TRAJECTORY, (w) => trajectoryMatch(w, reference, options).measured),
      placeOf('tool_calls'),
    );
  }
  for (const rule of e.tools ? toolChecks(e.tools) : [])
    add(rule.id, rule.name, rule.check, placeOf('tools', rule.key));
  for (const rule of e.answer ? answerChecks(e.answer) : [])
    add(rule.id, rule.name, rule.check, placeOf('answer', rule.key));
  if (e.steps) {
    const steps = e.steps;
    for (const [key, score] of STEP_SCORES) {
      const bound = steps[key];
      if (bound === undefined) continue;
      add(
        score.criterion,
        `${score.label} ${score.comparator} ${formatValue(bound)}`,
        // Without a reference (no gold here or in the workup) the score is not applicable; without steps it fails.
        requiring(TRAJECTORY, (w) => stepScore(w, score, bound, c.gold ?? w.gold)),
        placeOf('steps', key),
      );
    }
    for (const budget of budgetChecks(steps))
      add(budget.id, budget.name, budget.check, placeOf('steps', budget.key));
  }
  if (e.grounded) {
    const g = e.grounded;
    const at = (key: keyof GroundedAssertion) => placeOf('grounded', key);
    // Each reads the run's note: a run of the case that wrote none fails them.
    const cited = (id: string, name: string, decide: Decide, place: SpecPlace | undefined) =>
      add(id, name, requiring(NOTE, decide), place);
    if (g.citations_resolve)
      cited('citations-resolve', 'citations resolve', citationsResolve, at('citations_resolve'));
    if (g.max_uncited !== undefined) {
      const max = g.max_uncited;
      cited('max-uncited', `at most ${max} uncited claims`, (w) => uncited(w, max), at('max_uncited'));
    }
    if (g.citation_recall !== undefined) {
      const min = g.citation_recall;
      cited(
        'citation-recall',
        `citation recall >= ${formatValue(min)}`,
        (w) => citationRecall(w, min),
        at('citation_recall'),
      );
    }
    if (g.citation_precision !== undefined) {
      const min = g.citation_precision;
      cited(
        'citation-precision',
        `citation precision >= ${formatValue(min)}`,
        async (w) => {
          const threshold = options.entailmentThreshold;
          return (
            await citationPrecision(w, options.verifier, min, threshold !== undefined ? { threshold } : {})
          ).measured;
        },
        at('citation_precision'),
      );
    }
  }
  if (e.judge) {
    const rubric = e.judge;
    for (const criterion of rubric.criteria) {
      const id = `judge-${criterion.id}`;
      const place = placeOf('judge', criterion.id);
      list.push({
        id,
        name: `judge: ${criterion.title}`,
        ...(place && { place }),
        // The rubric is the case's own: the check belongs to the data set and the case.
        check: async (workup) =>
          (await rubricCriterion(workup, rubric, criterion.id, options.judge, { ref, id, place })).check,
      });
    }
  }
  return list;
}

/** The number of claim sentences without a citation, at most `max`. */
function uncited(workup: Workup, max: number): Measured {
  const recall = citationRecall(workup, 0);
  const count = (recall.evidence as { uncited: unknown[] }).uncited.length;
  const measured = recall.value !== null;
  return {
    criterion: 'max-uncited',
    metric: 'uncited_claims',
    value: measured ? count : null,
    threshold: max,
    comparator: '<=',
    unit: 'claims',
    verdict: !measured ? 'not-applicable' : count <= max ? 'pass' : 'fail',
    summary: measured ? `${count} uncited claim sentences, at most ${max} allowed` : (recall.summary ?? ''),
    ...(recall.evidence && { evidence: recall.evidence }),
  };
}

/**
 * The warnings of a case that can be acted on: a tool it requires (`must_call`, `order`, `tool_calls`) that no run of
 * it ever calls (misspelt, or never reached), and a tool it only bounds (`must_not_call`, `max_calls`) that no run
 * calls but whose name is close to one a run does call (`closest`): probably misspelt, so the rule guards nothing.
 * A bounded tool no run calls is otherwise what a good run does, and says nothing.
 */
export function unusedTools(c: TaskCase, runs: readonly Workup[]): string[] {
  const called = new Set(runs.flatMap((w) => calledTools(w) ?? []));
  if (called.size === 0) return [];
  const list = [...called];
  const { required, bounded } = toolsNamed(c.expect.tools, c.expect.tool_calls?.calls);
  const warnings = required
    .filter((name) => !called.has(name))
    .map(
      (name) =>
        `warning: case ${c.id} names tool "${name}", which no run of it ever calls (${list.join(', ')})`,
    );
  for (const name of bounded) {
    if (called.has(name)) continue;
    const meant = closest(name, list);
    if (meant !== undefined)
      warnings.push(
        `warning: case ${c.id} bounds tool "${name}", which no run of it ever calls; did you mean "${meant}", which its runs call?`,
      );
  }
  return warnings;
}
