import { expect } from 'vitest';
import { LineCounter, parseDocument } from 'yaml';
import { locate } from '../../src/parse/locate.js';
import { LineIndex } from '../../src/parse/position.js';
import type { FastYaml } from '../../src/parse/yaml-fast.js';

/** Every data path of a value, each mapping's keys listed with it. */
function paths(value: unknown): Array<{ path: string[]; keys: string[] }> {
  const out: Array<{ path: string[]; keys: string[] }> = [];
  const stack: Array<{ node: unknown; path: string[] }> = [{ node: value, path: [] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    const keys = node !== null && typeof node === 'object' && !Array.isArray(node) ? Object.keys(node) : [];
    out.push({ path, keys });
    if (Array.isArray(node))
      for (const [i, item] of node.entries()) stack.push({ node: item, path: [...path, String(i)] });
    else
      for (const key of keys)
        stack.push({ node: (node as Record<string, unknown>)[key], path: [...path, key] });
  }
  return out;
}

/**
 * Expects the light path's places of a text to be those of `locate` in the `yaml` Document: every node, every key,
 * and a path one step past each node (placed at its deepest node). With `every`, a place the light path leaves
 * undefined fails too; without it, only the places it gives are compared (a generated text may hold a node it leaves
 * to the Document). Returns how many nodes were compared.
 */
export function expectDocumentPlaces(text: string, fast: FastYaml, { every }: { every: boolean }): number {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const index = new LineIndex(text);
  const same = (path: readonly string[], key: string | undefined, what: string) => {
    const offset = fast.startAt(path, key);
    if (offset === undefined && !every) return;
    const place = offset === undefined ? undefined : index.position(offset);
    expect(place && { line: place.line, column: place.column }, `${text}\n${what}`).toEqual(
      locate(doc, lines, path, key),
    );
  };
  let placed = 0;
  for (const { path, keys } of paths(fast.value)) {
    same(path, undefined, path.join('.'));
    placed++;
    for (const key of keys) same(path, key, `${path.join('.')} key ${key}`);
    same([...path, 'missing'], undefined, `${path.join('.')}.missing`);
    same([...path, '99'], undefined, `${path.join('.')}.99`);
  }
  return placed;
}
