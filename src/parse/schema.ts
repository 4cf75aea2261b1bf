import type { ErrorObject, ValidateFunction } from 'ajv';
import { closest } from '../errors/closest.js';
import type { Diagnostic } from '../errors/index.js';
import type { Place } from './locate.js';
import { exportName, type SchemaName } from './schema-names.js';
import * as generated from './validators.generated.js';

export type { SchemaName };

/**
 * The validator for a shipped schema (`allErrors`, so every problem is reported). The validators are compiled ahead
 * of time into `validators.generated.ts`, so checking one spec loads neither Ajv nor its code generator.
 */
export function validator(name: SchemaName): ValidateFunction {
  return (generated as unknown as Record<string, ValidateFunction>)[exportName(name)]!;
}

/** Whether `value` satisfies a shipped schema: the check alone, no problem worded. */
export function satisfiesSchema(name: SchemaName, value: unknown): boolean {
  return validator(name)(value) === true;
}

/**
 * Validates `value` against a shipped schema; returns one diagnostic per problem, each placed by `locate` and
 * worded as `path what-was-expected` (for example `required_path.relations[1] must be a string`).
 */
export function checkSchema(
  name: SchemaName,
  value: unknown,
  file: string,
  locate: (path: readonly string[], key?: string) => Place | undefined,
): Diagnostic[] {
  const problems = schemaProblems(name, value, MAX_PLACED);
  const placed = placeProblems(problems, file, locate);
  if (problems.more > 0) placed.push({ file, message: `and ${problems.more} more schema errors` });
  return placed;
}

/**
 * How many problems of one file `checkSchema` words and places; the rest are counted. Past a thousand, one more line
 * helps no one, and a megabyte of bad items would otherwise cost seconds of wording.
 */
export const MAX_PLACED = 1000;

/** One schema problem: where in the data (`['cases', '2', 'expect']`) and what was expected. */
export interface SchemaProblem {
  segments: string[];
  /** The offending key, for an unknown key. */
  key?: string;
  message: string;
}

/**
 * The problems of `value` against a shipped schema, each once, with its data path (for grouping by case). With
 * `limit`, only that many are worded, and `more` counts the schema errors left (a repeated one counted again).
 */
export function schemaProblems(
  name: SchemaName,
  value: unknown,
  limit = Number.POSITIVE_INFINITY,
): SchemaProblem[] & { more: number } {
  const validate = validator(name);
  const problems = Object.assign([] as SchemaProblem[], { more: 0 });
  if (validate(value)) return problems;
  const seen = new Set<string>();
  for (const error of validate.errors ?? []) {
    if (error.keyword === 'if') continue; // its branch's own errors say what is wrong
    if (problems.length >= limit) {
      problems.more++;
      continue;
    }
    const segments = error.instancePath.split('/').slice(1).map(unescapePointer);
    const message = describe(error, value, segments);
    if (seen.has(message)) continue;
    seen.add(message);
    const key = keyOf(error);
    problems.push({ segments, ...(key !== undefined && { key }), message });
  }
  return problems;
}

/** Schema problems as diagnostics, placed in the file by `locate`, in file order. */
export function placeProblems(
  problems: readonly SchemaProblem[],
  file: string,
  locate: (path: readonly string[], key?: string) => Place | undefined,
): Diagnostic[] {
  return problems
    .map((p): Diagnostic => {
      const where = locate(p.segments, p.key);
      return { file, line: where?.line, column: where?.column, message: p.message };
    })
    .sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function keyOf(error: ErrorObject): string | undefined {
  if (error.keyword === 'additionalProperties') return String(error.params.additionalProperty);
  return undefined;
}

/** `required_path.relations[1]`: dots between keys, brackets for list positions, as a reader writes it. */
export function formatDataPath(value: unknown, segments: readonly string[]): string {
  let out = '';
  let node: unknown = value;
  for (const segment of segments) {
    if (Array.isArray(node)) out += `[${segment}]`;
    else out += out === '' ? segment : `.${segment}`;
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[segment] : undefined;
  }
  return out;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
};

function describe(error: ErrorObject, root: unknown, segments: string[]): string {
  const path = formatDataPath(root, segments);
  const subject = path === '' ? 'the document' : path;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type': {
      const expected = (error.parentSchema as Record<string, unknown> | undefined)?.['x-expected'];
      if (typeof expected === 'string') return `${subject} must be ${expected}`;
      const types = String(params.type).split(',');
      return `${subject} must be ${types.map((t) => TYPE_WORDS[t] ?? t).join(' or ')}`;
    }
    case 'required': {
      const missing = formatDataPath(root, [...segments, String(params.missingProperty)]);
      return `${missing} is required`;
    }
    case 'additionalProperties': {
      const known = Object.keys(
        ((error.parentSchema as Record<string, unknown> | undefined)?.properties as object | undefined) ?? {},
      );
      const extra = String(params.additionalProperty);
      const near = closest(extra, known);
      const where = path === '' ? '' : ` in ${path}`;
      return `unknown key "${extra}"${where}${near ? ` (did you mean "${near}"?)` : ''}; expected one of: ${known.join(', ')}`;
    }
    case 'enum':
      return `${subject} must be one of: ${(params.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'minItems':
      return `${subject} must have at least ${params.limit} item${params.limit === 1 ? '' : 's'}`;
    case 'minLength':
      return params.limit === 1
        ? `${subject} must not be empty`
        : `${subject} must have at least ${params.limit} characters`;
    case 'pattern':
      return `${subject} must match ${params.pattern}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${subject} must be ${params.comparison} ${params.limit}`;
    case 'uniqueItems':
      return `${subject} must not repeat an item (items ${params.j} and ${params.i} are the same)`;
    default:
      return `${subject} ${error.message ?? 'is invalid'}`;
  }
}
