// The two-tool agent the OpenAI Agents, LangChain and OTel harness tests drive through their SDKs: graph_query and
// docs_search over the fixture world, five model turns (a thought with a call, two calls at once, a failing call, a
// last call, the cited note), and what every harness must make of it.
import { expect } from 'vitest';
import type { Workup } from '../../../src/model/workup.js';
import type { Turn } from './agent.js';
import { docsSearch, graphQuery, QUESTION } from './world.js';

export interface ToolCall {
  id: string;
  name: 'graph_query' | 'docs_search';
  input: Record<string, string>;
}

/** One model turn: optional text, then the calls it makes (none: the text is the final answer). */
export interface ToolTurn {
  text?: string;
  calls: ToolCall[];
  usage?: { input: number; output: number };
}

/** The note the agent ends with, citing its graph calls and its document search. */
export const TWO_TOOL_NOTE = [
  '# Workup',
  '',
  '## Findings',
  '',
  '- Halberd is a member of Ash Cell. [cite:c-1]',
  '- Ash Cell and Wren are co-located at Compound-Alpha. [cite:c-2,c-4]',
  '- Compound-Alpha stands in Port Sable. [cite:c-3]',
  '',
].join('\n');

export const TWO_TOOL_TURNS: readonly ToolTurn[] = [
  {
    text: 'Start from Halberd.',
    calls: [{ id: 'c-1', name: 'graph_query', input: { entity: 'Halberd', relation: 'MEMBER_OF' } }],
    usage: { input: 100, output: 20 },
  },
  {
    calls: [
      { id: 'c-2', name: 'graph_query', input: { entity: 'Ash Cell', relation: 'CO_LOCATED' } },
      { id: 'c-3', name: 'docs_search', input: { query: 'Compound-Alpha' } },
    ],
  },
  { calls: [{ id: 'c-5', name: 'docs_search', input: { query: '' } }] },
  {
    calls: [{ id: 'c-4', name: 'graph_query', input: { entity: 'Compound-Alpha', relation: 'CO_LOCATED' } }],
  },
  { text: TWO_TOOL_NOTE, calls: [], usage: { input: 300, output: 60 } },
];

/** The tools' behaviour, shared by each SDK's tool definitions: docs_search fails on an empty query. */
export const TOOLS = {
  graph_query: (input: { entity: string; relation?: string }) => graphQuery(input),
  docs_search: ({ query }: { query: string }) => {
    if (query === '') throw new Error('empty query');
    return docsSearch({ query });
  },
};

/**
 * What every harness must record of the two-tool run: the question, the ledger (one entry per call, by the model's
 * call ids, the graph facts through the `graphLedger` option, the failed search's error), the note citing the calls,
 * and the traversal of the bridge. `toolError`: the failed call's error as the SDK reports it.
 */
export function expectTwoToolWorkup(workup: Workup, toolError = 'empty query'): void {
  expect(workup.trajectory?.task_input).toBe(QUESTION);
  expect(workup.trajectory?.final_answer).toBe(TWO_TOOL_NOTE);
  expect(workup.ledger.map((e) => [e.id, e.store, e.results.length, e.error ?? null])).toEqual([
    ['c-1', 'graph', 1, null],
    ['c-2', 'graph', 1, null],
    ['c-3', 'docs_search', 0, null],
    ['c-5', 'docs_search', 0, toolError],
    ['c-4', 'graph', 2, null],
  ]);
  expect(workup.ledger[0]!.query).toBe('graph_query({"entity":"Halberd","relation":"MEMBER_OF"})');
  const failed = workup.trajectory?.steps.find((s) => s.step_type === 'observation' && s.call_id === 'c-5');
  expect(failed).toMatchObject({ error: toolError, content: `ERROR: ${toolError}` });
  expect(workup.note?.citations.map((c) => c.id)).toEqual(['c-1', 'c-2', 'c-4', 'c-3']);
  expect(workup).toTraverse({
    relations: ['MEMBER_OF', 'CO_LOCATED', 'CO_LOCATED'],
    from: 'Halberd',
    to: 'Wren',
  });
  expect(workup).toHaveResolvableCitations();
}

/** The shared acceptance turns (`bridgeTurns`, `guessTurns`) as tool turns. */
export function toolTurns(turns: readonly Turn[]): ToolTurn[] {
  return turns.map((turn) =>
    'text' in turn
      ? { text: turn.text, calls: [] }
      : { calls: turn.calls.map((c) => ({ id: c.id, name: 'graph_query' as const, input: { ...c.input } })) },
  );
}
