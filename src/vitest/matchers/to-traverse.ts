import { traversePath } from '../../metrics/needle/path.js';
import type { RequiredPath } from '../../model/spec.js';
import {
  type MatcherResult,
  type MatcherState,
  message,
  record,
  requirePath,
  requireWorkup,
} from './helpers.js';

function describePath(path: RequiredPath): string {
  const ends = [path.from && `from ${path.from}`, path.to && `to ${path.to}`].filter(Boolean).join(' ');
  return `${path.relations.join(' → ')}${ends ? ` (${ends})` : ''}${path.directed ? ', directed' : ''}`;
}

/**
 * The ledger's results hold a connected chain of facts that follows `path` (see `traversePath`). The diff shows the
 * required relations against the longest prefix the ledger traversed.
 */
export function toTraverse(this: MatcherState, received: unknown, path: unknown): MatcherResult {
  const workup = requireWorkup('toTraverse', received);
  const required = requirePath('toTraverse', path);
  const score = traversePath(workup.ledger, required);
  const pass = score.value === 1;
  const traversed = pass ? required.relations : (score.prefix?.relations ?? []);
  const hops = (pass ? score.path : score.prefix?.hops) ?? [];
  record(this, workup, {
    criterion: 'traversed',
    metric: 'trajectory',
    value: score.value,
    threshold: 1,
    comparator: '==',
    met: pass,
    summary: pass
      ? `traversed ${describePath(required)} via ${score.ledgerIds?.join(', ')}`
      : `required ${describePath(required)}; traversed ${traversed.length} of ${required.relations.length} hops`,
    evidence: { required: required.relations, traversed, ledgerIds: hops.map((h) => h.ledgerId), hops },
  });
  return {
    pass,
    message: message(this, '.toTraverse', 'path', (negated) => {
      if (negated) {
        return [
          `Expected the ledger not to traverse ${describePath(required)}, but it did:`,
          ...hops.map((h) => `  ${h.from} -${h.relation}-> ${h.to}  [${h.ledgerId}]`),
        ];
      }
      if (score.value === null) return [`Cannot check the path: ${score.reason}.`];
      return [
        `Expected the ledger to traverse ${describePath(required)}.`,
        traversed.length === 0
          ? 'It traversed none of it: no fact of the ledger starts the path.'
          : `It traversed only ${traversed.join(' → ')}:`,
        ...hops.map((h) => `  ${h.from} -${h.relation}-> ${h.to}  [${h.ledgerId}]`),
      ];
    }),
    expected: required.relations,
    actual: traversed,
  };
}
