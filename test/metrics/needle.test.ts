import { beforeAll, describe, expect, it } from 'vitest';
import { scoreNeedle, traversePath } from '../../src/metrics/needle/index.js';
import type { Fact } from '../../src/model/fact.js';
import type { LedgerEntry } from '../../src/model/ledger.js';
import type { NeedleSpec, RequiredPath } from '../../src/model/spec.js';
import type { Workup } from '../../src/model/workup.js';
import { parseNote } from '../../src/note/parse.js';
import { loadSpec } from '../../src/specs/load.js';
import { loadWorkup } from '../../src/workup/load.js';

const FIXTURES = new URL('../../fixtures/workups/', import.meta.url).pathname;
const NEEDLES = new URL('../../needles/', import.meta.url).pathname;

let bridge: NeedleSpec;
let wrenTie: NeedleSpec;
const workups: Record<string, Workup> = {};
beforeAll(async () => {
  bridge = (await loadSpec(`${NEEDLES}compound-alpha.needle.yaml`)) as NeedleSpec;
  wrenTie = (await loadSpec(`${NEEDLES}wren-tie.needle.yaml`)) as NeedleSpec;
  for (const name of [
    'grounded',
    'guessed',
    'uncited',
    'unsupported',
    'dangling',
    'cross-store-agree',
    'cross-store-conflict',
    'single-file.workup.json',
  ]) {
    workups[name] = await loadWorkup(`${FIXTURES}${name}`);
  }
});

const fact = (subject: string, relation: string, object: string): Fact => ({ subject, relation, object });
const entry = (id: string, ...results: Fact[]): LedgerEntry => ({ id, store: 'graph', query: id, results });
const path = (relations: string[], extra: Partial<RequiredPath> = {}): RequiredPath => ({
  relations,
  directed: false,
  ...extra,
});
const needle = (over: Partial<NeedleSpec> = {}): NeedleSpec => ({
  kind: 'needle',
  id: 'test',
  answer: 'Compound-Alpha',
  aliases: [],
  required_path: path(['MEMBER_OF', 'CO_LOCATED', 'CO_LOCATED'], { from: 'Halberd', to: 'Wren' }),
  required_cites: [],
  stores: [],
  thresholds: {},
  ...over,
});

const HALBERD = fact('Halberd', 'MEMBER_OF', 'Ash Cell');
const ASH = fact('Ash Cell', 'CO_LOCATED', 'Compound-Alpha');
const WREN = fact('Wren', 'CO_LOCATED', 'Compound-Alpha');

describe('scoreNeedle on the fixture workups (compound-alpha-bridge)', () => {
  it('grounded: recall 1, trajectory 1 via g1, g4, g5, grounded, pivot burden 5 queries and 3 hops', () => {
    const score = scoreNeedle(workups['grounded']!, bridge);
    expect(score.recall.value).toBe(1);
    expect(score.recall.match).toMatchObject({ form: 'Compound-Alpha', section: 'Summary' });
    expect(score.trajectory).toMatchObject({ value: 1, ledgerIds: ['g1', 'g4', 'g5'], completedAt: 4 });
    // The last edge is walked backwards: Compound-Alpha <-CO_LOCATED- Wren.
    expect(score.trajectory.path!.map((h) => [h.from, h.to, h.direction])).toEqual([
      ['Halberd', 'Ash Cell', 'forward'],
      ['Ash Cell', 'Compound-Alpha', 'forward'],
      ['Compound-Alpha', 'Wren', 'backward'],
    ]);
    expect(score.grounded).toEqual({ value: true });
    expect(score.guess).toEqual({ value: false });
    expect(score.pivotBurden).toEqual({ value: { queries: 5, hops: 3, completedBy: 'g5' } });
    expect(score.precision.value).toBe(1);
    expect(score.precision.unasserted).toEqual([]);
    expect(score.supportingFacts.value).toEqual({ em: 1, f1: 1, precision: 1, recall: 1 });
    expect(score.reconciliation).toEqual({ value: null, reason: 'not a cross-store needle (no stores)' });
  });

  it('guessed: recall 1 and trajectory 0 is a guess, with the longest prefix and what is missing', () => {
    const score = scoreNeedle(workups['guessed']!, bridge);
    expect(score.recall.value).toBe(1);
    expect(score.trajectory.value).toBe(0);
    expect(score.trajectory.reason).toBe(
      'no chain of facts gets past hop 1 of 3: nothing CO_LOCATED from Ash Cell (longest chain: Halberd -MEMBER_OF-> Ash Cell)',
    );
    expect(score.trajectory.prefix).toMatchObject({
      relations: ['MEMBER_OF'],
      facts: [HALBERD],
      ledgerIds: ['g1'],
    });
    expect(score.guess).toEqual({ value: true });
    expect(score.grounded).toEqual({ value: false });
    expect(score.pivotBurden).toEqual({ value: null, reason: 'the ledger never completes the path' });
    // "Ash Cell operates out of Compound-Alpha, where Wren also works. [cite:g2]": g2 never returned Ash Cell's edge.
    expect(score.precision.value).toBe(0.75);
    expect(score.precision.assertions.filter((a) => !a.correct)).toMatchObject([
      { fact: ASH, citations: ['g2'], returnedBy: [], position: { line: 10 } },
    ]);
    expect(score.supportingFacts.value).toEqual({ em: 0, f1: 0.8, precision: 1, recall: 2 / 3 });
    expect(score.supportingFacts.missing).toEqual([ASH]);
    expect(score.supportingFacts.extra).toEqual([]);
  });

  it.each(['uncited', 'unsupported'])(
    '%s is grounded (its problems are citation problems, not path problems)',
    (name) => {
      const score = scoreNeedle(workups[name]!, bridge);
      expect([score.recall.value, score.trajectory.value, score.grounded.value]).toEqual([1, 1, true]);
      expect(score.pivotBurden.value).toEqual({ queries: 5, hops: 3, completedBy: 'g5' });
    },
  );

  it('dangling: the bridge fact asserted under a dangling citation is not cited to a query that returned it', () => {
    const score = scoreNeedle(workups['dangling']!, bridge);
    expect(score.grounded.value).toBe(true);
    expect(score.precision.value).toBe(0.8);
    expect(score.precision.assertions.filter((a) => !a.correct)).toMatchObject([
      { fact: ASH, citations: ['g99'], position: { line: 13 } },
    ]);
  });

  it('single-file.workup.json: the whole workup in one JSON file scores as a folder does', () => {
    const score = scoreNeedle(workups['single-file.workup.json']!, bridge);
    expect(score.grounded.value).toBe(true);
    expect(score.pivotBurden.value).toEqual({ queries: 3, hops: 3, completedBy: 'g3' });
  });
});

