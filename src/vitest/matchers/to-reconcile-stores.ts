import { needleScore, reconciled } from '../../checks/needle.js';
import {
  type MatcherResult,
  type MatcherState,
  message,
  record,
  requireNeedle,
  requireWorkup,
} from './helpers.js';

/**
 * A cross-store needle is reconciled: the answer surfaced, every store of the needle queried, and the note's words
 * match what the ledger shows (agreement corroborated, or conflict flagged); see `reconcileStores`.
 */
export function toReconcileStores(this: MatcherState, received: unknown, needle: unknown): MatcherResult {
  const workup = requireWorkup('toReconcileStores', received);
  const spec = requireNeedle('toReconcileStores', needle);
  const measured = reconciled(workup, spec);
  const pass = record(this, workup, measured);
  const r = needleScore(workup, spec).reconciliation;
  const stores = (r.stores ?? []).map((s) => `${s.store}: ${s.objects.join(', ') || '(nothing)'}`).join('; ');
  return {
    pass,
    message: message(this, '.toReconcileStores', 'needle', (negated) => {
      if (r.value === null) return [`Cannot check reconciliation: ${r.reason}.`];
      if (negated) return [`Expected the stores not to be reconciled, but they are (${r.verdict}).`];
      return [
        `Expected the note to reconcile ${spec.stores.join(' and ')} on ${r.subject} ${r.relation} (score ${r.value}, at least ${measured.threshold}).`,
        `Answer surfaced:     ${r.surfaced ? 'yes' : 'no'}`,
        `Every store queried: ${r.storesQueried ? 'yes' : 'no'}${stores ? ` (${stores})` : ''}`,
        `The ledger shows:    ${r.verdict ?? 'unknown'}`,
        `The note says:       ${r.wording?.join(', ') || 'nothing about agreement or conflict'}`,
      ];
    }),
  };
}
