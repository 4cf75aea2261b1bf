// Shared by every harness's acceptance test: the fixture world as a graph tool, the scripted agent's moves along the
// Compound-Alpha bridge, and the notes it writes. Each harness drives its SDK's own mock model with these.
import { readFileSync } from 'node:fs';
import type { Fact } from '../../../src/model/fact.js';
import type { NeedleSpec } from '../../../src/model/spec.js';
import type { RecordedCall } from '../../../src/recorder/types.js';
import { loadSpec } from '../../../src/specs/load.js';

const root = new URL('../../../', import.meta.url).pathname;

/** The question the acceptance agent is asked. */
export const QUESTION = 'Who links Halberd to Wren?';

/** The fixture world's graph store (`fixtures/world/graph.jsonl`). */
export const GRAPH: readonly Fact[] = readFileSync(`${root}fixtures/world/graph.jsonl`, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as Fact);

/** The `graph_query` tool's arguments: an entity, and optionally one relation to follow. */
export interface GraphQuery {
  entity: string;
  relation?: string;
}

/** The `graph_query` tool: the facts that touch `entity` (as subject or object), of `relation` when given. */
export function graphQuery({ entity, relation }: GraphQuery): Fact[] {
  return GRAPH.filter(
    (f) =>
      (f.subject === entity || f.object === entity) && (relation === undefined || f.relation === relation),
  );
}

/** The recorder's `ledger` option for `graph_query`: its result is the list of facts it returned. */
export function graphLedger(call: RecordedCall): Fact[] | undefined {
  if (call.name !== 'graph_query' || !Array.isArray(call.output)) return undefined;
  return call.output as Fact[];
}

/** The three calls along MEMBER_OF -> CO_LOCATED -> CO_LOCATED: Halberd -> Ash Cell -> Compound-Alpha <- Wren. */
export const BRIDGE_CALLS: readonly GraphQuery[] = [
  { entity: 'Halberd', relation: 'MEMBER_OF' },
  { entity: 'Ash Cell', relation: 'CO_LOCATED' },
  { entity: 'Compound-Alpha', relation: 'CO_LOCATED' },
];

/**
 * The one call the guessing agent makes before it names the bridge anyway: a look at Halberd's travels, which never
 * reaches Wren. (With no call at all the ledger is empty, and the path check is not applicable rather than failed:
 * `traversePath` cannot tell a run that queried nothing from a workup that recorded no ledger.)
 */
export const GUESS_CALLS: readonly GraphQuery[] = [{ entity: 'Halberd', relation: 'TRAVELED_TO' }];

/** The second tool of the two-tool agent: a document search over `fixtures/world/documents.jsonl`. */
export function docsSearch({ query }: { query: string }): string[] {
  return readFileSync(`${root}fixtures/world/documents.jsonl`, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { text?: string })
    .map((doc) => doc.text ?? '')
    .filter((text) => text.includes(query));
}

/** The note the agent writes after the three calls, citing them by the ids the recorder used (in call order). */
export function groundedNote(ids: readonly string[]): string {
  const [member, cell, site] = ids;
  return [
    '# Workup: Halberd and Wren',
    '',
    '## Summary',
    '',
    `Halberd and Wren are linked through the Compound-Alpha facility. [cite:${cell},${site}]`,
    '',
    '## Findings',
    '',
    `- Halberd is a member of Ash Cell. [cite:${member}]`,
    `- Ash Cell is co-located at Compound-Alpha. [cite:${cell}]`,
    `- Wren is co-located at Compound-Alpha. [cite:${site}]`,
    '',
  ].join('\n');
}

/** The note the same agent writes when it answers without the bridge calls: the right answer, found nowhere. */
export const GUESS_NOTE = [
  '# Workup: Halberd and Wren',
  '',
  '## Summary',
  '',
  'Halberd and Wren are almost certainly linked through the Compound-Alpha facility.',
  '',
].join('\n');

/** The bundled `compound-alpha` needle. */
export async function compoundAlpha(): Promise<NeedleSpec> {
  return (await loadSpec(`${root}needles/compound-alpha.needle.yaml`)) as NeedleSpec;
}
