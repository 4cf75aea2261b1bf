import type { ImportedWorkup } from '../../adapters/imported.js';
import { plural } from '../../io/plural.js';
import { errorSteps, toolCalls } from '../../model/trajectory.js';
import type { WorkupMeta } from '../../model/workup.js';
import { colors, type Io } from '../io.js';

const CITATION = /\[cite:\s*([^\]]*)\]/g;

/** The field of a `*.workups.jsonl` line that holds what a workup folder keeps in each file. */
const FIELD: Readonly<Record<string, string>> = {
  'trajectory.json': 'trajectory',
  'note.md': 'note',
  'gold.trajectory.json': 'gold',
  'meta.json': 'meta',
};

/**
 * Prints what one imported workup took and what it could not: the files written, steps and tool calls, how many
 * calls kept their arguments, the answer and its citations, the task outcome, and each thing the source held that
 * the workup lacks. Returns false (after saying why on stderr) when the workup took no tool call from a source that
 * shows some, so the command exits non-zero.
 */
export function printSummary(
  workup: ImportedWorkup,
  written: { folder: string; files: readonly string[]; line?: number },
  file: string,
  io: Io,
): boolean {
  const c = colors(io);
  // In a `*.workups.jsonl` file a workup is a line, and its parts are fields of it.
  const at = (name: string) =>
    written.line === undefined
      ? `${written.folder}/${name}`
      : `${written.folder}:${written.line} ${FIELD[name] ?? name}`;
  const t = workup.trajectory;
  const calls = toolCalls(t);
  io.out(
    `${c.green('✓')} wrote ${at('trajectory.json')}: ${plural(t.steps.length, 'step')}, ` +
      `${plural(calls.length, 'tool call')}${tally(calls.map((s) => s.tool_name ?? '?'))}`,
  );
  const answer = t.final_answer;
  if (answer !== null) {
    io.out(
      `${c.green('✓')} wrote ${at('note.md')}: the final answer (${plural(answer.length, 'character')})`,
    );
  }
  if (workup.gold) {
    io.out(
      `${c.green('✓')} wrote ${at('gold.trajectory.json')}: ${plural(toolCalls(workup.gold).length, 'expected tool call')}`,
    );
  }
  if (written.files.includes('meta.json'))
    io.out(`${c.green('✓')} wrote ${at('meta.json')}: ${metaLine(workup.meta)}`);

  if (calls.length > 0) {
    const bare = calls.filter((s) => s.tool_input === null || Object.keys(s.tool_input).length === 0);
    io.out(`  arguments: ${calls.length - bare.length} of ${plural(calls.length, 'tool call')}`);
    if (bare.length > 0) {
      io.out(
        `  ${c.yellow('!')} ${plural(bare.length, 'tool call')} without arguments${tally(bare.map((s) => s.tool_name ?? '?'))}`,
      );
    }
  }
  const errors = errorSteps(t);
  if (errors.length > 0) {
    io.out(`  tool errors: ${errors.length}${tally(errors.map((s) => s.tool_name ?? '?'))}`);
  }
  if (answer === null) {
    io.out(`  ${c.yellow('!')} no final answer in this run, so no note.md was written`);
  } else {
    const cites = [...answer.matchAll(CITATION)].length;
    io.out(
      cites === 0
        ? '  citations: none in the answer'
        : `  citations: ${cites} in the answer; the source has no provenance ledger, so none of them resolves until one is added`,
    );
  }
  for (const d of workup.dropped) io.out(`  ${c.yellow('!')} could not take: ${d}`);

  const shown = workup.sourceToolCalls ?? 0;
  if (calls.length === 0 && shown > 0) {
    io.err(
      `${c.red('✗')} ${file}: took no tool call from ${workup.name}, but the source shows ${shown}; ` +
        'name the producer in an issue so its format can be read',
    );
    return false;
  }
  return true;
}

function metaLine(meta: WorkupMeta): string {
  const parts: string[] = [];
  const outcome = meta.outcome;
  if (outcome) {
    const verdict =
      outcome.succeeded === true ? 'succeeded' : outcome.succeeded === false ? 'failed' : 'unknown';
    const detail = [
      ...(outcome.reward !== undefined ? [`reward ${outcome.reward}`] : []),
      ...(outcome.status !== undefined ? [outcome.status] : []),
    ];
    parts.push(`outcome ${verdict}${detail.length > 0 ? ` (${detail.join(', ')})` : ''}`);
  } else {
    parts.push('outcome unknown (the source records none)');
  }
  if (meta.task !== undefined) parts.push(`task ${meta.task}`);
  if (meta.trial !== undefined) parts.push(`trial ${meta.trial}`);
  if (typeof meta['cost_usd'] === 'number') parts.push(`cost ${meta['cost_usd']} USD`);
  if (meta.trace)
    parts.push(`trace ${meta.trace.traceId}${meta.trace.spanId ? ` span ${meta.trace.spanId}` : ''}`);
  return parts.join(', ');
}

/** ` (a ×2, b)`: names with their counts, in first-seen order; empty for no names. */
function tally(names: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  const text = [...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(', ');
  return text === '' ? '' : ` (${text})`;
}

export { plural };
