import type { ValidateFunction } from 'ajv';
import { newAjv } from '../../parse/ajv.js';
import { migrateHistory } from '../migrate.js';
import { TREND_SCHEMA } from '../schema.js';
import type { TrendRun } from '../types.js';

let validateRun: ValidateFunction | undefined;

/**
 * The runs of a trend.json that its JSON Schema accepts, and one line per run it does not (its index, its id, and
 * the first thing wrong): one bad run never stops the others being imported, and none is dropped unsaid.
 */
export function validRuns(data: { schema: 1 | 2; runs: unknown[] }): {
  runs: TrendRun[];
  rejected: string[];
} {
  if (!validateRun) {
    const ajv = newAjv({ allErrors: false, strict: false, allowUnionTypes: true });
    ajv.addSchema(TREND_SCHEMA);
    validateRun = ajv.compile({ $ref: `${TREND_SCHEMA.$id}#/definitions/run` });
  }
  const candidates =
    data.schema === 1
      ? migrateHistory(data as Parameters<typeof migrateHistory>[0]).runs
      : (data.runs as TrendRun[]);
  const runs: TrendRun[] = [];
  const rejected: string[] = [];
  candidates.forEach((run, i) => {
    if (validateRun?.(run)) {
      runs.push(run);
      return;
    }
    const error = validateRun?.errors?.[0];
    const id = typeof (run as { id?: unknown })?.id === 'string' ? ` (${(run as { id: string }).id})` : '';
    rejected.push(`run ${i + 1}${id}: ${error?.instancePath || '/'} ${error?.message ?? 'is not a run'}`);
  });
  return { runs, rejected };
}
