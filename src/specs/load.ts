import { findSpecs } from '../discover/find.js';
import { type Diagnostic, UserError } from '../errors/index.js';
import type { CasesSpec, NeedleSpec, RubricSpec, Spec } from '../model/spec.js';
import { parseCasesText } from './cases.js';
import { readSpecText, specKind } from './file.js';
import { parseSchemaSpec } from './schema-spec.js';

/**
 * Parses and validates one spec's YAML text. Throws a `UserError` holding every problem, each at its line and column:
 * `needles/bridge.needle.yaml:12:5: required_path.relations[1] must be a string`.
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { parseSpec, UserError } from 'needlework';
 *
 * const spec = parseSpec('id: x\nanswer: Compound-Alpha\nrequired_path: [MEMBER_OF]\n', 'x.needle.yaml');
 * assert.equal(spec.id, 'x');
 * assert.throws(
 *   () => parseSpec('id: x\nanswr: Compound-Alpha\n', 'x.needle.yaml'),
 *   (error) => error instanceof UserError && /x\.needle\.yaml:2:1: unknown key "answr"/.test(error.message),
 * );
 * ```
 */
export function parseSpec(text: string, file: string, kind: Spec['kind'] | undefined = specKind(file)): Spec {
  if (!kind) {
    throw new UserError({
      file,
      message: 'expected a spec file named *.needle.yaml, *.rubric.yaml or *.cases.yaml',
    });
  }
  return kind === 'cases' ? parseCasesText(text, file) : parseSchemaSpec(text, file, kind);
}

/**
 * Reads, parses and validates one spec file.
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { loadSpec } from 'needlework';
 *
 * const spec = await loadSpec('needles/compound-alpha.needle.yaml');
 * assert.equal(spec.kind, 'needle');
 * // A bad spec throws a UserError whose diagnostics say file:line:column and what was expected.
 * ```
 */
export async function loadSpec(file: string): Promise<Spec> {
  return parseSpec(await readSpecText(file), file);
}

export interface LoadedSpecs {
  needles: NeedleSpec[];
  rubrics: RubricSpec[];
  /** Task-case data sets; their invalid cases' problems are in `errors` too. */
  cases: CasesSpec[];
  /** Every problem in every spec, and every pattern that matched nothing. */
  errors: Diagnostic[];
  /** The spec files that failed, each with its problems (one failing test each in the Vitest plugin). */
  failures: Array<{ file: string; diagnostics: Diagnostic[] }>;
}

/**
 * Loads every spec named by files, folders and globs. A bad spec is reported and never stops the others; two specs
 * of one kind with the same id are reported as an error at the second.
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { formatDiagnostic, loadSpecs } from 'needlework';
 *
 * const specs = await loadSpecs(['needles', 'examples/support', 'examples/coding']);
 * console.log(specs.needles.length, 'needles,', specs.cases.length, 'case files');
 * // One bad spec never stops the others: its problems are listed, each placed.
 * for (const error of specs.errors) console.error(formatDiagnostic(error));
 * assert.deepEqual(specs.failures, []);
 * ```
 */
export async function loadSpecs(patterns: string | readonly string[]): Promise<LoadedSpecs> {
  const found = await findSpecs(patterns);
  const result: LoadedSpecs = {
    needles: [],
    rubrics: [],
    cases: [],
    errors: [...found.diagnostics],
    failures: [],
  };
  const ids = new Map<string, string>();
  for (const file of found.paths) {
    try {
      const spec = await loadSpec(file);
      const key = `${spec.kind}:${spec.id}`;
      const first = ids.get(key);
      if (first !== undefined)
        throw new UserError({ file, message: `duplicate ${spec.kind} id "${spec.id}" (also in ${first})` });
      ids.set(key, file);
      if (spec.kind === 'needle') result.needles.push(spec);
      else if (spec.kind === 'rubric') result.rubrics.push(spec);
      else {
        result.cases.push(spec);
        for (const c of spec.invalid) for (const d of c.diagnostics) result.errors.push(d);
      }
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      for (const d of error.diagnostics) result.errors.push(d);
      result.failures.push({ file, diagnostics: [...error.diagnostics] });
    }
  }
  return result;
}
