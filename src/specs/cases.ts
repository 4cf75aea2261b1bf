import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Diagnostic } from '../errors/index.js';
import { UserError } from '../errors/index.js';
import type { SpecPlace } from '../model/check.js';
import type {
  AnswerAssertion,
  CaseAssertions,
  CasesSpec,
  ExpectedToolCall,
  RubricSpec,
  TaskCase,
} from '../model/spec.js';
import { toolCallTrajectory } from '../model/trajectory.js';
import type { Place } from '../parse/position.js';
import { placeProblems, schemaProblems } from '../parse/schema.js';
import { readYaml } from '../parse/yaml.js';
import { normalizeRubric, type RubricYaml } from './normalize.js';
import { type KeyPlace, rubricPlaces, yamlKeyPlace } from './places.js';
import { parseSchemaSpec } from './schema-spec.js';

/** A case of the YAML, once the schema has accepted it. */
interface CaseYaml {
  id: string;
  input?: string;
  workups?: string[];
  gold?: ExpectedToolCall[];
  expect?: ExpectYaml;
}

interface ExpectYaml {
  tool_calls?: {
    calls: ExpectedToolCall[];
    match?: string;
    args?: string;
    overrides?: Record<string, unknown>;
  };
  tools?: {
    must_call?: Array<string | { name: string; min?: number }>;
    must_not_call?: string[];
    max_calls?: Record<string, number>;
    order?: string[];
  };
  answer?: Omit<AnswerAssertion, 'contains' | 'not_contains' | 'regex' | 'f1'> & {
    contains?: string | string[];
    not_contains?: string | string[];
    regex?: string;
    f1?: { value: string; min?: number };
  };
  steps?: CaseAssertions['steps'];
  grounded?: CaseAssertions['grounded'];
  judge?: string | Omit<RubricYaml, 'id'>;
}

interface CasesYaml {
  id: string;
  title?: string;
  description?: string;
  defaults?: ExpectYaml;
  cases: CaseYaml[];
}

/**
 * Parses and validates a task-cases file. A case that cannot be read as YAML (a syntax error inside it) is an invalid
 * case, at its place, and the other cases still read (see `readYaml`); a problem outside the cases fails the file.
 */
export function parseCasesText(text: string, file: string): CasesSpec {
  const { value, places, broken } = readYaml(text, file);
  const unread = new Map<number, Diagnostic[]>();
  for (const item of broken) if (item.list === 'cases') unread.set(item.index, item.diagnostics);
  if (unread.size < broken.length)
    throw new UserError(
      inFileOrder(
        broken.flatMap((item) => item.diagnostics),
        file,
      ),
    );
  return parseCases(
    value,
    file,
    {
      where: (path, key) => places.where(path, key),
      caseLine: (index) => places.where(['cases', String(index)])?.line,
      place: yamlKeyPlace(places),
    },
    unread,
  );
}

type Where = (path: readonly string[], key?: string) => { line: number; column: number } | undefined;

/**
 * Where the parts of a cases file stand: a data path's place (for diagnostics), the line where case `index` starts,
 * and where a key is written (for the places of cases and assertions).
 */
interface Places {
  where: Where;
  caseLine(index: number): number | undefined;
  place: KeyPlace;
}

/**
 * Builds the cases of a parsed file. A problem inside one case (an unknown assertion key, a wrong type, a regex that
 * does not compile, a judge rubric that does not load) marks that case invalid, placed at file:line:column, and the
 * other cases load. A problem of the file as a whole (its `defaults` included: a bad default is every case's) throws
 * a `UserError` that holds every problem of the file, each case's too, so one pass of `validate` shows them all.
 */
