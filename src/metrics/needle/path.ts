import { type Fact, formatFact } from '../../model/fact.js';
import type { LedgerEntry } from '../../model/ledger.js';
import type { RequiredPath } from '../../model/spec.js';
import { factId } from './fact-id.js';
import type { PathHop, TrajectoryScore } from './types.js';

/** A fact usable at one hop, walked one way. */
interface Edge {
  key: string;
  fact: Fact;
  entry: number;
  direction: 'forward' | 'backward';
  tail: string;
  head: string;
}

/** A chain of `hop` hops ending at `node`, having arrived by `via` (null for a start). */
interface State {
  hop: number;
  node: string;
  via: Edge | null;
  prev: State | null;
}

/**
 * Whether the ledger's results hold a connected chain of facts that follows `required_path` (seed 001, Thread 3:
 * "provenance actually traversed the path?"): one fact per relation, in order, each hop's far end the next hop's
 * near end; a hop may walk its fact backwards (object to subject) unless the path is `directed`, so
 * `Halberd -MEMBER_OF-> Ash Cell -CO_LOCATED-> Compound-Alpha <-CO_LOCATED- Wren` follows
 * `[MEMBER_OF, CO_LOCATED, CO_LOCATED]`. The chain starts at `from` and ends at `to` when they are given, and
 * anywhere otherwise. A hop may not walk straight back along the fact the previous hop walked (one fact would then
 * stand for two hops). Entities are compared exactly as the stores spell them.
 *
 * Every chain is searched: the ledger is replayed entry by entry, and each new fact extends every chain it can (a
 * reachability search over (hop, entity, arriving fact) states, each state visited once, on an index of the facts
 * seen so far by hop and entity), so the first entry after which a chain reaches the end is the one that completed
 * the path, and the chain reported is one whose facts had all been returned by then (each fact credited to the
 * first entry that returned it). Work grows with the facts of the path's relations times the hops.
 *
 * Not applicable (value null): a path of no relations, an empty ledger (a workup without a ledger scores the rest).
 * An endpoint that no fact of a non-empty ledger mentions is a 0, not a null: the run queried, and never reached the
 * entity the path starts or ends at, so a note naming the answer anyway is a guess.
 * When no chain completes the path, `prefix` is the longest chain that follows the path's first relations.
 */
