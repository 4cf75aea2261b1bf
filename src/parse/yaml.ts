import type { Document, LineCounter } from 'yaml';
import { type Diagnostic, UserError } from '../errors/index.js';
import { yamlPackage } from './yaml-package.js';

/** The most aliases one YAML file may expand; a "billion laughs" file is refused instead of exhausting memory. */
export const MAX_YAML_ALIASES = 100;

export interface ParsedYaml {
  value: unknown;
  doc: Document.Parsed;
  lines: LineCounter;
}

/**
 * Parses one YAML document. Syntax errors, duplicate keys and alias bombs become a `UserError` with every problem's
 * line and column; the document is kept so schema errors can be placed on their node too.
 */
export function parseYaml(text: string, file: string): ParsedYaml {
  const { LineCounter, parseDocument } = yamlPackage();
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new UserError(
      doc.errors.map((error): Diagnostic => {
        const pos = lines.linePos(error.pos[0]);
        return { file, line: pos.line, column: pos.col, message: firstLine(error.message) };
      }),
    );
  }
  try {
    return { value: doc.toJS({ maxAliasCount: MAX_YAML_ALIASES }), doc, lines };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UserError({ file, message: `cannot expand the document: ${message}` });
  }
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}
