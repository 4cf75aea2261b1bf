import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fromTrajectoryJson } from '../../adapters/trajectory-json.js';
import { checkWorkup } from '../../checks/check-workup.js';
import type { CheckOptions } from '../../checks/spec.js';
import type { CitationPrecision } from '../../entailment/citations/precision.js';
import type { VerifierOptions } from '../../entailment/create.js';
import { NLI_MODEL_HINT } from '../../entailment/resolve.js';
import { type Diagnostic, formatDiagnostic, UserError } from '../../errors/index.js';
import type { Judge } from '../../judge/types.js';
import { citationRecall, resolveCitations } from '../../metrics/citations/index.js';
import { lintEstimativeLanguage } from '../../metrics/tradecraft/index.js';
import { pairScores, trajectorySimilarity } from '../../metrics/trajectory/index.js';
import type { EntailmentVerifier } from '../../model/entailment.js';
import type { CasesSpec, NeedleSpec, RubricSpec, Spec } from '../../model/spec.js';
import type { Trajectory } from '../../model/trajectory.js';
import type { Workup } from '../../model/workup.js';
import { parseJson } from '../../parse/json.js';
import { locateInJson } from '../../parse/locate.js';
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
  /**
   * Lint the note's estimative language against ICD 203 (`--tradecraft`). Off by default unless a needle is scored:
   * ICD 203 is intelligence tradecraft, and a support or coding agent's note is not held to it.
   */
  tradecraft?: boolean;
}

/**
 * What `needlework score` reports on one workup: the checks of the specs (decided by `checkWorkup`, exactly as the
 * YAML-spec tests decide them), and the measurements without a verdict: citation resolution and structural recall,
 * the ICD 203 lint (asked for, or with a needle among the specs) and, with a trajectory and a gold one, the trajectory
 * metrics.
 */
