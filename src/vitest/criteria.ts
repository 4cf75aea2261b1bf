import type { ExpectStatic } from 'vitest';
import type { EntailmentVerifier } from '../model/entailment.js';
import type { NeedleSpec } from '../model/spec.js';
import type { Workup } from '../model/workup.js';

/** What a needle test needs beyond the workup: the entailment verifier, when `--entail` turned it on. */
export interface CriterionContext {
  verifier?: EntailmentVerifier;
}

/**
 * One test of a needle against a workup: a name, what it reads (a check on a workup without that part is skipped,
 * saying why), and the assertion, made with the same matcher a hand-written test would use.
 */
export interface Criterion {
  name: string;
  needs: 'note' | 'ledger';
  assert: (expect: ExpectStatic, workup: Workup, context: CriterionContext) => unknown;
}

/**
 * The criteria a needle gives every workup: surfaced, traversed, grounded, citations resolve, citation recall, and,
 * when the needle asks for them, supporting-fact F1 (`required_cites`), pivot burden (`thresholds.pivot_burden`),
 * reconciliation (`stores`), and citation precision when an entailment verifier is configured.
 */
export function needleCriteria(needle: NeedleSpec, context: CriterionContext): Criterion[] {
  const t = needle.thresholds;
  const list: Criterion[] = [
    { name: 'surfaced', needs: 'note', assert: (expect, w) => expect(w).toSurface(needle) },
    { name: 'traversed', needs: 'ledger', assert: (expect, w) => expect(w).toTraverse(needle.required_path) },
    { name: 'grounded', needs: 'note', assert: (expect, w) => expect(w).toBeGrounded(needle) },
    {
      name: 'citations resolve',
      needs: 'note',
      assert: (expect, w) => expect(w).toHaveResolvableCitations(),
    },
    {
      name: 'citation recall',
      needs: 'note',
      assert: (expect, w) => expect(w).toHaveCitationRecall(t.citation_recall ?? 1),
    },
  ];
  if (needle.required_cites.length > 0) {
    list.push({
      name: 'supporting facts',
      needs: 'note',
      assert: (expect, w) => expect(w).toHaveSupportingFactF1(needle, t.supporting_fact_f1 ?? 1),
    });
  }
  if (t.pivot_burden !== undefined) {
    list.push({
      name: 'pivot burden',
      needs: 'ledger',
      assert: (expect, w) => expect(w).toHavePivotBurdenAtMost(needle),
    });
  }
  if (needle.stores.length > 0) {
    list.push({
      name: 'reconciled',
      needs: 'note',
      assert: (expect, w) => expect(w).toReconcileStores(needle),
    });
  }
  if (context.verifier) {
    const verifier = context.verifier;
    list.push({
      name: 'citation precision',
      needs: 'note',
      assert: (expect, w) => expect(w).toHaveCitationPrecision(t.citation_precision ?? 1, { verifier }),
    });
  }
  return list;
}
