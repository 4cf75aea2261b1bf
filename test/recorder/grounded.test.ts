import { describe, expect, it } from 'vitest';
import { createRecorder } from '../../src/index.js';
import { failure } from '../harness/helpers/agent.js';
import {
  BRIDGE_CALLS,
  compoundAlpha,
  GUESS_CALLS,
  GUESS_NOTE,
  graphLedger,
  graphQuery,
  groundedNote,
  QUESTION,
} from '../harness/helpers/world.js';

describe('a recorded run and the compound-alpha needle', () => {
  it('is grounded when the agent walked the bridge and cites its calls', async () => {
    const recorder = createRecorder({ id: 'walked', input: QUESTION, ledger: graphLedger });
    const ids = BRIDGE_CALLS.map((input) => {
      const id = recorder.toolCall('graph_query', input);
      recorder.toolResult(id, graphQuery(input));
      return id;
    });
    recorder.answer('Compound-Alpha');
    recorder.note(groundedNote(ids));
    const workup = recorder.workup();
    expect(workup.ledger.map((e) => e.results.map((f) => `${f.subject} ${f.relation} ${f.object}`))).toEqual([
      ['Halberd MEMBER_OF Ash Cell'],
      ['Ash Cell CO_LOCATED Compound-Alpha'],
      ['Ash Cell CO_LOCATED Compound-Alpha', 'Wren CO_LOCATED Compound-Alpha'],
    ]);
    expect(workup).toBeGrounded(await compoundAlpha());
  });

  it('is a guess when the same agent answers without the bridge calls', async () => {
    const recorder = createRecorder({ id: 'guessed', input: QUESTION, ledger: graphLedger });
    for (const input of GUESS_CALLS)
      recorder.toolResult(recorder.toolCall('graph_query', input), graphQuery(input));
    recorder.answer('Compound-Alpha');
    recorder.note(GUESS_NOTE);
    const needle = await compoundAlpha();
    expect(failure(() => expect(recorder.workup()).toBeGrounded(needle))).toMatch(
      /^expect\(workup\)\.toBeGrounded\(needle\)\n\nA guess, not a finding: the note of workup guessed names Compound-Alpha, but its ledger never traversed MEMBER_OF → CO_LOCATED → CO_LOCATED/,
    );
  });
});
