import { describePath, traversed } from '../../checks/needle.js';
import type { PathHop } from '../../metrics/needle/types.js';
import {
  type MatcherResult,
  type MatcherState,
  message,
  record,
  requirePath,
  requireWorkup,
} from './helpers.js';

/**
 * The ledger's results hold a connected chain of facts that follows `path` (see `traversePath`). The diff shows the
 * required relations against the longest prefix the ledger traversed.
 */
export function toTraverse(this: MatcherState, received: unknown, path: unknown): MatcherResult {
  const workup = requireWorkup('toTraverse', received);
  const required = requirePath('toTraverse', path);
  const measured = traversed(workup, required);
  const pass = record(this, workup, measured);
  const evidence = measured.evidence as { traversed: string[]; hops: PathHop[] };
  const hops = evidence.hops.map((h) => `  ${h.from} -${h.relation}-> ${h.to}  [${h.ledgerId}]`);
  return {
    pass,
    message: message(this, '.toTraverse', 'path', (negated) => {
      if (negated)
        return [`Expected the ledger not to traverse ${describePath(required)}, but it did:`, ...hops];
      if (measured.value === null) return [`Cannot check the path: ${measured.summary}.`];
      return [
        `Expected the ledger to traverse ${describePath(required)}.`,
        evidence.traversed.length === 0
          ? 'It traversed none of it: no fact of the ledger starts the path.'
          : `It traversed only ${evidence.traversed.join(' → ')}:`,
        ...hops,
      ];
    }),
    expected: required.relations,
    actual: evidence.traversed,
  };
}
