import { citationsResolve } from '../../checks/citations.js';
import type { CitationReference } from '../../metrics/citations/resolve.js';
import { type MatcherResult, type MatcherState, message, record, requireWorkup } from './helpers.js';

/** Every `[cite:gN]` of the note names an entry of the ledger (seed 001's Phase 1 gate: no invented source). */
export function toHaveResolvableCitations(this: MatcherState, received: unknown): MatcherResult {
  const workup = requireWorkup('toHaveResolvableCitations', received);
  const measured = citationsResolve(workup);
  const pass = record(this, workup, measured);
  const { resolved, dangling } = measured.evidence as { resolved: number; dangling: CitationReference[] };
  return {
    pass,
    message: message(this, '.toHaveResolvableCitations', '', (negated) => {
      if (measured.value === null) return [`Cannot resolve citations: ${measured.summary}.`];
      if (negated) return [`Expected a dangling citation, but all ${resolved} resolve.`];
      return [
        `Expected every citation to name a ledger entry; these name none:`,
        ...dangling.map((d) => `  ${d.id} (line ${d.position.line}, column ${d.position.column})`),
      ];
    }),
    expected: [],
    actual: dangling.map((d) => d.id),
  };
}
