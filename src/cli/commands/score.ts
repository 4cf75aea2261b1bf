import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fromSeedTrajectory } from '../../adapters/seed.js';
import type { VerifierOptions } from '../../entailment/create.js';
import type { CitationPrecision } from '../../entailment/index.js';
import { NLI_MODEL_HINT } from '../../entailment/resolve.js';
import { type Diagnostic, formatDiagnostic, UserError } from '../../errors/index.js';
import { citationRecall, resolveCitations } from '../../metrics/citations/index.js';
import { scoreNeedle } from '../../metrics/needle/index.js';
import { lintEstimativeLanguage } from '../../metrics/tradecraft/index.js';
import {
  errorRecoveryRate,
  redundancyRate,
  stepF1,
  stepPrecision,
  stepRecall,
  toolEfficiency,
  trajectorySimilarity,
} from '../../metrics/trajectory/index.js';
import type { NeedleSpec } from '../../model/spec.js';
import type { Trajectory } from '../../model/trajectory.js';
import type { Workup } from '../../model/workup.js';
import { parseJson } from '../../parse/json.js';
import { locateInJson } from '../../parse/locate.js';
import type { RubricScore } from '../../rubric/types.js';
import { appliesTo } from '../../specs/applies.js';
import { loadSpecs } from '../../specs/load.js';
import { loadWorkup } from '../../workup/load.js';
import { colors, type Io } from '../io.js';
import {
  formatScorecard,
  type ScorecardLine,
  type ScoreReport,
  scorecardFailed,
  scorecardLines,
  type TrajectoryScores,
} from '../scorecard.js';

export interface ScoreOptions {
  /** The workup folder or JSON file. */
  workup: string;
  /**
   * Needle spec files (or folders, globs), each scored. When empty, the needles in `<cwd>/needles` (if that folder
   * exists) whose `workups` patterns take this workup.
   */
  needles?: string[];
  /** A gold trajectory (seed 002 JSON); defaults to the workup's own `gold.trajectory.json`. */
  gold?: string;
  /** Print the report as JSON instead of the scorecard. */
  json?: boolean;
  /** Where `needles/` is looked for. @default process.cwd() */
  cwd?: string;
  /** Check citation precision with an NLI model (`--entail`, `--nli-model`, `--no-cache`). */
  entail?: VerifierOptions;
  /** Rubric specs to score with a judge (`--rubric`), and the judge (`--judge`, `--samples`). */
  rubrics?: string[];
  judge?: string;
  samples?: number;
}

/**
 * Every deterministic score of one workup: citation resolution and structural recall, the ICD 203 lint, each
 * needle, and (with a trajectory and a gold one) the seed 002 trajectory metrics. Pure apart from its inputs;
 * `needlework score` prints it, and the integrator's `--entail` / `--rubric` flags add to it.
 */
export function scoreWorkup(workup: Workup, needles: readonly NeedleSpec[], gold?: Trajectory): ScoreReport {
  const note = workup.note;
  const report: ScoreReport = {
    workup: workup.id,
    ...(workup.meta.path !== undefined && { path: workup.meta.path }),
    resolution: resolveCitations(workup),
    citationRecall: note ? citationRecall(note) : null,
    tradecraft: note ? lintEstimativeLanguage(note) : null,
    needles: needles.map((spec) => ({ spec, score: scoreNeedle(workup, spec) })),
  };
  const reference = gold ?? workup.gold;
  if (workup.trajectory && reference) {
    report.trajectory = trajectoryScores(workup.trajectory, reference);
  } else if (workup.trajectory) {
    report.trajectory = {
      reason: 'no gold trajectory (give --gold, or put gold.trajectory.json in the workup)',
    };
  } else if (gold) {
    report.trajectory = { reason: 'the workup has no trajectory' };
  }
  return report;
}

/** The seed 002 metrics of a trajectory against its gold. */
export function trajectoryScores(trajectory: Trajectory, gold: Trajectory): TrajectoryScores {
  return {
    gold: gold.task_id,
    stepPrecision: stepPrecision(trajectory, gold),
    stepRecall: stepRecall(trajectory, gold),
    stepF1: stepF1(trajectory, gold),
    toolEfficiency: toolEfficiency(trajectory, gold),
    redundancyRate: redundancyRate(trajectory),
    errorRecoveryRate: errorRecoveryRate(trajectory),
    trajectorySimilarity: trajectorySimilarity(trajectory, gold),
  };
}

/**
 * `needlework score <workup>`: loads the workup, the needles and the gold trajectory, prints the scorecard (or the
 * report as JSON) and returns 1 when any check failed or any input was bad (every problem is printed, and a bad
 * needle never stops the others), 0 otherwise.
 */
