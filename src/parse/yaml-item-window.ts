// A valid YAML file that the light path cannot read whole because one item of a list holds a construct js-yaml reads
// apart from the `yaml` package (a collection as a key, a quoted "null" key, a verbatim or `!!binary` tag, a list
// whose empty item a less indented one follows...): read without the `yaml` package reading all of it, which costs
// about a second a megabyte.
//
// A block list's items are read alike one by one, so long as no alias ties one to another (no alias in the file):
// that item (with the items up to the next one the `yaml` lexer finds after the construct) is read by the `yaml`
// package in a window, after the head (the text before the list's first item), as the syntax errors are read
// (src/parse/yaml-window.ts); by the light path, the text before the window, and the head with the text after it,
// each of which may hold the next such item to read around in turn. The list is the items
// before, the window's and the items after, and every place is the one the `yaml` Document of the whole file gives:
// from the window's Document for a path into its items, from the reading before it for an item before it, from the
// reading after it for any other, moved past the window.
import type { Document } from 'yaml';
import { keyOffset, locateOffset } from './locate.js';
import { LineIndex } from './position.js';
import { MAX_YAML_ALIASES, readYaml } from './yaml.js';
import type { FastYaml, ReadList } from './yaml-fast-types.js';
import { yamlPackage } from './yaml-package.js';
import { aliasFrom, cutAt, itemFrom, MAX_WINDOWS_LENGTH, WINDOW_FROM } from './yaml-window.js';

/**
 * A text read around the item of one of `lists` (the lists js-yaml was reading) that holds `at`, where the light path
 * met a construct it reads apart: undefined when it cannot be (a short text, an alias anywhere, no block list to cut,
 * a window the `yaml` package does not read without problems, a part `read` does not read). `read` reads the text
 * before the window and the head with the text after it.
 */
export function readAroundItem(
  text: string,
  at: number,
  lists: readonly ReadList[],
  read: (part: string) => FastYaml | undefined,
): FastYaml | undefined {
  if (text.length < WINDOW_FROM || aliasFrom(text, 0)) return undefined;
  const cut = cutAt(text, lists, at);
  if (!cut || cut.flow) return undefined;
  const head = text.slice(0, cut.first);
  const to = itemFrom(head, text, cut.start, at + 1, cut);
  if (head.length + to - cut.start > MAX_WINDOW) return undefined;
  const window = documentReading(head + text.slice(cut.start, to));
  const listPath = window && pathOfList(window.doc, head.length + cut.column);
  // The window ends with the list: what follows it in the file is the list's next item, or nothing.
  if (!window || !listPath || !lastAlong(window.doc, listPath)) return undefined;
  const items = valueAt(window.value, listPath);
  // The items before the window, read by js-yaml before it met the construct.
  const before = lists.find((l) => l.at === cut.at)?.items.filter((start) => start < cut.start).length;
  if (!Array.isArray(items) || before === undefined) return undefined;
  // The text before the window, and the head with the text after it; either may hold the next such item, and one
  // the light path leaves to the `yaml` package is read by it when short (as a short file is).
  const readPart = (part: string) =>
    read(part) ?? (part.length < WINDOW_FROM ? documentReading(part) : undefined);
  const prefix = before === 0 ? undefined : readPart(text.slice(0, cut.start));
  const suffix = readPart(head + text.slice(to));
  const first = prefix ? valueAt(prefix.value, listPath) : [];
  // No item after the window: the list's key holds nothing in the text after it.
  const rest = suffix && valueAt(suffix.value, listPath);
  const last = Array.isArray(rest) ? rest : rest === null ? [] : undefined;
  if (!suffix || !last || !Array.isArray(first) || first.length !== before) return undefined;
  // The readings' own values stay as they were read: their places are walked along them.
  const value = withList(suffix.value, listPath, [...first, ...items, ...last]);
  const inWindow = (offset: number | undefined) =>
    offset === undefined || offset < head.length ? undefined : cut.start + offset - head.length;
  const inSuffix = (offset: number | undefined) =>
    offset === undefined || offset < head.length ? offset : to + offset - head.length;
  /** Which reading places a path, the path in it, and how its offsets move into the text. */
  const route = (
    path: readonly string[],
  ): [FastYaml, readonly string[], (offset: number | undefined) => number | undefined] => {
    if (!listPath.every((segment, i) => path[i] === segment)) return [suffix, path, inSuffix];
    const segment = path[listPath.length];
    const i = segment !== undefined && /^(?:0|[1-9][0-9]*)$/.test(segment) ? Number(segment) : -1;
    const deeper = path.slice(listPath.length + 1);
    if (i >= before && i < before + items.length)
      return [window, [...listPath, String(i - before), ...deeper], inWindow];
    if (i >= before + items.length && i < before + items.length + last.length)
      return [suffix, [...listPath, String(i - before - items.length), ...deeper], inSuffix];
    // An item before the window, the list itself or a path that leaves it (placed at the list, which starts in the
    // window when its first item is there).
    return prefix ? [prefix, path, (offset) => offset] : [window, listPath, inWindow];
  };
  let index: LineIndex | undefined;
  return {
    value,
    lines: () => {
      index ??= new LineIndex(text);
      return index;
    },
    startAt: (path, key) => {
      const [reading, inReading, moved] = route(path);
      return moved(reading.startAt(inReading, key));
    },
    keyStartAt: (path, key) => {
      const [reading, inReading, moved] = route(path);
      return moved(reading.keyStartAt(inReading, key));
    },
  };
}

