// The acceptance agent's moves, for SDKs whose mock model is scripted turn by turn: call graph_query along the
// bridge (or not at all), then answer. The recorder is fed by the harness under test, not here.
import { BRIDGE_CALLS, type GraphQuery, GUESS_CALLS } from './world.js';

/** One scripted model turn: tool calls to make, or the final text. */
export type Turn = { calls: Array<{ id: string; name: string; input: GraphQuery }> } | { text: string };

/**
 * The turns of the grounded agent: one `graph_query` per turn along the bridge, then a final answer. Call ids are
 * `call-1`, `call-2`, `call-3`, so the note cites them as written.
 */
export function bridgeTurns(answer = 'Compound-Alpha links Halberd to Wren.'): Turn[] {
  return [
    ...BRIDGE_CALLS.map((input, i) => ({ calls: [{ id: `call-${i + 1}`, name: 'graph_query', input }] })),
    { text: answer },
  ];
}

/** The turns of the guessing agent: one look that never reaches Wren (`GUESS_CALLS`), then the same answer. */
export function guessTurns(answer = 'Compound-Alpha links Halberd to Wren.'): Turn[] {
  return [
    ...GUESS_CALLS.map((input, i) => ({ calls: [{ id: `call-${i + 1}`, name: 'graph_query', input }] })),
    { text: answer },
  ];
}

export { failure } from '../../vitest/helpers.js';
