import { beforeAll, describe, expect, it } from 'vitest';
import {
  citationRecall,
  citedClaims,
  findUncitedClaims,
  ledgerSources,
  resolveCitations,
} from '../../src/metrics/citations/index.js';
import type { Workup } from '../../src/model/workup.js';
import { parseNote } from '../../src/note/parse.js';
import { loadWorkup } from '../../src/workup/load.js';

const FIXTURES = new URL('../../fixtures/workups/', import.meta.url).pathname;
const workups: Record<string, Workup> = {};
beforeAll(async () => {
  for (const name of ['grounded', 'guessed', 'uncited', 'unsupported', 'dangling']) {
    workups[name] = await loadWorkup(`${FIXTURES}${name}`);
  }
});

describe('resolveCitations', () => {
  it('dangling fails resolution, naming g99 with its line and column', () => {
    const r = resolveCitations(workups['dangling']!);
    expect(r.value).toBe(false);
    expect(r.dangling).toEqual([
      { id: 'g99', section: 'Findings', position: { line: 13, column: 61, offset: expect.any(Number) } },
    ]);
    expect(r.resolved.map((c) => c.id)).toEqual(['g4', 'g5', 'g1', 'g4', 'g5', 'g6', 'g1', 'g2']);
  });

  it.each(['grounded', 'guessed', 'uncited', 'unsupported'])('%s resolves every citation', (name) => {
    const r = resolveCitations(workups[name]!);
    expect(r.value).toBe(true);
    expect(r.dangling).toEqual([]);
  });

  it('unsupported resolves fine structurally: its false claim cites a real query (entailment is Stage 2)', () => {
    const r = resolveCitations(workups['unsupported']!);
    expect(r.resolved.find((c) => c.id === 'g6')).toMatchObject({ store: 'docs', section: 'Findings' });
    expect(citationRecall(workups['unsupported']!.note!).value).toBe(1);
  });

  it('marks a citation of a failed query, and is not applicable without a note', () => {
    const w: Workup = {
      id: 'w',
      note: parseNote('## Findings\n\n- Ash Cell timed out. [cite:g3]\n'),
      ledger: [{ id: 'g3', store: 'graph', query: 'q', results: [], error: 'timeout' }],
      meta: {},
    };
    expect(resolveCitations(w).resolved).toMatchObject([{ id: 'g3', error: 'timeout' }]);
    expect(resolveCitations({ id: 'n', ledger: [], meta: {} })).toEqual({
      value: null,
      reason: 'the workup has no note',
      resolved: [],
      dangling: [],
    });
  });

  it('a prototype key is not a ledger entry', () => {
    const w: Workup = { id: 'w', note: parseNote('- Claim. [cite:constructor]\n'), ledger: [], meta: {} };
    expect(resolveCitations(w).dangling.map((c) => c.id)).toEqual(['constructor']);
  });
});

describe('findUncitedClaims (Stage 1)', () => {
  it('uncited names the prose after the last citation and the bullet with none, with their lines', () => {
    const uncited = findUncitedClaims(workups['uncited']!.note!);
    expect(uncited.map((u) => [u.section, u.text, u.line, u.column])).toEqual([
      ['Findings', 'Wren visited the site twice in March.', 11, 51],
      ['Findings', 'Halberd and Wren probably know each other personally.', 12, 3],
    ]);
    // Each uncited claim comes with the whole sentence(s) it stands in.
    expect(uncited[0]!.sentences.some((s) => s.endsWith('Wren visited the site twice in March.'))).toBe(true);
    expect(uncited[1]!.sentences).toEqual(['Halberd and Wren probably know each other personally.']);
  });

  it.each(['grounded', 'guessed', 'unsupported', 'dangling'])('%s has no uncited claim', (name) => {
    expect(findUncitedClaims(workups[name]!.note!)).toEqual([]);
  });

  it('exempts Gaps & caveats and Provenance, and a stray "." after the last citation is not a claim', () => {
    const note = parseNote(
      '## Findings\n\n- Halberd is in Ash Cell [cite:g1].\n\n## Gaps & caveats\n\n- Nothing checked.\n\n## Provenance\n\n- Queries g1.\n',
    );
    expect(findUncitedClaims(note)).toEqual([]);
  });

  it('a sentence sandwiched before a trailing citation is covered (the seed’s known limit)', () => {
    const note = parseNote('- First claim. Second claim. [cite:g1]\n');
    expect(findUncitedClaims(note)).toEqual([]);
  });
});

