// The `yaml` path's alias limit, applied as js-yaml's light path reads a text (src/parse/yaml-fast.ts), node by node
// in the order of the text, which is the order the `yaml` package expands a Document in (`toJS`).
//
// The rule, from the `yaml` package (2.x, src/nodes/Alias.ts: `resolve` and `getAliasCount`): an anchored node counts
// 1, and each alias of it resolved one more. At its first alias (and at each later one while it weighs 0) it is
// weighed: the greatest weight of the nodes in it, where a scalar (a null and a mapping's key included) weighs 1, an
// alias its anchored node's count times that node's weight as they stand then, and an empty list or mapping nothing.
// The document is refused when an aliased node's count times its weight passes `toJS`'s `maxAliasCount`.

/** One anchored node, as the limit counts it. */
interface Anchored {
  /** 1, and one more for each alias of it read so far. */
  count: number;
  /** Its weight, taken at its first alias and again at each while it is 0 (yaml's `aliasCount`). */
  weight: number;
  /** It holds a node that weighs 1: a scalar, a null or a key, outside the aliases in it. */
  leaf: boolean;
  /** The anchored nodes of the aliases in it (at any depth). */
  aliased: Set<Anchored> | undefined;
  /** Still being read. */
  open: boolean;
}

/** Why an alias cannot be counted here: the `yaml` path reads the whole node before it weighs it. */
export class AliasInsideItsAnchor extends Error {}

/**
 * Counts the anchors and aliases of one text, told of each as js-yaml reads it: anchored nodes as they open and close,
 * scalars, and aliases. `alias` says whether the document is still within `max`.
 */
export class AliasLimit {
  /** Each anchor's last node: the one an alias of it names. */
  private readonly anchors = new Map<string, Anchored>();
  /** The anchored nodes being read, innermost last. */
  private readonly open: Anchored[] = [];
  constructor(private readonly max: number) {}

  /** An anchored node opens: the node its anchor names from now on. */
  anchor(name: string): Anchored {
    const node: Anchored = { count: 1, weight: 0, leaf: false, aliased: undefined, open: true };
    this.anchors.set(name, node);
    this.open.push(node);
    return node;
  }

  /**
   * An alias of `name` is read: false when the document passes the limit with it. An alias of an anchor not (yet)
   * set is js-yaml's to refuse. Throws `AliasInsideItsAnchor` for an alias inside the node it names.
   */
  alias(name: string): boolean {
    const target = this.anchors.get(name);
    if (!target) return true;
    if (target.open) throw new AliasInsideItsAnchor();
    const inner = this.open.at(-1);
    if (inner) holds(inner, [target]);
    target.count++;
    if (target.weight === 0) target.weight = weightOf(target);
    return target.count * target.weight <= this.max;
  }

  /** A node that weighs 1 was read (a scalar, a null, a key): it weighs in every anchored node open. */
  leaf(): void {
    const inner = this.open.at(-1);
    if (inner) inner.leaf = true;
  }

  /**
   * An anchored node is read to its end, or found to be no node of its own (an anchor before a mapping's first key is
   * the key's): what it holds weighs in the anchored node around it.
   */
  close(node: Anchored): void {
    node.open = false;
    this.open.pop();
    const outer = this.open.at(-1);
    if (!outer) return;
    if (node.leaf) outer.leaf = true;
    if (node.aliased) holds(outer, node.aliased);
  }
}

export type { Anchored };

/** Records that `node` holds aliases of `targets`. */
function holds(node: Anchored, targets: Iterable<Anchored>): void {
  node.aliased ??= new Set();
  for (const target of targets) node.aliased.add(target);
}

/** A node's weight as it stands: 1 for a node it holds that weighs 1, or more for an alias in it. */
function weightOf(node: Anchored): number {
  let weight = node.leaf ? 1 : 0;
  if (node.aliased)
    for (const target of node.aliased) weight = Math.max(weight, target.count * target.weight);
  return weight;
}
