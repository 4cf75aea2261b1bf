import {
  type CassetteBody,
  CassetteStore,
  type EntryFormat,
  isObject,
  readEntries,
} from '../cassette/store.js';
import type { CanonicalRequest } from './canonical.js';
import type { JudgeContext, Score, TokenCount } from './types.js';

/** A recorded verdict, as the judge first gave it. */
export interface RecordedVerdict {
  score: Score;
  rationale: string;
  raw: string;
  model: string;
  /** Tokens the recording spent; kept so a replay still reports what the judgement cost to make. */
  tokens?: TokenCount;
  /** What the recording cost, in USD, when it was known. */
  costUsd?: number;
}

export interface CassetteEntry {
  /** What the request was for, so a person reading the file can find a criterion. */
  context?: JudgeContext;
  /** The canonical request the key was hashed from. */
  request: CanonicalRequest;
  response: RecordedVerdict;
}

/** The cassette file: `version` and the entries keyed by request hash (written with keys sorted, for clean diffs). */
export type CassetteFile = CassetteBody<CassetteEntry>;

const VERDICTS: EntryFormat<CassetteEntry> = {
  isEntry,
  expected: 'recorded verdicts (each needs request.model and response.score 1-5, response.rationale)',
};

/**
 * A record of judge answers keyed by request hash, in the cassette format live runs share (see `CassetteStore`:
 * atomic, merged, secret-free writes).
 */
export class Cassette extends CassetteStore<CassetteEntry> {
  /** Reads a cassette; a missing file is an empty cassette unless `mustExist`. A corrupt one is a `UserError`. */
  static async load(file: string, options: { mustExist?: boolean } = {}): Promise<Cassette> {
    return new Cassette(file, await readEntries(file, VERDICTS, options.mustExist ?? false), VERDICTS);
  }

  /** The models the cassette's requests were made to, sorted. */
  models(): string[] {
    return [...new Set([...this.values()].map((e) => e.request.model))].sort();
  }
}

function isEntry(value: unknown): value is CassetteEntry {
  if (!isObject(value) || !isObject(value.request) || !isObject(value.response)) return false;
  const { response, request } = value;
  return (
    typeof request.model === 'string' &&
    typeof response.score === 'number' &&
    [1, 2, 3, 4, 5].includes(response.score) &&
    typeof response.rationale === 'string' &&
    typeof response.raw === 'string' &&
    typeof response.model === 'string'
  );
}