describe('citationRecall (structural)', () => {
  it('counts claim sentences: uncited covers 7 of 9 (a sentence after a trailing citation is its own)', () => {
    const r = citationRecall(workups['uncited']!.note!);
    expect([r.covered, r.total, r.value]).toEqual([7, 9, 7 / 9]);
    expect(r.uncited).toHaveLength(2);
  });

  it('is 1 for a fully cited note and not applicable to a note that makes no claims', () => {
    expect(citationRecall(workups['grounded']!.note!).value).toBe(1);
    expect(citationRecall(parseNote('## Gaps & caveats\n\n- Unknown.\n'))).toEqual({
      value: null,
      reason: 'the note makes no claims',
      covered: 0,
      total: 0,
      uncited: [],
    });
  });

  it('a sentence with prose after the citation inside it is not covered', () => {
    const r = citationRecall(parseNote('- Halberd is in Ash Cell [cite:g1] and Wren is not.\n'));
    expect([r.covered, r.total]).toEqual([0, 1]);
    expect(r.uncited.map((u) => u.text)).toEqual(['and Wren is not.']);
  });
});

describe('citedClaims and ledgerSources (inputs for citationScores)', () => {
  it('one claim per covered part with the segment’s citations, one per uncovered part with none', () => {
    const claims = citedClaims(workups['uncited']!.note!);
    expect(claims.map((c) => [c.text, c.citations])).toEqual([
      [
        'Halberd and Wren are linked through the Compound-Alpha facility. We assess with moderate confidence that they likely share access to the site.',
        ['g4', 'g5'],
      ],
      ['Halberd is a member of Ash Cell.', ['g1']],
      ['Ash Cell is co-located at Compound-Alpha.', ['g4']],
      ['Wren is co-located at Compound-Alpha.', ['g5']],
      ['Wren visited the site twice in March.', []],
      ['Halberd and Wren probably know each other personally.', []],
      ['Compound-Alpha stands on the north quay of Port Sable.', ['g6']],
      [
        'Depot-Seven as the link: Halberd travelled there, but nothing places Wren at Depot-Seven, so it is unlikely to be the bridge.',
        ['g1', 'g2'],
      ],
    ]);
  });

  it('a repeated citation is two citations, as ALCE reads [1][1]; the claim unit still cites the id once', () => {
    const note = parseNote('- Halberd is in Ash Cell. [cite:g1][cite:g2, g1]\n');
    expect(citedClaims(note).map((c) => c.citations)).toEqual([['g1', 'g2', 'g1']]);
    expect(findUncitedClaims(note)).toEqual([]);
  });

  it('a source is the passage, then each fact as a sentence; a failed query is empty', () => {
    const sources = ledgerSources(workups['unsupported']!.ledger);
    expect(sources['g6']).toBe(
      'Kestrel Group reports grants to several community groups, among them Ash Cell, and leases a warehouse at Depot-Seven.\nAsh Cell funded by Kestrel Group.\nKestrel Group co located Depot-Seven.',
    );
    expect(sources['g1']).toBe(
      'Halberd member of Ash Cell.\nHalberd traveled to Depot-Seven.\nHalberd alias Gray Heron.',
    );
    expect(sources['g3']).toBe('');
    expect(Object.hasOwn(sources, 'constructor')).toBe(false);
  });
});