export async function scoreWorkup(
  workup: Workup,
  specs: readonly Spec[],
  options: CheckOptions & { gold?: Trajectory; tradecraft?: boolean } = {},
): Promise<ScoreReport> {
  const note = workup.note;
  const { gold, tradecraft, ...checkOptions } = options;
  const lint = tradecraft ?? specs.some((spec) => spec.kind === 'needle');
  const report: ScoreReport = {
    workup: workup.id,
    ...(workup.meta.path !== undefined && { path: workup.meta.path }),
    checks: await checkWorkup(workup, specs, { ...checkOptions, matchWorkupPatterns: false }),
    resolution: resolveCitations(workup),
    citationRecall: note ? citationRecall(note) : null,
    tradecraft: note && lint ? lintEstimativeLanguage(note) : null,
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

/** The seed 002 metrics of a trajectory against its gold (the calls numbered once for all of them). */
export function trajectoryScores(trajectory: Trajectory, gold: Trajectory): TrajectoryScores {
  const scores = pairScores(trajectory, gold);
  return {
    gold: gold.task_id,
    stepPrecision: scores.stepPrecision,
    stepRecall: scores.stepRecall,
    stepF1: scores.stepF1,
    toolEfficiency: scores.toolEfficiency,
    redundancyRate: scores.redundancyRate,
    errorRecoveryRate: scores.errorRecoveryRate,
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

  const needles: Array<NeedleSpec | CasesSpec> = [];
  let patterns = options.needles ?? [];
  const explicit = patterns.length > 0;
  if (!explicit) {
    const folder = join(options.cwd ?? process.cwd(), 'needles');
    if ((await stat(folder).catch(() => undefined))?.isDirectory()) patterns = [folder];
  }
  if (patterns.length > 0) {
    const specs = await loadSpecs(patterns);
    // A needle named on the command line is scored; one found in ./needles only when its `workups` take this one.
    // Task cases always apply to the runs of their cases.
    needles.push(
      ...(explicit ? specs.needles : specs.needles.filter((n) => appliesTo(n.workups, workup.id))),
      ...specs.cases,
    );
    for (const d of specs.errors) problems.push(d);
    if (explicit && needles.length === 0 && specs.errors.length === 0) {
      problems.push({
        file: patterns.join(', '),
        message: 'no needle or task-case specs (*.needle.yaml, *.cases.yaml) found',
      });
    }
  }
  let gold: Trajectory | undefined;
  if (options.gold !== undefined) {
    try {
      gold = await readGold(options.gold);
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      for (const d of error.diagnostics) problems.push(d);
    }
  }

  const verifier = options.entail ? await loadVerifier(options.entail, problems) : undefined;
  const rubrics = await loadRubrics(options, problems);
  const judge = rubrics.length > 0 ? await createJudge(options, problems) : undefined;
  const report: ScoreReport & { entailment?: CitationPrecision } = await scoreWorkup(
    workup,
    [...needles, ...rubrics],
    {
      ...(gold && { gold }),
      ...(options.tradecraft !== undefined && { tradecraft: options.tradecraft }),
      ...(verifier && { verifier }),
      ...(judge && { judge: { judge, ...(options.samples !== undefined && { samples: options.samples }) } }),
    },
  );
  await judge?.flush?.();
  const lines = scorecardLines(report);
  if (verifier) {
    // Measured on the whole note, whether or not a needle holds it to a mark (its checks carry the verdicts).
    const { citationPrecision, describeUnsupported } = await import(
      '../../entailment/citations/precision.js'
    );
    report.entailment = await citationPrecision(workup, verifier);
    lines.push(...entailmentLines(report.entailment, describeUnsupported(report.entailment)));
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

/** The NLI model for `--entail`, or undefined with the problem recorded. */
async function loadVerifier(
  settings: VerifierOptions,
  problems: Diagnostic[],
): Promise<EntailmentVerifier | undefined> {
  const { createVerifierFromOptions } = await import('../../entailment/create.js');
  try {
    const verifier = await createVerifierFromOptions(settings);
    if (verifier) return verifier;
    problems.push({
      file: '--entail',
      message: `no NLI model: ${NLI_MODEL_HINT}`,
    });
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    for (const d of error.diagnostics) problems.push(d);
  }
  return undefined;
}

async function loadRubrics(options: ScoreOptions, problems: Diagnostic[]): Promise<RubricSpec[]> {
  if (!options.rubrics || options.rubrics.length === 0) return [];
  const specs = await loadSpecs(options.rubrics);
  for (const d of specs.errors) problems.push(d);
  return specs.rubrics;
}

async function createJudge(options: ScoreOptions, problems: Diagnostic[]): Promise<Judge | undefined> {
  const { createJudgeFromSpec } = await import('../../judge/from-spec.js');
  try {
    return await createJudgeFromSpec(options.judge);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    for (const d of error.diagnostics) problems.push(d);
    return undefined;
  }
}

/** Citation precision and entailed recall of the whole note, measured (the needles' checks hold them to marks). */
function entailmentLines(result: CitationPrecision, unsupported: string[]): ScorecardLine[] {
  const value = (x: number | null) => (x === null ? 'n/a' : x.toFixed(2));
  return [
    {
      group: 'entailment',
      metric: 'citation precision',
      value: value(result.precision),
      threshold: '',
      status: result.precision === null ? 'n/a' : 'info',
      ...(unsupported.length > 0 && { detail: unsupported.join('; ') }),
    },
    {
      group: 'entailment',
      metric: 'entailed recall',
      value: value(result.recall),
      threshold: '',
      status: result.recall === null ? 'n/a' : 'info',
    },
  ];
}

async function readGold(file: string): Promise<Trajectory> {
  const text = await readFile(resolve(file), 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new UserError({
      file,
      message: error.code === 'ENOENT' ? 'no such file' : `cannot read: ${error.code}`,
    });
  });
  return fromTrajectoryJson(parseJson(text, file), {
    file,
    locate: (path, key) => locateInJson(text, path, key),
  });
}