export async function runScore(options: ScoreOptions, io: Io): Promise<number> {
  const c = colors(io);
  const problems: Diagnostic[] = [];
  let workup: Workup;
  try {
    workup = await loadWorkup(options.workup);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    for (const d of error.diagnostics) io.err(`${c.red('✗')} ${formatDiagnostic(d)}`);
    return 1;
  }

  const needles: NeedleSpec[] = [];
  let patterns = options.needles ?? [];
  const explicit = patterns.length > 0;
  if (!explicit) {
    const folder = join(options.cwd ?? process.cwd(), 'needles');
    if ((await stat(folder).catch(() => undefined))?.isDirectory()) patterns = [folder];
  }
  if (patterns.length > 0) {
    const specs = await loadSpecs(patterns);
    // A needle named on the command line is scored; one found in ./needles only when its `workups` take this one.
    needles.push(
      ...(explicit ? specs.needles : specs.needles.filter((n) => appliesTo(n.workups, workup.id))),
    );
    problems.push(...specs.errors);
    if (
      options.needles &&
      options.needles.length > 0 &&
      specs.needles.length === 0 &&
      specs.errors.length === 0
    ) {
      problems.push({ file: options.needles.join(', '), message: 'no needle specs (*.needle.yaml) found' });
    }
  }

  let gold: Trajectory | undefined;
  if (options.gold !== undefined) {
    try {
      gold = await readGold(options.gold);
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      problems.push(...error.diagnostics);
    }
  }

  const report: ScoreReport & { entailment?: CitationPrecision; rubrics?: RubricScore[] } = scoreWorkup(
    workup,
    needles,
    gold,
  );
  const lines = scorecardLines(report);
  if (options.entail) {
    const entailed = await entailmentLines(workup, options.entail, problems);
    if (entailed) {
      report.entailment = entailed.result;
      lines.push(...entailed.lines);
    }
  }
  if (options.rubrics && options.rubrics.length > 0) {
    const judged = await rubricLines(workup, options, problems);
    report.rubrics = judged.results;
    lines.push(...judged.lines);
  }
  const failed = scorecardFailed(lines) || problems.length > 0;
  if (options.json) {
    io.out(JSON.stringify({ passed: !failed, lines, report, problems }, null, 2));
  } else {
    const where = report.path !== undefined ? ` (${report.path})` : '';
    io.out(formatScorecard(`workup ${report.workup}${where}`, lines, io));
  }
  for (const problem of problems) io.err(`${c.red('✗')} ${formatDiagnostic(problem)}`);
  return failed ? 1 : 0;
}

/** Citation precision and entailed recall with the NLI model (seed 001, Stage 2), as scorecard lines. */
async function entailmentLines(
  workup: Workup,
  settings: VerifierOptions,
  problems: Diagnostic[],
): Promise<{ result: CitationPrecision; lines: ScorecardLine[] } | undefined> {
  const { createVerifierFromOptions, citationPrecision, describeUnsupported } = await import(
    '../../entailment/index.js'
  );
  let verifier: Awaited<ReturnType<typeof createVerifierFromOptions>>;
  try {
    verifier = await createVerifierFromOptions(settings);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    problems.push(...error.diagnostics);
    return undefined;
  }
  if (!verifier) {
    problems.push({
      file: '--entail',
      message: `no NLI model: ${NLI_MODEL_HINT}`,
    });
    return undefined;
  }
  const result = await citationPrecision(workup, verifier);
  const unsupported = describeUnsupported(result);
  const value = (x: number | null) => (x === null ? 'n/a' : x.toFixed(2));
  const status = (x: number | null): ScorecardLine['status'] =>
    x === null ? 'n/a' : x >= 1 ? 'pass' : 'fail';
  return {
    result,
    lines: [
      {
        group: 'entailment',
        metric: 'citation precision',
        value: value(result.precision),
        threshold: '>= 1.00',
        status: status(workup.note ? result.precision : null),
        ...(unsupported.length > 0 && { detail: unsupported.join('; ') }),
      },
      {
        group: 'entailment',
        metric: 'entailed recall',
        value: value(result.recall),
        threshold: '>= 1.00',
        status: status(workup.note ? result.recall : null),
      },
    ],
  };
}

/** Each rubric scored by the judge: one line per criterion and one for the weighted total. */
async function rubricLines(
  workup: Workup,
  options: ScoreOptions,
  problems: Diagnostic[],
): Promise<{ results: RubricScore[]; lines: ScorecardLine[] }> {
  const specs = await loadSpecs(options.rubrics ?? []);
  problems.push(...specs.errors);
  const { createJudgeFromSpec } = await import('../../judge/from-spec.js');
  const { scoreRubric } = await import('../../rubric/score.js');
  const results: RubricScore[] = [];
  const lines: ScorecardLine[] = [];
  if (specs.rubrics.length === 0) return { results, lines };
  const judge = await createJudgeFromSpec(options.judge);
  for (const rubric of specs.rubrics) {
    const result = await scoreRubric(workup, rubric, {
      judge,
      ...(options.samples !== undefined && { samples: options.samples }),
    });
    results.push(result);
    for (const c of result.criteria) {
      lines.push({
        group: `rubric ${rubric.id}`,
        metric: c.criterion,
        value: c.score === null ? 'n/a' : `${c.score} of 5`,
        threshold: `>= ${c.threshold}`,
        status: c.verdict === 'pass' ? 'pass' : 'fail',
        detail:
          c.score === null
            ? (c.error?.message ?? 'the judge gave no verdict')
            : `${Math.round((c.agreement?.agreement ?? 0) * 100)}% of ${c.samplesValid} samples agree; ${c.rationale ?? ''}`.trim(),
      });
    }
    lines.push({
      group: `rubric ${rubric.id}`,
      metric: 'weighted total',
      value: result.total === null ? 'n/a' : result.total.toFixed(2),
      threshold: `>= ${result.threshold}`,
      status: result.verdict === 'pass' ? 'pass' : 'fail',
    });
  }
  await judge.flush?.();
  return { results, lines };
}

async function readGold(file: string): Promise<Trajectory> {
  const text = await readFile(resolve(file), 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new UserError({
      file,
      message: error.code === 'ENOENT' ? 'no such file' : `cannot read: ${error.code}`,
    });
  });
  return fromSeedTrajectory(parseJson(text, file), {
    file,
    locate: (path, key) => locateInJson(text, path, key),
  });
}