describe('scoreNeedle reconciliation (wren-tie)', () => {
  it('cross-store-agree: both stores say Marrow Logistics, and the note corroborates it', () => {
    const r = scoreNeedle(workups['cross-store-agree']!, wrenTie).reconciliation;
    expect(r).toMatchObject({
      value: 1,
      subject: 'Wren',
      relation: 'EMPLOYED_BY',
      surfaced: true,
      storesQueried: true,
      verdict: 'agree',
      wording: ['agree', 'corroborated'],
      languageMatches: true,
    });
    expect(r.stores).toEqual([
      { store: 'graph', objects: ['Marrow Logistics'], ledgerIds: ['g1'] },
      { store: 'docs', objects: ['Marrow Logistics'], ledgerIds: ['g2'] },
    ]);
  });

  it('cross-store-conflict: the stores disagree, and the note flags the conflict', () => {
    const score = scoreNeedle(workups['cross-store-conflict']!, wrenTie);
    expect(score.reconciliation).toMatchObject({
      value: 1,
      verdict: 'conflict',
      wording: ['conflict', 'discrepancy'],
    });
    // The docs store's Tessellate Freight is cited too: an extra supporting fact.
    expect(score.supportingFacts.extra).toEqual([fact('Wren', 'EMPLOYED_BY', 'Tessellate Freight')]);
    expect(score.supportingFacts.value).toEqual({ em: 0, f1: 2 / 3, precision: 0.5, recall: 1 });
  });

  it('a note that calls a conflict an agreement fails the language check, and says why', () => {
    const w = workups['cross-store-conflict']!;
    const note = parseNote('## Summary\n\nWren works for Marrow Logistics; the stores agree. [cite:g1,g2]\n');
    const r = scoreNeedle({ ...w, note }, wrenTie).reconciliation;
    expect(r).toMatchObject({ verdict: 'conflict', languageMatches: false, wording: [] });
    expect(r.value).toBeCloseTo(2 / 3, 12);
    expect(r.reason).toBe('the stores conflict but the note never says so');
  });

  it('"inconsistent" is never read as "consistent", nor "disagree" as "agree"', () => {
    const w = workups['cross-store-agree']!;
    const note = parseNote(
      '## Summary\n\nMarrow Logistics employs Wren; the records are inconsistent and disagree. [cite:g1]\n',
    );
    expect(scoreNeedle({ ...w, note }, wrenTie).reconciliation).toMatchObject({
      verdict: 'agree',
      wording: [],
      languageMatches: false,
    });
  });

  it('a store never asked leaves no verdict and fails the stores check', () => {
    const w = workups['cross-store-agree']!;
    const r = scoreNeedle(
      { ...w, ledger: w.ledger.filter((e) => e.store === 'graph') },
      wrenTie,
    ).reconciliation;
    expect(r).toMatchObject({ storesQueried: false, languageMatches: false });
    expect(r.verdict).toBeUndefined();
    expect(r.value).toBeCloseTo(1 / 3, 12);
    expect(r.reason).toBe('store docs was never asked Wren EMPLOYED_BY');
  });
});