/** How much text (the head and the items) one window may hold: each is read by the `yaml` package. */
const MAX_WINDOW = MAX_WINDOWS_LENGTH / 4;

/**
 * A text read by the `yaml` package, placed as `locate` places it in its Document; undefined when it has problems.
 */
function documentReading(text: string): (FastYaml & { doc: Document }) | undefined {
  const reading = readYaml(text);
  if (typeof reading === 'string' || 'problems' in reading) return undefined;
  const { doc } = reading;
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch {
    return undefined;
  }
  let index: LineIndex | undefined;
  return {
    doc,
    value,
    lines: () => {
      index ??= new LineIndex(text);
      return index;
    },
    startAt: (path, key) => locateOffset(doc, path, key),
    keyStartAt: (path, key) => keyOffset(doc, path, key),
  };
}

/** The data path of the block list whose first `-` stands at `at` in a Document, if there is one. */
function pathOfList(doc: Document, at: number): string[] | undefined {
  const { isMap, isScalar, isSeq } = yamlPackage();
  const stack: Array<{ node: unknown; path: string[] }> = [{ node: doc.contents, path: [] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (isSeq(node)) {
      if (node.range?.[0] === at) return path;
      node.items.forEach((item, i) => {
        stack.push({ node: item, path: [...path, String(i)] });
      });
    } else if (isMap(node)) {
      for (const pair of node.items)
        if (isScalar(pair.key))
          stack.push({ node: pair.value, path: [...path, String(pair.key.value ?? '')] });
    }
  }
  return undefined;
}

/**
 * `value` with the list at `path` replaced by `list`: each collection on the path copied (a mapping's keys in order,
 * `__proto__` kept a key), the rest shared.
 */
function withList(value: unknown, path: readonly string[], list: unknown[]): unknown {
  if (path.length === 0) return list;
  const [segment, ...deeper] = path as [string, ...string[]];
  const node = value as Record<string, unknown>;
  const inner = withList(node[segment], deeper, list);
  if (Array.isArray(node)) return node.map((item, i) => (String(i) === segment ? inner : item));
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(node))
    Object.defineProperty(copy, key, {
      value: key === segment ? inner : node[key],
      writable: true,
      enumerable: true,
      configurable: true,
    });
  return copy;
}

/** Whether the node at a data path is the last of each collection on the path (nothing follows it in the text). */
function lastAlong(doc: Document, path: readonly string[]): boolean {
  const { isMap, isScalar, isSeq } = yamlPackage();
  let node: unknown = doc.contents;
  for (const segment of path) {
    if (isSeq(node)) {
      if (Number(segment) !== node.items.length - 1) return false;
      node = node.items.at(-1);
    } else if (isMap(node)) {
      const last = node.items.at(-1);
      if (!last || !isScalar(last.key) || String(last.key.value ?? '') !== segment) return false;
      node = last.value;
    } else return false;
  }
  return true;
}

/** The value at a data path. */
function valueAt(value: unknown, path: readonly string[]): unknown {
  let node = value;
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}