function parseCases(
  value: unknown,
  file: string,
  { where, caseLine, place }: Places,
  /** The YAML problems of each case that could not be read (null in `value`). */
  unread: ReadonlyMap<number, Diagnostic[]>,
): CasesSpec {
  const problems = schemaProblems('cases', value).filter(
    (p) => !(p.segments[0] === 'cases' && unread.has(Number(p.segments[1]))),
  );
  const whole = problems.filter((p) => p.segments[0] !== 'cases' || p.segments.length < 2);
  const fileProblems = placeProblems(whole, file, where);
  const record = value !== null && typeof value === 'object' && !Array.isArray(value);
  const listed = record && Array.isArray((value as { cases?: unknown }).cases);
  if (!listed) throw new UserError(fileProblems);
  const rubricFiles = new Map<string, RubricFile>();
  // What the schema cannot see in the defaults: each is checked once, and placed where the default is written.
  const defaults = (value as { defaults?: unknown }).defaults;
  if (defaults !== null && typeof defaults === 'object')
    fileProblems.push(
      ...unschemaProblems(
        defaults as ExpectYaml,
        file,
        (p, k) => where(['defaults', ...p], k),
        rubricFiles,
        'defaults',
      ),
    );

  const yaml = value as CasesYaml;
  const byCase = new Map<number, Diagnostic[]>(unread);
  for (const p of problems) {
    const index = Number(p.segments[1]);
    byCase.set(index, [...(byCase.get(index) ?? []), ...placeProblems([p], file, where)]);
  }
  const cases: TaskCase[] = [];
  const invalid: CasesSpec['invalid'] = [];
  const seen = new Map<string, number>();
  // A rubric file named by many cases (a default `judge:`) is read and checked once per cases file (`rubricFiles`).
  yaml.cases.forEach((c, index) => {
    const path = ['cases', String(index)];
    const line = caseLine(index);
    const diagnostics = byCase.get(index) ?? [];
    const id = typeof c?.id === 'string' ? c.id : `case ${index + 1}`;
    const first = seen.get(id);
    if (first !== undefined) {
      diagnostics.push({
        file,
        ...where([...path, 'id']),
        message: `duplicate case id "${id}" (also at line ${first})`,
      });
    }
    seen.set(id, line ?? 0);
    const inCase: Where = (p, k) => where([...path, ...p], k);
    if (diagnostics.length === 0 && fileProblems.length === 0) {
      const built = buildCase(c, yaml.defaults, file, inCase, line, rubricFiles, `cases[${index}].expect`);
      if ('diagnostics' in built) for (const d of built.diagnostics) diagnostics.push(d);
      else {
        const casePlace = place(path, 'id');
        cases.push({
          ...built.case,
          ...(casePlace && { place: casePlace }),
          places: assertionPlaces(c.expect ?? {}, yaml.defaults, built.case.expect, path, place),
        });
      }
    } else if (c !== null && typeof c === 'object' && c.expect !== null && typeof c.expect === 'object') {
      // The schema found problems (here or in the file): what it cannot see is still checked, so one pass says all.
      diagnostics.push(
        ...unschemaProblems(
          c.expect,
          file,
          (p, k) => inCase(['expect', ...p], k),
          rubricFiles,
          `cases[${index}].expect`,
        ),
      );
    }
    if (diagnostics.length > 0)
      invalid.push({ id, ...(line !== undefined && { line }), diagnostics: inFileOrder(diagnostics, file) });
  });
  if (fileProblems.length > 0) {
    const all = [...fileProblems, ...invalid.flatMap((c) => c.diagnostics)];
    throw new UserError(inFileOrder(all, file));
  }
  return {
    kind: 'cases',
    id: yaml.id,
    ...(yaml.title !== undefined && { title: yaml.title }),
    ...(yaml.description !== undefined && { description: yaml.description }),
    cases,
    invalid,
    file,
  };
}