describe('traversePath', () => {
  const ledger = [entry('g1', HALBERD), entry('g2', ASH), entry('g3', WREN)];

  it('walks an edge backwards only when the path is not directed', () => {
    expect(
      traversePath(ledger, path(['MEMBER_OF', 'CO_LOCATED', 'CO_LOCATED'], { from: 'Halberd', to: 'Wren' }))
        .value,
    ).toBe(1);
    const directed = traversePath(
      ledger,
      path(['MEMBER_OF', 'CO_LOCATED', 'CO_LOCATED'], { from: 'Halberd', to: 'Wren', directed: true }),
    );
    expect(directed.value).toBe(0);
    expect(directed.prefix!.relations).toEqual(['MEMBER_OF', 'CO_LOCATED']);
    expect(directed.reason).toBe(
      'no chain of facts gets past hop 2 of 3: nothing CO_LOCATED from Compound-Alpha (longest chain: Halberd -MEMBER_OF-> Ash Cell, Ash Cell -CO_LOCATED-> Compound-Alpha)',
    );
  });

  it('follows the relations in order: the right facts in the wrong order are no path', () => {
    expect(traversePath(ledger, path(['CO_LOCATED', 'MEMBER_OF'], { from: 'Halberd' })).value).toBe(0);
  });

  it('never lets one fact stand for two hops by walking straight back along it', () => {
    const one = [entry('g1', ASH)];
    expect(traversePath(one, path(['CO_LOCATED', 'CO_LOCATED'])).value).toBe(0);
    expect(traversePath([entry('g1', ASH, WREN)], path(['CO_LOCATED', 'CO_LOCATED'])).value).toBe(1);
  });

  it('searches every chain: a dead end found first does not hide the chain that completes', () => {
    const branching = [
      entry('g1', fact('Halberd', 'MEMBER_OF', 'Decoy Cell'), HALBERD),
      entry('g2', fact('Decoy Cell', 'CO_LOCATED', 'Depot-Seven')),
      entry('g3', ASH),
      entry('g4', WREN),
    ];
    const score = traversePath(
      branching,
      path(['MEMBER_OF', 'CO_LOCATED', 'CO_LOCATED'], { from: 'Halberd', to: 'Wren' }),
    );
    expect(score).toMatchObject({ value: 1, ledgerIds: ['g1', 'g3', 'g4'], completedAt: 3 });
  });

  it('reports the entry that completed the path first, crediting each fact to the first entry that returned it', () => {
    const repeated = [entry('g1', HALBERD), entry('g2', HALBERD, ASH), entry('g3'), entry('g4', ASH, WREN)];
    expect(
      traversePath(
        repeated,
        path(['MEMBER_OF', 'CO_LOCATED', 'CO_LOCATED'], { from: 'Halberd', to: 'Wren' }),
      ),
    ).toMatchObject({
      value: 1,
      ledgerIds: ['g1', 'g2', 'g4'],
      completedAt: 3,
    });
  });

  it('without endpoints, a chain may start and end anywhere', () => {
    expect(traversePath(ledger, path(['CO_LOCATED', 'CO_LOCATED']))).toMatchObject({
      value: 1,
      completedAt: 2,
    });
  });

  it('a chain that reaches the last hop at the wrong entity says where it ended', () => {
    const score = traversePath(ledger, path(['MEMBER_OF', 'CO_LOCATED'], { from: 'Halberd', to: 'Wren' }));
    expect(score.value).toBe(0);
    expect(score.reason).toBe('chains of all 2 hops end at Compound-Alpha, never at Wren');
    expect(score.prefix!.relations).toEqual(['MEMBER_OF', 'CO_LOCATED']);
  });

  it('is not applicable to a path of no relations or an empty ledger; an endpoint no fact mentions is a 0', () => {
    expect(traversePath(ledger, path([]))).toEqual({
      value: null,
      reason: "the needle's required_path has no relations",
    });
    expect(traversePath([], path(['MEMBER_OF']))).toEqual({ value: null, reason: 'the ledger is empty' });
    expect(traversePath(ledger, path(['MEMBER_OF'], { from: 'Nobody' }))).toEqual({
      value: 0,
      reason: "the path's from endpoint Nobody is in no fact of the ledger",
    });
    expect(traversePath(ledger, path(['MEMBER_OF'], { to: 'Nowhere' }))).toEqual({
      value: 0,
      reason: "the path's to endpoint Nowhere is in no fact of the ledger",
    });
  });
});

