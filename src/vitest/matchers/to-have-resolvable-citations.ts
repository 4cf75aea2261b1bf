import { resolveCitations } from '../../metrics/citations/resolve.js';
import { type MatcherResult, type MatcherState, message, record, requireWorkup } from './helpers.js';

/** Every `[cite:gN]` of the note names an entry of the ledger (seed 001's Phase 1 gate: no invented source). */
export function toHaveResolvableCitations(this: MatcherState, received: unknown): MatcherResult {
  const workup = requireWorkup('toHaveResolvableCitations', received);
  const result = resolveCitations(workup);
  const pass = result.value === true;
  const dangling = result.dangling.map(
    (d) => `${d.id} (line ${d.position.line}, column ${d.position.column})`,
  );
  record(this, workup, {
    criterion: 'citations-resolve',
    metric: 'citations_resolved',
    value: result.value,
    met: pass,
    summary: pass
      ? `all ${result.resolved.length} citations resolve`
      : `${result.dangling.length} dangling: ${result.dangling.map((d) => d.id).join(', ')}`,
    evidence: { resolved: result.resolved.length, dangling: result.dangling },
  });
  return {
    pass,
    message: message(this, '.toHaveResolvableCitations', '', (negated) => {
      if (result.value === null) return [`Cannot resolve citations: ${result.reason}.`];
      if (negated) return [`Expected a dangling citation, but all ${result.resolved.length} resolve.`];
      return [
        `Expected every citation to name a ledger entry; these name none:`,
        ...dangling.map((d) => `  ${d}`),
      ];
    }),
    expected: [],
    actual: result.dangling.map((d) => d.id),
  };
}
