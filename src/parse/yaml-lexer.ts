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
  const { Lexer, CST } = yamlPackage();
  let scalar = false;
  for (const lexeme of new Lexer().lex(text)) {
    if (lexeme === CST.FLOW_END) return true;
    // The lexeme after a scalar's mark is a plain or block scalar's source, which may start with a quote.
    if (scalar) scalar = false;
    else if (lexeme === CST.SCALAR) scalar = true;
    else if ((lexeme[0] === '"' || lexeme[0] === "'") && !quoteClosed(lexeme)) return true;
  }
  return false;
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
