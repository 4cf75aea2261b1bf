/** The shipped schemas checked at run time, by the name `checkSchema` takes. */
export const SCHEMA_NAMES = [
  'fact',
  'ledger-entry',
  'trajectory',
  'workup',
  'needle',
  'rubric',
  'cases',
  'trend',
  'trend-v1',
] as const;
export type SchemaName = (typeof SCHEMA_NAMES)[number];

/** The export name of a schema's validator in `validators.generated.ts` (`ledger-entry` is `ledger_entry`). */
export const exportName = (name: SchemaName): string => name.replace(/-/g, '_');
