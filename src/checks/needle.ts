// The criteria of a planted needle (seed 001, Thread 3), each from its metric to a verdict.

import { plural } from '../io/plural.js';
import { claimUnits } from '../metrics/citations/units.js';
import { traversePath } from '../metrics/needle/path.js';
import { needleRecall } from '../metrics/needle/recall.js';
import { scoreNeedle } from '../metrics/needle/score.js';
import type { NeedleScore, PathHop } from '../metrics/needle/types.js';
import { formatFact } from '../model/fact.js';
import type { NeedleSpec, RequiredPath } from '../model/spec.js';
import type { Workup } from '../model/workup.js';
import { formatValue } from './format.js';
import { type Measured, verdictOf } from './measure.js';

const scores = new WeakMap<Workup, WeakMap<NeedleSpec, NeedleScore>>();

/** `scoreNeedle`, computed once per workup and needle object: several criteria read one pair's score. */
export function needleScore(workup: Workup, needle: NeedleSpec): NeedleScore {
  let byNeedle = scores.get(workup);
  if (!byNeedle) {
    byNeedle = new WeakMap();
    scores.set(workup, byNeedle);
  }
  let score = byNeedle.get(needle);
  if (!score) {
    score = scoreNeedle(workup, needle);
    byNeedle.set(needle, score);
  }
  return score;
}

/** `A → B → C (from X to Y), directed`: a required path as messages and summaries show it. */
export function describePath(path: RequiredPath): string {
  const ends = [path.from && `from ${path.from}`, path.to && `to ${path.to}`].filter(Boolean).join(' ');
  return `${path.relations.join(' → ')}${ends ? ` (${ends})` : ''}${path.directed ? ', directed' : ''}`;
}

/** The note's claims name the needle's answer or an alias (`needleRecall`). */
export function surfaced(workup: Workup, needle: NeedleSpec): Measured {
  const score = needleRecall(workup.note, workup.note ? claimUnits(workup.note) : [], needle);
  const forms = [needle.answer, ...needle.aliases].map((f) => JSON.stringify(f)).join(' or ');
  return {
    criterion: 'surfaced',
    metric: 'recall',
    value: score.value,
    threshold: 1,
    comparator: '==',
    verdict: verdictOf(score.value, 1, '=='),
    summary:
      score.value === null
        ? (score.reason ?? 'not measured')
        : score.value === 1
          ? `names ${JSON.stringify(score.match?.form)} in ${score.match?.section}`
          : `never names ${forms}`,
    evidence: score.match ? { match: score.match } : {},
  };
}

/**
 * The ledger traversed the path (`traversePath`). The evidence keeps the relations traversed (the path, or the
 * longest prefix) and the hops with the ledger entries that returned them.
 */
export function traversed(workup: Workup, path: RequiredPath): Measured {
  const score = traversePath(workup.ledger, path);
  const pass = score.value === 1;
  const relations = pass ? path.relations : (score.prefix?.relations ?? []);
  const hops: PathHop[] = (pass ? score.path : score.prefix?.hops) ?? [];
  return {
    criterion: 'traversed',
    metric: 'trajectory',
    value: score.value,
    threshold: 1,
    comparator: '==',
    verdict: verdictOf(score.value, 1, '=='),
    summary:
      score.value === null
        ? (score.reason ?? 'not measured')
        : pass
          ? `traversed ${describePath(path)} via ${score.ledgerIds?.join(', ')}`
          : `required ${describePath(path)}; traversed ${relations.length} of ${plural(path.relations.length, 'hop')}${score.reason ? `: ${score.reason}` : ''}`,
    evidence: {
      required: path.relations,
      traversed: relations,
      ledgerIds: hops.map((h) => h.ledgerId),
      hops,
    },
  };
}

/** Surfaced and traversed: the run found the answer rather than guessed it. */
export function grounded(workup: Workup, needle: NeedleSpec): Measured {
  const score = needleScore(workup, needle);
  const path = needle.required_path.relations.join(' → ');
  const guess = score.guess.value === true;
  return {
    criterion: 'grounded',
    metric: 'grounded',
    value: score.grounded.value,
    verdict: verdictOf(score.grounded.value),
    summary:
      score.grounded.value === null
        ? (score.grounded.reason ?? 'not measured')
        : score.grounded.value
          ? `surfaced ${needle.answer} and traversed ${path}`
          : guess
            ? `a guess: names ${needle.answer}, but the ledger never traversed ${path}`
            : `not grounded: ${score.recall.value === 1 ? 'surfaced' : 'did not surface'} ${needle.answer}, ${score.trajectory.value === 1 ? 'traversed' : 'did not traverse'} ${path}`,
    evidence: {
      recall: score.recall.value,
      trajectory: score.trajectory.value,
      guess,
      ledgerIds: score.trajectory.ledgerIds ?? [],
    },
  };
}

