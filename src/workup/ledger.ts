import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { type Diagnostic, UserError } from '../errors/index.js';
import { readTextFile } from '../io/read-text.js';
import type { Fact } from '../model/fact.js';
import type { LedgerEntry } from '../model/ledger.js';
import { firstProblems } from '../parse/document.js';
import { parseJson } from '../parse/json.js';
import { jsonLocator } from '../parse/json-places.js';
import { checkSchema, validator } from '../parse/schema.js';

/** How many problems one ledger reports before it summarises the rest. */
const MAX_REPORTED = 20;

/** A ledger up to this size is read whole, at once; a larger one is streamed line by line. */
const READ_WHOLE_BYTES = 4 * 1024 * 1024;

/**
 * Reads `provenance.jsonl`: each line is parsed, checked against the ledger-entry schema and dropped. A ledger larger
 * than 4 MB is streamed, so it is never held as raw text; a smaller one (most are a few KB) is read at once, which
 * costs a tenth of a stream's setup. Repeated strings (stores, relations, entity names) are shared, which keeps a
 * large ledger's objects small. Every bad line is reported with its line and column; a ledger with any bad line is
 * refused as a whole, so a score is never computed on a silently shortened ledger.
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { readLedger } from 'needlework';
 *
 * const ledger = await readLedger('fixtures/workups/grounded/provenance.jsonl');
 * assert.ok(ledger.some((entry) => entry.id === 'g4'));
 * console.log(ledger[0]!.store, ledger[0]!.query, ledger[0]!.results.length, 'facts');
 * ```
 */
export async function readLedger(file: string): Promise<LedgerEntry[]> {
  const reader = ledgerReader(file);
  const size = statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  if (size <= READ_WHOLE_BYTES) {
    // Lines as `readline` gives them: broken at CRLF, LF or CR, and no line after a final break.
    const lines = readTextFile(file).split(/\r\n|\n|\r/);
    if (lines.at(-1) === '') lines.pop();
    for (let i = 0; i < lines.length; i++) reader.line(lines[i]!, i + 1);
    return reader.entries();
  }
  const lines = createInterface({
    input: createReadStream(file, { encoding: 'utf8' }),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let lineNo = 0;
  for await (const line of lines) reader.line(line, ++lineNo);
  return reader.entries();
}

/** Takes a ledger's lines one at a time; `entries` gives them, or throws every problem found. */
function ledgerReader(file: string): { line(line: string, lineNo: number): void; entries(): LedgerEntry[] } {
  const entries: LedgerEntry[] = [];
  const problems: Diagnostic[] = [];
  const firstLine = new Map<string, number>();
  const intern = interner();
  const validate = validator('ledger-entry');
  const line = (line: string, lineNo: number): void => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = parseJson(line, file, lineNo - 1);
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      for (const d of error.diagnostics) problems.push(d);
      return;
    }
    if (!validate(value)) {
      for (const d of checkSchema('ledger-entry', value, file, jsonLocator(line))) {
        problems.push({ ...d, line: lineNo, message: `ledger entry: ${d.message}` });
      }
      return;
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
      return;
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
  };
  return {
    line,
    entries() {
      if (problems.length > 0) throw new UserError(firstProblems(problems, file, 'ledger', MAX_REPORTED));
      return entries;
    },
  };
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
