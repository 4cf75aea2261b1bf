import { stat } from 'node:fs/promises';
import { findSpecs, findWorkups, isSpecFile } from '../../discover/find.js';
import { type Diagnostic, formatDiagnostic } from '../../errors/index.js';
import { plural } from '../../io/plural.js';
import { colors, type Io } from '../io.js';

export interface ValidateOptions {
  /** Spec files, workup folders or files, folders holding either, or globs. */
  paths: string[];
}

/**
 * Validates every spec and workup the paths name, prints every problem as `file:line:column: message` and a
 * summary of what was found, and returns 1 when anything was wrong (0 when all is clean).
 */
export async function runValidate(options: ValidateOptions, io: Io): Promise<number> {
  const c = colors(io);
  const specPatterns: string[] = [];
  const workupPatterns: string[] = [];
  const problems: Diagnostic[] = [];
  for (const path of options.paths) {
    const kinds = await classify(path);
    if (kinds.length === 0)
      problems.push({
        file: path,
        message: 'no specs (*.needle.yaml, *.rubric.yaml, *.cases.yaml) or workups found',
      });
    if (kinds.includes('spec')) specPatterns.push(path);
    if (kinds.includes('workup')) workupPatterns.push(path);
  }
  // Each loader is imported only when there is something for it: the note parser behind workups costs more to load
  // than a spec takes to check, and `validate <spec>` should start as fast as Node does.
  const specs =
    specPatterns.length > 0 ? await (await import('../../specs/load.js')).loadSpecs(specPatterns) : undefined;
  const workups =
    workupPatterns.length > 0
      ? await (await import('../../workup/load.js')).loadWorkups(workupPatterns)
      : undefined;
  // One push per problem: spreading 100,000 of them into push() would overflow the stack.
  for (const d of specs?.errors ?? []) problems.push(d);
  for (const f of workups?.failures ?? []) for (const d of f.diagnostics) problems.push(d);

  const everyWorkup = (spec: { workups?: string[] }) =>
    spec.workups === undefined || spec.workups.length === 0
      ? '; applies to every workup (no workups patterns)'
      : '';
  for (const needle of specs?.needles ?? []) {
    io.out(
      `${c.green('✓')} needle ${c.bold(needle.id)} ${c.dim(`(${needle.file}): ${needle.required_path.relations.join(' → ')}${everyWorkup(needle)}`)}`,
    );
  }
  for (const rubric of specs?.rubrics ?? []) {
    io.out(
      `${c.green('✓')} rubric ${c.bold(rubric.id)} ${c.dim(`(${rubric.file}): ${plural(rubric.criteria.length, 'criterion', 'criteria')}${everyWorkup(rubric)}`)}`,
    );
  }
  const warnings: string[] = [];
  // The checks behind cases specs pull in every metric: load them only for a cases spec.
  const cases = (specs?.cases.length ?? 0) > 0 ? await import('../../checks/cases.js') : undefined;
  for (const spec of specs?.cases ?? []) {
    const { caseCriteria, runsOfCases, unusedTools } = cases!;
    const checks = spec.cases.reduce((n, c) => n + caseCriteria(spec, c).length, 0);
    const counts = `${plural(spec.cases.length, 'valid case')}, ${plural(checks, 'assertion')}`;
    // A file with a bad case is not valid: its problems are listed below, each at its line.
    if (spec.invalid.length > 0)
      io.err(
        `${c.red('✗')} cases ${c.bold(spec.id)} ${c.dim(`(${spec.file}): ${plural(spec.invalid.length, 'invalid case')} (${spec.invalid.map((one) => one.id).join(', ')}); ${counts}`)}`,
      );
    else io.out(`${c.green('✓')} cases ${c.bold(spec.id)} ${c.dim(`(${spec.file}): ${counts}`)}`);
    // With workups named too, each case must have a run, and the tools it names should be ones its runs call.
    if (!workups) continue;
    const runsOf = runsOfCases(spec, workups.workups);
    for (const taskCase of spec.cases) {
      const runs = runsOf.get(taskCase) ?? [];
      if (runs.length === 0) {
        problems.push({
          file: spec.file ?? spec.id,
          ...(taskCase.line !== undefined && { line: taskCase.line }),
          message: `case ${taskCase.id} matches no workup (looked for ${taskCase.workups.join(', ')} and meta.json task "${taskCase.id}")`,
        });
      }
      warnings.push(
        ...unusedTools(taskCase, runs).map(
          (w) => `${spec.file}${taskCase.line ? `:${taskCase.line}` : ''}: ${w}`,
        ),
      );
    }
  }
  for (const workup of workups?.workups ?? []) {
    const parts = [
      workup.note
        ? `${plural(workup.note.segments.length, 'segment')}, ${plural(workup.note.citations.length, 'citation')}`
        : 'no note',
      plural(workup.ledger.length, 'ledger entry', 'ledger entries'),
      workup.trajectory ? plural(workup.trajectory.steps.length, 'step') : 'no trajectory',
      ...(workup.gold ? ['gold trajectory'] : []),
    ];
    io.out(
      `${c.green('✓')} workup ${c.bold(workup.id)} ${c.dim(`(${workup.meta.path}): ${parts.join(', ')}`)}`,
    );
  }
  for (const problem of problems) io.err(`${c.red('✗')} ${formatDiagnostic(problem)}`);
  for (const warning of warnings) io.err(`${c.yellow('!')} ${warning}`);

  const validCases = specs?.cases.filter((spec) => spec.invalid.length === 0).length ?? 0;
  const counted = [
    plural((specs?.needles.length ?? 0) + (specs?.rubrics.length ?? 0) + validCases, 'spec'),
    plural(workups?.workups.length ?? 0, 'workup'),
  ].join(', ');
  if (problems.length > 0) {
    io.err(c.red(`\n${plural(problems.length, 'problem')} found; ${counted} valid`));
    return 1;
  }
  io.out(c.green(`\nAll valid: ${counted}`));
  return 0;
}

/** Whether a path names specs, workups or both (a folder may hold both kinds). */
async function classify(path: string): Promise<Array<'spec' | 'workup'>> {
  const info = await stat(path).catch(() => undefined);
  if (info?.isFile()) return [isSpecFile(path) ? 'spec' : 'workup'];
  const [specs, workups] = await Promise.all([findSpecs(path), findWorkups(path)]);
  const kinds: Array<'spec' | 'workup'> = [];
  if (specs.paths.length > 0) kinds.push('spec');
  if (workups.paths.length > 0) kinds.push('workup');
  if (kinds.length === 0 && !info && specs.diagnostics.some((d) => d.message === 'no such file or folder')) {
    return ['spec']; // let the loader report the missing path in its own words
  }
  return kinds;
}
