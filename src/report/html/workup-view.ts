import type { CheckMeta } from '../../model/check.js';
import type { Workup } from '../../model/workup.js';
import { noteMarks, requiredPaths, tallySteps } from '../../views/workup.js';
import type { HtmlTrajectory, HtmlWorkup } from './types.js';

const CONTENT_LIMIT = 400;

/**
 * The report's view of one workup: the note with every citation and claim marked, the ledger, the trajectory as a
 * timeline, and the required path against the traversed one (`src/views/workup.ts` reads them; the UI reads the same).
 */
export function workupView(
  workup: Workup,
  metas: readonly CheckMeta[],
  path?: string,
): Omit<HtmlWorkup, 'key'> {
  const view: Omit<HtmlWorkup, 'key'> = {
    id: workup.id,
    ledger: workup.ledger.map((entry) => ({
      id: entry.id,
      store: entry.store,
      query: entry.query,
      results: entry.results.length,
      ...(entry.error ? { error: entry.error } : {}),
    })),
    paths: requiredPaths(metas).map(({ check: _, ...p }) => p),
  };
  if (path) view.path = path;
  const note = noteMarks(workup, metas);
  if (note) view.note = note;
  if (workup.trajectory) view.trajectory = trajectoryView(workup);
  return view;
}

function trajectoryView(workup: Workup): HtmlTrajectory {
  const trajectory = workup.trajectory!;
  const tally = tallySteps(trajectory);
  const steps = trajectory.steps.map((step, i) => {
    const out: HtmlTrajectory['steps'][number] = {
      id: step.step_id,
      type: step.step_type,
      content:
        step.content.length > CONTENT_LIMIT ? `${step.content.slice(0, CONTENT_LIMIT)}…` : step.content,
      latencyMs: step.latency_ms,
      tokens: step.tokens_used,
    };
    if (step.tool_name) out.tool = step.tool_name;
    if (step.error !== null) out.error = step.error;
    if (tally.redundant.has(i)) out.redundant = true;
    return out;
  });
  // The header totals the rows below it; the trajectory's own totals are kept beside them where they differ (an
  // importer that wrote none, an SDK's usage, a run's wall time), never shown as the total of those rows.
  const view: HtmlTrajectory = {
    steps,
    totalTokens: tally.tokens,
    totalLatencyMs: tally.latencyMs,
    toolCalls: tally.toolCalls,
    errors: tally.errors,
    redundant: tally.redundant.size,
  };
  if (tally.recorded) view.recorded = tally.recorded;
  return view;
}
