import type { LedgerEntry } from '../model/ledger.js';
import type { Workup } from '../model/workup.js';

export interface MaterialOptions {
  /**
   * Include a summary of the provenance ledger (each query and what it returned), so criteria such as accuracy can
   * be judged against the evidence the note cites. @default true
   */
  ledger?: boolean;
  /** At most this many ledger entries listed, the first ones. @default 200 */
  maxEntries?: number;
  /** At most this many facts listed per ledger entry. @default 8 */
  factsPerEntry?: number;
  /** A document passage is clipped to this many characters. @default 300 */
  passageChars?: number;
}

/** What the judge reads: the task, the note and (optionally) the ledger summary. */
export interface Material {
  /** The question the agent was given, when the workup records it (`meta.input`, `meta.task` or the trajectory's input). */
  task?: string;
  note: string;
  ledger?: string;
}

/**
 * The material judged for a workup, or undefined when it has no note to judge. Everything in it is agent-produced,
 * untrusted text: it is only ever quoted into a prompt, never interpreted.
 */
export function workupMaterial(workup: Workup, options: MaterialOptions = {}): Material | undefined {
  const note = workup.note?.source;
  if (note === undefined || note.trim() === '') return undefined;
  const task = taskOf(workup);
  const ledger =
    (options.ledger ?? true) && workup.ledger.length > 0
      ? summarizeLedger(workup.ledger, options)
      : undefined;
  return { ...(task !== undefined && { task }), note, ...(ledger !== undefined && { ledger }) };
}

/** One line per query (`[g4] graph: neighbors("Ash Cell") → 2 results`), then its facts or passage, indented. */
export function summarizeLedger(ledger: readonly LedgerEntry[], options: MaterialOptions = {}): string {
  const perEntry = options.factsPerEntry ?? 8;
  const passageChars = options.passageChars ?? 300;
  const maxEntries = options.maxEntries ?? 200;
  const lines: string[] = [];
  for (const entry of ledger.slice(0, maxEntries)) {
    const outcome =
      entry.error !== undefined
        ? `error: ${entry.error}`
        : `${entry.results.length} result${entry.results.length === 1 ? '' : 's'}`;
    lines.push(`[${entry.id}] ${entry.store}: ${oneLine(entry.query)} → ${outcome}`);
    for (const fact of entry.results.slice(0, perEntry)) {
      lines.push(`    ${oneLine(fact.subject)} ${oneLine(fact.relation)} ${oneLine(fact.object)}`);
    }
    if (entry.results.length > perEntry) lines.push(`    … ${entry.results.length - perEntry} more`);
    if (entry.text !== undefined && entry.text.trim() !== '') {
      const text = oneLine(entry.text);
      lines.push(`    "${text.length > passageChars ? `${text.slice(0, passageChars)}…` : text}"`);
    }
  }
  if (ledger.length > maxEntries) lines.push(`… ${ledger.length - maxEntries} more queries`);
  return lines.join('\n');
}

/** The question: `meta.json` `input`, else its `task` (older workups wrote the question there), else the trajectory's. */
function taskOf(workup: Workup): string | undefined {
  for (const text of [workup.meta.input, workup.meta.task, workup.trajectory?.task_input]) {
    if (typeof text === 'string' && text.trim() !== '') return text.trim();
  }
  return undefined;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
