// The acceptance run every harness must replay offline: `repeats: 3` of the bridge question, recorded to a cassette
// with a flaky second trial (a guess), then replayed with a model and tools that throw if asked: the same trials pass.
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { CassetteMissError, CassetteUse, Workup } from '../../../src/index.js';
import { type Agent, agentTest } from '../../../src/vitest/agent.js';
import { bridgeTurns, guessTurns, type Turn } from './agent.js';
import { compoundAlpha, GUESS_NOTE, graphLedger, groundedNote, QUESTION } from './world.js';

/** The turns of one trial: the second guesses, the others walk the bridge. */
export function flakyTurns(trial: number): Turn[] {
  return trial === 2 ? guessTurns(GUESS_NOTE) : bridgeTurns(groundedNote(['call-1', 'call-2', 'call-3']));
}

/** The trials whose workup is grounded (the compound-alpha needle). */
async function groundedTrials(trials: readonly Workup[]): Promise<unknown[]> {
  const needle = await compoundAlpha();
  return trials
    .filter((w) => {
      try {
        expect(w).toBeGrounded(needle);
        return true;
      } catch {
        return false;
      }
    })
    .map((w) => w.meta.trial);
}

const useOf = (w: Workup) => w.meta['cassette'] as CassetteUse;

/** What a run did, without its clock: each step's kind, tool, input, output and text; each ledger entry's query. */
const shape = (w: Workup) => ({
  steps: w.trajectory!.steps.map((s) => [s.step_type, s.tool_name, s.tool_input, s.tool_output, s.content]),
  ledger: w.ledger.map((e) => [e.id, e.query, e.results, e.error ?? null]),
});

/**
 * The suite: record three trials (`agent('live')`: each trial calls its scripted model and tools), replay them
 * (`agent('offline')`), then replay again with the second tool call of trial 1 deleted from the cassette.
 */
export function flakyReplaySuite(harness: string, agent: (source: 'live' | 'offline') => Agent): void {
  const root = mkdtempSync(join(tmpdir(), `needlework-${harness}-`));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  // The folder does not exist yet: the cassette makes it.
  const file = join(root, 'cassettes', `${harness}.json`);
  const options = { workups: false as const, recorder: { ledger: graphLedger } };
  const record = agentTest(agent('live'), { ...options, cassette: { file, mode: 'auto' } });
  const replay = agentTest(agent('offline'), { ...options, cassette: { file, mode: 'replay' } });
  let live: number[] = [];
  let shapes: unknown[] = [];

  describe(`${harness}: repeats: 3 with a flaky trial, on a cassette`, () => {
    record('records each trial live, the second a guess: 2 of 3 grounded', async ({ runAgent }) => {
      const trials = await runAgent(QUESTION, { repeats: 3, task: 'bridge' });
      expect(await groundedTrials(trials)).toEqual([1, 3]);
      live = trials.map((w) => useOf(w).live);
      shapes = trials.map(shape);
      // One model turn per call along the bridge, then the answer; the guess makes one call.
      expect(trials.map((w) => w.trajectory!.steps.map((s) => s.step_type).join(' '))).toEqual([
        'tool_call observation tool_call observation tool_call observation answer',
        'tool_call observation answer',
        'tool_call observation tool_call observation tool_call observation answer',
      ]);
      // Every trial called its model and tools live, the guess fewer times.
      expect(live[0]).toBeGreaterThan(live[1]!);
      expect(live[1]).toBeGreaterThan(0);
      expect(live[2]).toBe(live[0]);
      expect(trials.map((w) => useOf(w).replayed)).toEqual([0, 0, 0]);
    });

    replay('replays offline to the same 2 of 3, each trial as it was recorded', async ({ runAgent }) => {
      const trials = await runAgent(QUESTION, { repeats: 3, task: 'bridge' });
      expect(await groundedTrials(trials)).toEqual([1, 3]);
      expect(trials.map((w) => [useOf(w).replayed, useOf(w).live, useOf(w).recording])).toEqual(
        live.map((n) => [n, 0, 'per-trial']),
      );
      expect(trials[1]!.trajectory?.final_answer).toBe(GUESS_NOTE);
      expect(trials.map(shape)).toEqual(shapes);
    });

    // Before the fixture opens the cassette for the next test.
    test('(the second tool call of trial 1 is deleted from the cassette)', async () => {
      const body = JSON.parse(await readFile(file, 'utf8'));
      const [hash] = Object.entries(body.entries).find(([, entry]) => {
        const { request } = entry as { request: { kind: string; trial: number; args: { entity?: string } } };
        return request.kind === 'tool' && request.trial === 1 && request.args.entity === 'Ash Cell';
      })!;
      delete body.entries[hash];
      await writeFile(file, JSON.stringify(body, null, 2));
    });

    replay('fails naming the tool call whose entry was deleted', async ({ runAgent }) => {
      const error = (await runAgent(QUESTION, { repeats: 3 }).catch((e: unknown) => e)) as CassetteMissError;
      expect(error.name, error.message).toBe('CassetteMissError');
      expect(error.message.slice(0, 600)).toMatch(
        /^no recorded tool call graph_query\(\{"entity":"Ash Cell","relation":"CO_LOCATED"\}\) \(trial 1\) in /,
      );
    });
  });
}
