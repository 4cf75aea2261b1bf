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
  const { Lexer, CST } = yamlPackage();
  let scalar = false;
  let offset = 0;
  for (const lexeme of new Lexer().lex(text)) {
    if (lexeme === CST.FLOW_END) return offset;
    if (lexeme === CST.DOCUMENT) continue;
    // The lexeme after a scalar's mark is a plain or block scalar's source, which may start with a quote.
    if (lexeme === CST.SCALAR) {
      scalar = true;
      continue;
    }
    if (!scalar && (lexeme[0] === '"' || lexeme[0] === "'") && !quoteClosed(lexeme)) return offset;
    scalar = false;
    offset += lexeme.length;
  }
  return -1;
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
