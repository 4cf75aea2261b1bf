import type { Document, LineCounter, Node, Pair } from 'yaml';
import { yamlPackage } from './yaml-package.js';

export interface Place {
  line: number;
  column: number;
}

/**
 * Finds where a data path (`['required_path', 'relations', 1]`) stands in a parsed YAML (or JSON) document: the
 * node's start, or with `key` the start of that key within the mapping at the path. Walks as deep as the document
 * goes, so a missing node is placed at its nearest existing parent.
 */
export function locate(
  doc: Document,
  lines: LineCounter,
  path: readonly string[],
  key?: string,
): Place | undefined {
  const { isMap, isNode } = yamlPackage();
  let node: Node | undefined = isNode(doc.contents) ? doc.contents : undefined;
  for (const segment of path) {
    const child = childOf(node, segment);
    if (!child) break;
    node = child;
  }
  if (key !== undefined && isMap(node)) {
    const pair = (node.items as Pair[]).find((p) => scalarText(p.key) === key);
    if (pair && isNode(pair.key) && pair.key.range) return place(lines, pair.key.range[0]);
  }
  return node?.range ? place(lines, node.range[0]) : undefined;
}

/** `locate` for a JSON text that was parsed without positions: re-reads it (only on the error path). */
export function locateInJson(text: string, path: readonly string[], key?: string): Place | undefined {
  const { LineCounter, parseDocument } = yamlPackage();
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  return locate(doc, lines, path, key);
}

function childOf(node: Node | undefined, segment: string): Node | undefined {
  const { isMap, isNode, isSeq } = yamlPackage();
  if (isSeq(node)) {
    const item = node.items[Number(segment)];
    return isNode(item) ? item : undefined;
  }
  if (isMap(node)) {
    const pair = (node.items as Pair[]).find((p) => scalarText(p.key) === segment);
    return pair && isNode(pair.value) ? pair.value : undefined;
  }
  return undefined;
}

function scalarText(key: unknown): string | undefined {
  if (yamlPackage().isNode(key) && 'value' in key) return String((key as { value: unknown }).value);
  return key === null || key === undefined ? undefined : String(key);
}

function place(lines: LineCounter, offset: number): Place {
  const pos = lines.linePos(offset);
  return { line: pos.line, column: pos.col };
}