function buildCase(
  c: CaseYaml,
  defaults: ExpectYaml | undefined,
  file: string,
  where: Where,
  line: number | undefined,
  rubricFiles: Map<string, RubricFile>,
  label: string,
): { case: TaskCase } | { diagnostics: Diagnostic[] } {
  const own = c.expect ?? {};
  // Defaults merge key by key into the case's own rules of a kind; tool_calls and judge are replaced whole.
  const merged: ExpectYaml = { ...defaults, ...own };
  for (const kind of ['tools', 'answer', 'steps', 'grounded'] as const) {
    if (defaults?.[kind] && own[kind]) Object.assign(merged, { [kind]: { ...defaults[kind], ...own[kind] } });
  }
  // A default's problems are placed where the default is written; the case's own at the case.
  const placeOf = (kind: keyof ExpectYaml, path: string[]) =>
    kind in own ? where(['expect', kind, ...path]) : undefined;
  const diagnostics: Diagnostic[] = [];
  const expect: CaseAssertions = {};
  if (merged.tool_calls) {
    const t = merged.tool_calls;
    expect.tool_calls = {
      calls: t.calls,
      match: (t.match ?? 'strict') as NonNullable<CaseAssertions['tool_calls']>['match'],
      args: (t.args ?? 'exact') as NonNullable<CaseAssertions['tool_calls']>['args'],
      ...(t.overrides && {
        overrides: t.overrides as NonNullable<CaseAssertions['tool_calls']>['overrides'],
      }),
    };
  }
  if (merged.tools) {
    const t = merged.tools;
    expect.tools = {
      ...(t.must_call && {
        must_call: t.must_call.map((m) =>
          typeof m === 'string' ? { name: m, min: 1 } : { name: m.name, min: m.min ?? 1 },
        ),
      }),
      ...(t.must_not_call && { must_not_call: t.must_not_call }),
      ...(t.max_calls && { max_calls: t.max_calls }),
      ...(t.order && { order: t.order }),
    };
  }
  if (merged.answer) {
    const { contains, not_contains, regex, f1, ...rest } = merged.answer;
    const answer: AnswerAssertion = { ...rest };
    if (contains !== undefined) answer.contains = typeof contains === 'string' ? [contains] : contains;
    if (not_contains !== undefined)
      answer.not_contains = typeof not_contains === 'string' ? [not_contains] : not_contains;
    if (f1) answer.f1 = { value: f1.value, min: f1.min ?? 1 };
    if (regex !== undefined) {
      const compiled = compileRegex(regex);
      if (typeof compiled === 'string')
        diagnostics.push(regexProblem(compiled, file, placeOf('answer', ['regex']), label));
      else answer.regex = compiled;
    }
    expect.answer = answer;
  }
  if (merged.steps) expect.steps = merged.steps;
  if (merged.grounded) expect.grounded = merged.grounded;
  if (merged.judge !== undefined) {
    const judge = loadJudge(merged.judge, c.id, file, rubricFiles, placeOf('judge', []), label);
    if ('diagnostics' in judge) for (const d of judge.diagnostics) diagnostics.push(d);
    else expect.judge = judge.rubric;
  }
  if (diagnostics.length > 0) return { diagnostics };
  return {
    case: {
      id: c.id,
      ...(c.input !== undefined && { input: c.input }),
      workups: c.workups ?? [c.id],
      ...(c.gold && { gold: toolCallTrajectory(c.id, c.gold) }),
      expect,
      ...(line !== undefined && { line }),
    },
  };
}

/**
 * The problems of a case's (or the defaults') assertions that the schema cannot see: an `answer.regex` that does not
 * compile and a `judge` rubric file that does not load. Read defensively: the schema may have rejected the rest.
 */
function unschemaProblems(
  expect: ExpectYaml,
  file: string,
  where: Where,
  rubricFiles: Map<string, RubricFile>,
  /** How the assertions' path reads in a message: `cases[2].expect`, `defaults`. */
  label: string,
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const answer = expect.answer as unknown;
  const regex =
    answer !== null && typeof answer === 'object' ? (answer as { regex?: unknown }).regex : undefined;
  if (typeof regex === 'string') {
    const compiled = compileRegex(regex);
    if (typeof compiled === 'string')
      diagnostics.push(regexProblem(compiled, file, where(['answer', 'regex']), label));
  }
  if (typeof expect.judge === 'string') {
    const judge = loadJudge(expect.judge, '', file, rubricFiles, where(['judge']), label);
    if ('diagnostics' in judge) diagnostics.push(...judge.diagnostics);
  }
  return diagnostics;
}

function regexProblem(
  reason: string,
  file: string,
  place: Place | undefined,
  /** How the assertions' path reads in a message: `cases[2].expect`, `defaults`. */
  label: string,
): Diagnostic {
  return { file, ...place, message: `${label}.answer.regex ${reason}` };
}

