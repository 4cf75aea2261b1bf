import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { type Diagnostic, UserError } from '../errors/index.js';
import type { Fact } from '../model/fact.js';
import type { LedgerEntry } from '../model/ledger.js';
import { firstProblems } from '../parse/document.js';
import { parseJson } from '../parse/json.js';
import { jsonLocator } from '../parse/json-places.js';
import { checkSchema, validator } from '../parse/schema.js';

/** How many problems one ledger reports before it summarises the rest. */
const MAX_REPORTED = 20;

/**
 * Reads `provenance.jsonl` line by line from a stream, so a ledger of any size is never held as raw text: each line is
 * parsed, checked against the ledger-entry schema and dropped. Repeated strings (stores, relations, entity names)
 * are shared, which keeps a large ledger's objects small. Every bad line is reported with its line and column; a
 * ledger with any bad line is refused as a whole, so a score is never computed on a silently shortened ledger.
 */
export async function readLedger(file: string): Promise<LedgerEntry[]> {
  const entries: LedgerEntry[] = [];
  const problems: Diagnostic[] = [];
  const firstLine = new Map<string, number>();
  const intern = interner();
  const validate = validator('ledger-entry');
  const lines = createInterface({
    input: createReadStream(file, { encoding: 'utf8' }),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let lineNo = 0;
  for await (const line of lines) {
    lineNo++;
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = parseJson(line, file, lineNo - 1);
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      for (const d of error.diagnostics) problems.push(d);
      continue;
    }
    if (!validate(value)) {
      const at = lineNo;
      for (const d of checkSchema('ledger-entry', value, file, jsonLocator(line))) {
        problems.push({ ...d, line: at, message: `ledger entry: ${d.message}` });
      }
      continue;
    }
    const entry = value as LedgerEntry;
    const seen = firstLine.get(entry.id);
    if (seen !== undefined) {
      problems.push({
        file,
        line: lineNo,
        column: 1,
        message: `duplicate ledger id "${entry.id}" (first on line ${seen})`,
      });
      continue;
    }
    firstLine.set(entry.id, lineNo);
    entry.store = intern(entry.store);
    entry.results = entry.results.map((fact): Fact => {
      const shared: Fact = {
        subject: intern(fact.subject),
        relation: intern(fact.relation),
        object: intern(fact.object),
      };
      if (fact.store !== undefined) shared.store = intern(fact.store);
      return shared;
    });
    entries.push(entry);
  }
  if (problems.length > 0) throw new UserError(firstProblems(problems, file, 'ledger', MAX_REPORTED));
  return entries;
}

function interner(): (value: string) => string {
  const pool = new Map<string, string>();
  return (value) => {
    const existing = pool.get(value);
    if (existing !== undefined) return existing;
    pool.set(value, value);
    return value;
  };
}
