import { load as loadJsYaml } from 'js-yaml';
import type { CST, Document, LineCounter } from 'yaml';
import { type Diagnostic, UserError } from '../errors/index.js';
import { MAX_DEPTH, TOO_DEEP, yamlMayBeTooDeep } from './depth.js';
import { LineIndex } from './position.js';
import { MAX_YAML_ERRORS, yamlErrors } from './yaml-errors.js';
import { yamlPackage } from './yaml-package.js';

/** The most aliases one YAML file may expand; a "billion laughs" file is refused instead of exhausting memory. */
export const MAX_YAML_ALIASES = 100;
/** What a file past that limit is told (the `yaml` package's message for it). */
export const EXCESSIVE_ALIASES =
  'cannot expand the document: Excessive alias count indicates a resource exhaustion attack';

export interface ParsedYaml {
  value: unknown;
  doc: Document.Parsed;
  lines: LineCounter;
}

/** A problem the `yaml` package found in a text, at its offset. */
export interface YamlProblem {
  offset: number;
  message: string;
}

/**
 * What the `yaml` package makes of one YAML text: its first document, or its problems (with, when it read no further
 * than `MAX_YAML_ERRORS` syntax errors, the offset of the last token it read) and its syntax tree as far as it read, or
 * nothing to say where a text goes wrong (`unreadable`), or no document at all (`empty`).
 */
export type YamlReading =
  | { doc: Document.Parsed; lines: LineCounter }
  | { problems: YamlProblem[]; readTo?: number; tokens: readonly CST.Token[] }
  | 'unreadable'
  | 'empty';

/**
 * Parses one YAML document. Syntax errors, duplicate keys, alias bombs and nesting deeper than `MAX_DEPTH` become a
 * `UserError` with every problem's line and column; the document is kept so schema errors can be placed on their node
 * too.
 */
export function parseYaml(text: string, file: string): ParsedYaml {
  const reading = readYaml(text);
  if (reading === 'unreadable') throw unreadable(text, file);
  if (reading === 'empty') throw new UserError({ file, message: 'expected a YAML document, found nothing' });
  // Problems are placed in the text itself: the parser's line counter misses the lines inside a token it rejects (a
  // block scalar where none may stand), which put later errors lines too early.
  if ('problems' in reading) throw new UserError(yamlProblems(reading, new LineIndex(text), file));
  const { doc, lines } = reading;
  try {
    return { value: doc.toJS({ maxAliasCount: MAX_YAML_ALIASES }), doc, lines };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UserError({ file, message: `cannot expand the document: ${message}` });
  }
}

/**
 * The diagnostics of a reading's problems, placed by `index` at `place(offset)` (the offset itself, unless the text
 * read was cut from a larger one).
 */
export function yamlProblems(
  reading: { problems: readonly YamlProblem[]; readTo?: number },
  index: LineIndex,
  file: string,
  place: (offset: number) => number = (offset) => offset,
): Diagnostic[] {
  const errors = reading.problems.map((p) => ({ offset: place(p.offset), message: p.message }));
  // Stopped early, the composer saw the document up to where reading stopped: its first errors are the file's.
  const more =
    reading.readTo === undefined
      ? undefined
      : `and more YAML errors after line ${index.position(place(reading.readTo)).line}; needlework read no further`;
  return yamlErrors(errors, index, file, more);
}

/**
 * Reads one YAML text with the `yaml` package. The depth is measured on the syntax tree, which its parser builds
 * without recursion, before its composer (which recurses once per level) builds the document.
 */
