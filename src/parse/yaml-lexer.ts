// What the `yaml` package's lexer says of a text that js-yaml reads otherwise.
import { yamlPackage } from './yaml-package.js';

/**
 * Whether the `yaml` package's lexer cuts a flow collection or a quoted scalar short: a line of it indented no more
 * than the block it stands in (`key: [a,\nb]`, `- "a\nb"`). For a flow collection the lexer then emits a flow-end token,
 * which it emits for nothing else, and the `yaml` path reports "Flow sequence in block collection must be
 * sufficiently indented"; a quoted scalar it ends before its closing quote, and that path reports "Missing closing
 * quote". js-yaml reads both. Lexing costs a tenth of the Document's parse (0.14-0.20 s a MB against 1.5-1.9 s), and
 * is done only for a text with a flow collection or quoted scalar over several lines.
 */
export function cutShort(text: string): boolean {
  return cutShortAt(text) !== -1;
}

/**
 * Where the `yaml` lexer first cuts something short (see `cutShort`): the start of the line it ends a flow collection
 * before (past its indentation), or the opening quote of a quoted scalar it ends early; -1 where it cuts nothing.
 */
export function cutShortAt(text: string): number {
  return (
    walkLexemes(text, (lexeme, at, kind) =>
      kind === 'flow-end' ||
      (kind === 'source' && (lexeme[0] === '"' || lexeme[0] === "'") && !quoteClosed(lexeme))
        ? at
        : undefined,
    ) ?? -1
  );
}

/**
 * What a lexeme is: a scalar's source (plain or block: the lexeme after the lexer's scalar mark, which may start with a
 * quote or a bracket), the lexer's mark for a flow collection it cuts short (it stands for no text), or any other
 * source (indicators, white space, line endings, comments, quoted scalars whole).
 */
export type LexemeKind = 'scalar' | 'flow-end' | 'source';

/**
 * Walks the `yaml` lexer's lexemes of `text`, each with the offset where it starts, until `visit` returns something,
 * which is returned (undefined when it never does). The document and scalar marks are not given.
 */
export function walkLexemes<T>(
  text: string,
  visit: (lexeme: string, at: number, kind: LexemeKind) => T | undefined,
): T | undefined {
  const { Lexer, CST } = yamlPackage();
  let offset = 0;
  let scalar = false;
  for (const lexeme of new Lexer().lex(text)) {
    if (lexeme === CST.DOCUMENT) continue;
    if (lexeme === CST.SCALAR) {
      scalar = true;
      continue;
    }
    const flowEnd = lexeme === CST.FLOW_END;
    const found = visit(lexeme, offset, flowEnd ? 'flow-end' : scalar ? 'scalar' : 'source');
    if (found !== undefined) return found;
    if (!flowEnd) offset += lexeme.length;
    scalar = false;
  }
  return undefined;
}

/** Whether a quoted scalar's source ends with its closing quote. */
function quoteClosed(source: string): boolean {
  const quote = source[0]!;
  for (let i = 1; ; ) {
    const at = source.indexOf(quote, i);
    if (at === -1) return false;
    if (quote === "'") {
      // `''` is a quote inside a single-quoted scalar.
      if (source[at + 1] === "'") {
        i = at + 2;
        continue;
      }
    } else {
      let backslashes = 0;
      while (source[at - 1 - backslashes] === '\\') backslashes++;
      if (backslashes % 2 === 1) {
        i = at + 1;
        continue;
      }
    }
    return at === source.length - 1;
  }
}
