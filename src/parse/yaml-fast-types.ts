// The shapes the fast YAML reader and its windows share (yaml-fast.ts, yaml-window.ts, yaml-item-window.ts).
import type { LineIndex } from './position.js';

/** The values of one YAML document, and where its nodes and keys start. */
export interface FastYaml {
  value: unknown;
  /**
   * The UTF-16 offset where `key` of the mapping at a data path is written (the key's first character), as the
   * `yaml` package's key ranges begin; undefined for a path that is not a mapping of the document, or a key written in
   * a form this path does not place (an explicit `? key`).
   */
  keyStartAt(path: readonly string[], key: string): number | undefined;
  /**
   * Where the node at a data path starts, as `locate` places it in the `yaml` package's Document: the node's start,
   * or with `key`, that key's start in the mapping at the path; a path that leaves the document is placed at its
   * deepest node. Undefined when this path cannot say exactly (a null value, whose empty node the two parsers place
   * apart, a key it did not record, or a shape it did not record): the caller then reads the file with the `yaml`
   * Document.
   */
  startAt(path: readonly string[], key?: string): number | undefined;
  /** The text's line index, built once, on first use, for every place of this text. */
  lines(): LineIndex;
}

/** Where js-yaml failed to read a text, and the lists it was reading (or had just read) there. */
export interface FastFailure {
  /** The offset of the failure in the text. */
  at: number;
  /** Each list: where its `[` or first `-` stands, and where its items read so far start (the last maybe unfinished). */
  lists: ReadList[];
  /** Whether js-yaml read a flow collection or quoted scalar over several lines, which `cutShort` is to be asked of. */
  overLines: boolean;
}

/**
 * A list js-yaml read: where its `[` or first `-` stands, where each item read starts (NaN for an empty one), and
 * whether it stands in a flow collection.
 */
export interface ReadList {
  at: number;
  items: readonly number[];
  inFlow: boolean;
}
