import type { Fact } from './fact.js';

/**
 * One line of `provenance.jsonl`: a query the agent made and what it returned.
 * A note cites an entry by its id, as `[cite:g11]`.
 */
export interface LedgerEntry {
  /** The citation id, for example `g11`. Unique within a ledger. */
  id: string;
  /** The store queried (for example `graph` or `docs`). */
  store: string;
  /** The query as the agent sent it. */
  query: string;
  /** The facts the query returned; empty when it returned none. */
  results: Fact[];
  /** A document store's passage, when the store returns text. */
  text?: string;
  /** When the query ran, as an ISO 8601 timestamp. */
  ts?: string;
  /** The error the store returned, when the query failed. */
  error?: string;
}