/** Diagnostics in the order of the file, each once (a problem can be found both by the schema and beyond it). */
function inFileOrder(diagnostics: readonly Diagnostic[], file: string): Diagnostic[] {
  const seen = new Set<string>();
  const rank = (d: Diagnostic) => (d.file === file ? 0 : 1);
  return [...diagnostics]
    .filter((d) => {
      const key = `${d.file}:${d.line}:${d.column}:${d.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => rank(a) - rank(b) || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}

/**
 * Where each assertion of a case is written: each kind's key (`tools:`) and each key within a kind
 * (`tools.must_call`), in the case's own `expect` or, for what it takes from them, in the file's `defaults`. An
 * inline judge rubric's criteria are placed at their `id:` (`judge.<criterion>`).
 */
function assertionPlaces(
  own: ExpectYaml,
  defaults: ExpectYaml | undefined,
  expect: CaseAssertions,
  casePath: readonly string[],
  place: KeyPlace,
): Record<string, SpecPlace> {
  const places: Record<string, SpecPlace> = {};
  const ownPath = [...casePath, 'expect'];
  const set = (key: string, at: SpecPlace | undefined) => {
    if (at) places[key] = at;
  };
  for (const kind of Object.keys(expect) as Array<keyof CaseAssertions>) {
    const path = own[kind] !== undefined ? ownPath : ['defaults'];
    set(kind, place(path, kind));
    if (kind === 'judge') {
      if (typeof (own.judge ?? defaults?.judge) === 'object') {
        for (const [id, at] of Object.entries(
          rubricPlaces(expect.judge!.criteria, place, [...path, 'judge']),
        ))
          set(`judge.${id}`, at);
      }
      continue;
    }
    if (kind === 'tool_calls') continue;
    for (const key of Object.keys(expect[kind]!)) {
      const fromCase = (own[kind] as Record<string, unknown> | undefined)?.[key] !== undefined;
      set(`${kind}.${key}`, place(fromCase ? [...ownPath, kind] : ['defaults', kind], key));
    }
  }
  return places;
}

/** `/source/flags` or a bare source, compiled; the reason when it does not compile. */
function compileRegex(text: string): { source: string; flags: string } | string {
  const slashed = /^\/(.*)\/([a-z]*)$/s.exec(text);
  const source = slashed ? slashed[1]! : text;
  const flags = slashed ? slashed[2]! : '';
  try {
    new RegExp(source, flags);
    return { source, flags };
  } catch (error) {
    return `is not a valid regular expression: ${(error as Error).message.replace(/^Invalid regular expression: /, '')}`;
  }
}

type Judge = { rubric: RubricSpec } | { diagnostics: Diagnostic[] };
/** A judge rubric file as read once per cases file: its rubric, its own problems, or why it could not be read. */
type RubricFile = Judge | { unreadable: string };

/**
 * An inline rubric, or a rubric file relative to the cases file, as the case's judge rubric. A rubric file that
 * cannot be read is a problem at the line that names it (`place`); a rubric file that does not validate, at its own
 * lines in that file.
 */
function loadJudge(
  judge: string | Omit<RubricYaml, 'id'>,
  caseId: string,
  file: string,
  rubricFiles: Map<string, RubricFile>,
  place: Place | undefined,
  /** How the assertions' path reads in a message: `cases[2].expect`, `defaults`. */
  label: string,
): Judge {
  if (typeof judge !== 'string') return { rubric: normalizeRubric({ ...judge, id: caseId }, file) };
  const path = resolve(dirname(file), judge);
  let loaded = rubricFiles.get(path);
  if (loaded === undefined) {
    loaded = readRubricFile(path);
    rubricFiles.set(path, loaded);
  }
  if ('unreadable' in loaded)
    return { diagnostics: [{ file, ...place, message: `${label}.judge: ${judge} ${loaded.unreadable}` }] };
  return loaded;
}

function readRubricFile(path: string): RubricFile {
  try {
    // Loaded with the cases, synchronously: a rubric file is small, and a bad one is this case's problem.
    return { rubric: parseSchemaSpec(readFileSync(path, 'utf8'), path, 'rubric') as RubricSpec };
  } catch (error) {
    if (error instanceof UserError) return { diagnostics: [...error.diagnostics] };
    const code = (error as NodeJS.ErrnoException).code;
    return {
      unreadable: code === 'ENOENT' ? `is no such file (looked for ${path})` : `cannot be read: ${code}`,
    };
  }
}