export function traversePath(ledger: readonly LedgerEntry[], path: RequiredPath): TrajectoryScore {
  const relations = path.relations;
  const k = relations.length;
  if (k === 0) return { value: null, reason: "the needle's required_path has no relations" };
  if (ledger.length === 0) return { value: null, reason: 'the ledger is empty' };
  if (path.from !== undefined && !mentioned(ledger, path.from)) {
    return { value: 0, reason: `the path's from endpoint ${path.from} is in no fact of the ledger` };
  }
  if (path.to !== undefined && !mentioned(ledger, path.to)) {
    return { value: 0, reason: `the path's to endpoint ${path.to} is in no fact of the ledger` };
  }

  // hopsOf[relation]: the hops that relation may fill.
  const hopsOf = new Map<string, number[]>();
  relations.forEach((relation, hop) => {
    push(hopsOf, relation, hop);
  });
  // edges[hop]: entity -> the facts seen so far that hop may walk from it.
  const edges = relations.map(() => new Map<string, Edge[]>());
  // states[hop]: entity -> the chains of `hop` hops ending there (at most one per arriving fact).
  const states: Array<Map<string, State[]>> = Array.from({ length: k + 1 }, () => new Map());
  const seenState = new Set<string>();
  const seenFact = new Set<string>();
  let done: State | undefined;

  const reach = (start: State): void => {
    const stack = [start];
    while (stack.length > 0) {
      const state = stack.pop()!;
      const id = `${state.hop}\u0000${state.node}\u0000${state.via?.key ?? ''}`;
      if (seenState.has(id)) continue;
      seenState.add(id);
      push(states[state.hop]!, state.node, state);
      if (state.hop === k) {
        if (!done && (path.to === undefined || state.node === path.to)) done = state;
        continue;
      }
      for (const edge of edges[state.hop]!.get(state.node) ?? []) {
        if (edge.key !== state.via?.key)
          stack.push({ hop: state.hop + 1, node: edge.head, via: edge, prev: state });
      }
    }
  };
  const starts = (hop: number, node: string): readonly State[] => {
    if (hop > 0) return states[hop]!.get(node) ?? NO_STATES;
    if (path.from !== undefined && node !== path.from) return NO_STATES;
    // A chain of no hops stands at any entity (or only at `from`): made on demand.
    const existing = states[0]!.get(node);
    if (existing) return existing;
    const state: State = { hop: 0, node, via: null, prev: null };
    push(states[0]!, node, state);
    seenState.add(`0\u0000${node}\u0000`);
    return [state];
  };

  // A chain of no hops stands only at `from` when it is given, so a walk that fills the first hop is of use only when
  // it leaves from `from`: no other is ever looked up. Skipping the others (most facts of a first hop's relation)
  // leaves every state and every chain as they were.
  const from = path.from;
  const useless = (hop: number, tail: string): boolean => hop === 0 && from !== undefined && tail !== from;
  /** Indexes an edge for a hop, and extends every chain that ends at its tail by it. */
  const walk = (hop: number, edge: Edge): void => {
    if (useless(hop, edge.tail)) return;
    push(edges[hop]!, edge.tail, edge);
    // reach() only adds states past this hop, so the list is stable while it is walked.
    for (const state of starts(hop, edge.tail)) {
      if (edge.key !== state.via?.key) reach({ hop: hop + 1, node: edge.head, via: edge, prev: state });
    }
  };
  for (let entry = 0; entry < ledger.length && !done; entry++) {
    for (const fact of ledger[entry]!.results) {
      const hops = hopsOf.get(fact.relation);
      if (!hops) continue;
      const backward = !path.directed && fact.subject !== fact.object;
      if (
        hops.length === 1 &&
        useless(hops[0]!, fact.subject) &&
        (!backward || useless(hops[0]!, fact.object))
      ) {
        continue;
      }
      const key = factId(fact);
      if (seenFact.has(key)) continue;
      seenFact.add(key);
      const forwardEdge: Edge = {
        key,
        fact,
        entry,
        direction: 'forward',
        tail: fact.subject,
        head: fact.object,
      };
      const backwardEdge: Edge | undefined = backward
        ? { key, fact, entry, direction: 'backward', tail: fact.object, head: fact.subject }
        : undefined;
      for (const hop of hops) {
        walk(hop, forwardEdge);
        if (backwardEdge) walk(hop, backwardEdge);
      }
    }
    if (done) {
      const hops = chain(done, ledger);
      return {
        value: 1,
        path: hops,
        ledgerIds: hops.map((h) => h.ledgerId),
        completedAt: entry,
      };
    }
  }

  let longest = 0;
  for (let hop = k; hop > 0; hop--) {
    if (states[hop]!.size > 0) {
      longest = hop;
      break;
    }
  }
  const end = longest > 0 ? states[longest]!.values().next().value![0]! : undefined;
  const hops = end ? chain(end, ledger) : [];
  const reason =
    longest === k
      ? `chains of all ${k} hops end at ${[...states[k]!.keys()].join(', ')}, never at ${path.to}`
      : `no chain of facts gets past hop ${longest} of ${k}: nothing ${relations[longest]}${
          longest > 0
            ? ` from ${[...states[longest]!.keys()].join(', ')}`
            : path.from
              ? ` from ${path.from}`
              : ''
        }${hops.length > 0 ? ` (longest chain: ${hops.map((h) => formatFact(h.fact)).join(', ')})` : ''}`;
  return {
    value: 0,
    reason,
    prefix: {
      relations: relations.slice(0, longest),
      facts: hops.map((h) => h.fact),
      ledgerIds: hops.map((h) => h.ledgerId),
      hops,
    },
  };
}

const NO_STATES: readonly State[] = [];

/** Whether some fact of the ledger names `entity` as its subject or object (a scan: cheaper than indexing them). */
function mentioned(ledger: readonly LedgerEntry[], entity: string): boolean {
  for (const entry of ledger) {
    for (const fact of entry.results) if (fact.subject === entity || fact.object === entity) return true;
  }
  return false;
}

function chain(end: State, ledger: readonly LedgerEntry[]): PathHop[] {
  const hops: PathHop[] = [];
  for (let state: State | null = end; state?.via; state = state.prev) {
    const edge = state.via;
    hops.push({
      relation: edge.fact.relation,
      fact: { subject: edge.fact.subject, relation: edge.fact.relation, object: edge.fact.object },
      ledgerId: ledger[edge.entry]!.id,
      direction: edge.direction,
      from: edge.tail,
      to: edge.head,
    });
  }
  return hops.reverse();
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