describe('scoreNeedle on bad input: not applicable, never 0, never a crash', () => {
  it('a workup with no note scores its ledger and reports every note-based part as not applicable', () => {
    const w: Workup = {
      id: 'no-note',
      ledger: [entry('g1', HALBERD), entry('g2', ASH), entry('g3', WREN)],
      meta: {},
    };
    const score = scoreNeedle(w, needle({ required_cites: [HALBERD], stores: ['graph', 'docs'] }));
    expect(score.trajectory.value).toBe(1);
    expect(score.pivotBurden.value).toEqual({ queries: 3, hops: 3, completedBy: 'g3' });
    expect(score.recall).toEqual({ value: null, reason: 'the workup has no note' });
    expect(score.grounded).toEqual({
      value: null,
      reason: 'recall is not applicable (the workup has no note)',
    });
    expect(score.guess.value).toBeNull();
    expect(score.precision).toMatchObject({ value: null, reason: 'the workup has no note' });
    expect(score.supportingFacts).toMatchObject({ value: null, reason: 'the workup has no note' });
    expect(score.reconciliation).toEqual({ value: null, reason: 'the workup has no note' });
  });

  it('an empty ledger: trajectory, grounded, guess and pivot burden are not applicable; recall still scores', () => {
    const w: Workup = {
      id: 'empty',
      note: parseNote('## Findings\n\n- It is Compound-Alpha.\n'),
      ledger: [],
      meta: {},
    };
    const score = scoreNeedle(w, needle());
    expect(score.recall.value).toBe(1);
    expect(score.trajectory).toEqual({ value: null, reason: 'the ledger is empty' });
    expect(score.grounded).toEqual({
      value: null,
      reason: 'trajectory is not applicable (the ledger is empty)',
    });
    expect(score.pivotBurden).toEqual({
      value: null,
      reason: 'trajectory is not applicable (the ledger is empty)',
    });
    // No required cites and no completed path: no bridge facts to be precise about.
    expect(score.precision.value).toBeNull();
    expect(score.supportingFacts).toMatchObject({ value: null, reason: 'the needle has no required_cites' });
  });

  it('recall ignores sections that make no claims and looks for every alias', () => {
    const w = (md: string): Workup => ({ id: 'w', note: parseNote(md), ledger: [], meta: {} });
    const spec = needle({ aliases: ['Compound Alpha'] });
    expect(scoreNeedle(w('## Gaps & caveats\n\n- Is it Compound-Alpha?\n'), spec).recall).toEqual({
      value: 0,
      reason: 'no claim names "Compound-Alpha" or "Compound Alpha"',
    });
    expect(scoreNeedle(w('## Findings\n\n- At the Compound Alpha site.\n'), spec).recall).toMatchObject({
      value: 1,
      match: { form: 'Compound Alpha', position: { line: 3 } },
    });
    // Whole tokens only: "Compound Alphabet" does not name Compound Alpha.
    expect(scoreNeedle(w('## Findings\n\n- The Compound Alphabet.\n'), spec).recall.value).toBe(0);
    expect(scoreNeedle(w('## Findings\n\n- x\n'), needle({ answer: 'the' })).recall).toEqual({
      value: null,
      reason: 'the answer "the" normalizes to nothing',
    });
  });

  it('without required_cites, the bridge facts are those of the completed path', () => {
    const note = parseNote(
      '## Findings\n\n- Halberd is in Ash Cell. [cite:g1]\n- Ash Cell sits at Compound-Alpha. [cite:g1]\n',
    );
    const w: Workup = {
      id: 'w',
      note,
      ledger: [entry('g1', HALBERD), entry('g2', ASH), entry('g3', WREN)],
      meta: {},
    };
    const p = scoreNeedle(w, needle()).precision;
    expect(p.value).toBe(0.5);
    expect(p.unasserted).toEqual([WREN]);
  });

  it('prose after the last citation asserts a fact uncited', () => {
    const note = parseNote(
      '## Findings\n\n- Halberd is a member of Ash Cell. [cite:g1] Wren is at Compound-Alpha.\n',
    );
    const w: Workup = { id: 'w', note, ledger: [entry('g1', HALBERD, WREN)], meta: {} };
    const p = scoreNeedle(w, needle({ required_cites: [HALBERD, WREN] })).precision;
    expect(p.assertions.map((a) => [a.fact.subject, a.citations, a.correct])).toEqual([
      ['Halberd', ['g1'], true],
      ['Wren', [], false],
    ]);
  });
});