export function readYaml(text: string): YamlReading {
  const { Composer, LineCounter, Parser, YAMLParseError } = yamlPackage();
  const tooDeep = (offset: number) => ({ problems: [{ offset, message: TOO_DEEP }], tokens: [] });
  // A text that may nest too deep is first parsed a little past where it may: a deep one is refused after parsing a
  // few hundred levels, not all of them.
  const suspect = yamlMayBeTooDeep(text);
  if (suspect !== -1) {
    const head = yamlTooDeep(Array.from(new Parser().parse(text.slice(0, suspect + 4 * MAX_DEPTH))));
    if (head !== -1) return tooDeep(head);
  }
  const lines = new LineCounter();
  const tokens: CST.Token[] = [];
  let syntaxErrors = 0;
  try {
    withoutStackTraces(() => {
      for (const token of new Parser(lines.addNewLine).parse(text)) {
        tokens.push(token);
        // A file this broken is read no further: composing a million stray tokens took seconds for as many errors.
        if (token.type === 'error' && ++syntaxErrors > MAX_YAML_ERRORS) break;
      }
    });
  } catch (error) {
    // The `yaml` parser recurses when a run of items ends under a broken indentation (3,000 `- { a: b }` lines after
    // a stray `}`): js-yaml reads the same text without recursion and says where it first goes wrong.
    if (!(error instanceof RangeError)) throw error;
    return 'unreadable';
  }
  const deep = yamlTooDeep(tokens);
  if (deep !== -1) return tooDeep(deep);
  // What `parseDocument` does, on the tokens already parsed: the first document, and an error for any other.
  let doc: Document.Parsed | undefined;
  // `logLevel: 'error'`: a collection used as a key becomes its text, which the spec's schema then reports as an
  // unknown key, at its line; the yaml package would also print a Node warning about it on stderr.
  const composer = new Composer({ prettyErrors: false, uniqueKeys: true, logLevel: 'error' });
  withoutStackTraces(() => {
    for (const next of composer.compose(tokens, true, text.length)) {
      if (!doc) doc = next;
      else {
        doc.errors.push(
          new YAMLParseError(
            [next.range[0], next.range[1]],
            'MULTIPLE_DOCS',
            'Source contains multiple documents; please use YAML.parseAllDocuments()',
          ),
        );
        break;
      }
    }
  });
  if (!doc) return 'empty';
  if (doc.errors.length === 0) return { doc, lines };
  const problems = doc.errors.map((error) => ({ offset: error.pos[0], message: error.message }));
  return syntaxErrors > MAX_YAML_ERRORS
    ? { problems, readTo: tokens.at(-1)!.offset, tokens }
    : { problems, tokens };
}

/**
 * Runs `fn` with no stack traces captured. The `yaml` package makes an Error for every problem it meets, each
 * capturing a stack trace that nobody reads (its message and place become ours): the fuzz bench's slowest input, 227 KB
 * of cases with thousands of duplicate keys, spent 12% of its CPU there.
 */
function withoutStackTraces(fn: () => void): void {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    fn();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/**
 * The offset of the first list or mapping nested deeper than `max` in a YAML syntax tree, or -1: a walk with an
 * explicit stack, so a document of any depth is measured without recursion.
 */
export function yamlTooDeep(tokens: readonly CST.Token[], max = MAX_DEPTH): number {
  const stack: Array<[CST.Token, number]> = tokens.map((t) => [t, 0]);
  while (stack.length > 0) {
    const [token, depth] = stack.pop()!;
    switch (token.type) {
      case 'document':
        if (token.value) stack.push([token.value, depth]);
        break;
      case 'block-map':
      case 'block-seq':
      case 'flow-collection': {
        if (depth + 1 > max) return token.offset;
        for (const item of token.items) {
          if ('key' in item && item.key) stack.push([item.key, depth + 1]);
          if ('value' in item && item.value) stack.push([item.value, depth + 1]);
        }
        break;
      }
      default:
        break;
    }
  }
  return -1;
}

/** The first syntax error js-yaml finds in `text`, placed, for a text the `yaml` parser could not read. */
function unreadable(text: string, file: string): UserError {
  try {
    loadJsYaml(text);
  } catch (error) {
    const mark = (error as { mark?: { line: number; column: number } }).mark;
    const reason = (error as { reason?: string }).reason;
    if (mark && reason)
      return new UserError({
        file,
        line: mark.line + 1,
        column: mark.column + 1,
        message: `not valid YAML: ${reason}`,
      });
  }
  return new UserError({ file, message: 'not valid YAML: its structure is too irregular to read' });
}
