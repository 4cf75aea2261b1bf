import { load as loadJsYaml } from 'js-yaml';
import type { CST, Document, LineCounter } from 'yaml';
import { UserError } from '../errors/index.js';
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

/**
 * Parses one YAML document. Syntax errors, duplicate keys, alias bombs and nesting deeper than `MAX_DEPTH` become a
 * `UserError` with every problem's line and column; the document is kept so schema errors can be placed on their node
 * too. The depth is measured on the `yaml` package's syntax tree, which its parser builds without recursion, before
 * its composer (which recurses once per level) builds the document.
 */
export function parseYaml(text: string, file: string): ParsedYaml {
  const { Composer, LineCounter, Parser, YAMLParseError } = yamlPackage();
  const tooDeep = (offset: number) => {
    const pos = new LineIndex(text).position(offset);
    return new UserError({ file, line: pos.line, column: pos.column, message: TOO_DEEP });
  };
  // A text that may nest too deep is first parsed a little past where it may: a deep one is refused after parsing a
  // few hundred levels, not all of them.
  const suspect = yamlMayBeTooDeep(text);
  if (suspect !== -1) {
    const head = yamlTooDeep(Array.from(new Parser().parse(text.slice(0, suspect + 4 * MAX_DEPTH))));
    if (head !== -1) throw tooDeep(head);
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
    throw unreadable(text, file);
  }
  const deep = yamlTooDeep(tokens);
  if (deep !== -1) throw tooDeep(deep);
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
  if (!doc) throw new UserError({ file, message: 'expected a YAML document, found nothing' });
  const errors = doc.errors.map((error) => ({ offset: error.pos[0], message: error.message }));
  if (errors.length > 0) {
    // Errors are placed in the text itself: the parser's line counter misses the lines inside a token it rejects (a
    // block scalar where none may stand), which put later errors lines too early.
    const index = new LineIndex(text);
    // Stopped early, the composer saw the document up to where reading stopped: its first errors are the file's.
    const more =
      syntaxErrors > MAX_YAML_ERRORS
        ? `and more YAML errors after line ${index.position(tokens.at(-1)!.offset).line}; needlework read no further`
        : undefined;
    throw new UserError(yamlErrors(errors, index, file, more));
  }
  try {
    return { value: doc.toJS({ maxAliasCount: MAX_YAML_ALIASES }), doc, lines };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UserError({ file, message: `cannot expand the document: ${message}` });
  }
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