/** The bridge facts the note asserts are cited to a ledger entry that returned them (`bridgePrecision`). */
export function bridgeCitations(workup: Workup, needle: NeedleSpec): Measured {
  const pr = needleScore(workup, needle).precision;
  const threshold = needle.thresholds.precision ?? 1;
  const wrong = pr.assertions.filter((a) => !a.correct);
  return {
    criterion: 'bridge-citations',
    metric: 'precision',
    value: pr.value,
    threshold,
    comparator: '>=',
    verdict: verdictOf(pr.value, threshold),
    summary:
      pr.value === null
        ? (pr.reason ?? 'not measured')
        : wrong.length > 0
          ? `not cited to a query that returned it: ${wrong
              .map(
                (a) =>
                  `${formatFact(a.fact)} (line ${a.position.line}, cites ${a.citations.join(', ') || 'nothing'})`,
              )
              .join('; ')}`
          : `${pr.assertions.length} bridge facts asserted, each cited to a query that returned it`,
    evidence: { assertions: JSON.parse(JSON.stringify(pr.assertions)) as unknown[] },
  };
}

/** HotpotQA supporting-fact F1 of the facts the note cites against `required_cites`. */
export function supportingFacts(workup: Workup, needle: NeedleSpec, min?: number): Measured {
  const threshold = min ?? needle.thresholds.supporting_fact_f1 ?? 1;
  const sf = needleScore(workup, needle).supportingFacts;
  const f1 = sf.value?.f1 ?? null;
  return {
    criterion: 'supporting-facts',
    metric: 'supporting_fact_f1',
    value: f1,
    threshold,
    comparator: '>=',
    verdict: verdictOf(f1, threshold),
    summary:
      f1 === null
        ? (sf.reason ?? 'not measured')
        : `F1 ${formatValue(f1)} (at least ${formatValue(threshold)}); ${sf.missing.length} missing, ${sf.extra.length} extra`,
    evidence: { ...(sf.value ?? {}), missing: sf.missing, extra: sf.extra, predicted: sf.predicted },
    ...(sf.value && { scores: { em: sf.value.em, precision: sf.value.precision, recall: sf.value.recall } }),
  };
}

/**
 * The path was completed within `max` queries (seed 001's pivot burden). A ledger that never completes the path
 * fails: its burden is unbounded, not unknown. Only a path that cannot be checked at all is not applicable.
 */
export function pivotBurden(workup: Workup, needle: NeedleSpec, max?: number): Measured {
  const limit = max ?? needle.thresholds.pivot_burden;
  const score = needleScore(workup, needle);
  const burden = score.pivotBurden;
  const queries = burden.value?.queries ?? null;
  const verdict =
    score.trajectory.value === null
      ? 'not-applicable'
      : queries === null
        ? 'fail'
        : limit === undefined || queries <= limit
          ? 'pass'
          : 'fail';
  return {
    criterion: 'pivot-burden',
    metric: 'pivot_burden',
    value: queries,
    ...(limit !== undefined && Number.isFinite(limit) && { threshold: limit }),
    comparator: '<=',
    unit: 'queries',
    verdict,
    summary:
      verdict === 'not-applicable'
        ? (burden.reason ?? 'not measured')
        : queries === null
          ? (burden.reason ?? 'the ledger never completes the path')
          : `path completed by ${burden.value!.completedBy} after ${plural(queries, 'query', 'queries')}, ${plural(burden.value!.hops, 'hop')}`,
    evidence: burden.value ? { ...burden.value } : { reason: burden.reason },
  };
}

/** A cross-store needle's stores were queried and the note states their agreement or conflict (`reconcileStores`). */
export function reconciled(workup: Workup, needle: NeedleSpec): Measured {
  const r = needleScore(workup, needle).reconciliation;
  const threshold = needle.thresholds.reconciliation ?? 1;
  const stores = (r.stores ?? []).map((s) => `${s.store}: ${s.objects.join(', ') || '(nothing)'}`).join('; ');
  return {
    criterion: 'reconciled',
    metric: 'reconciliation',
    value: r.value,
    threshold,
    comparator: '>=',
    verdict: verdictOf(r.value, threshold),
    summary: r.verdict
      ? `stores ${r.verdict === 'agree' ? 'agree' : 'conflict'} (${stores}); note says: ${r.wording?.join(', ') || 'nothing'}`
      : (r.reason ?? 'a store was not queried'),
    evidence: JSON.parse(JSON.stringify(r)) as Record<string, unknown>,
  };
}
