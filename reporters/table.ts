/**
 * needlework's reporters as data: each one's name on the command line (`--reporter needlework-junit`), its module (the
 * `needlework/reporters/<module>` a Vitest config names), the file it writes in the reports folder, whether it reads the
 * results store, and when a run writes it without being asked. `needlework run` (src/cli/commands/run-reporters.ts) and
 * a Vitest config's `needleworkReporters()` (src/vitest/reporters.ts) both read this table: adding or changing a
 * reporter is its own file and its row here.
 */
export interface ReporterRow {
  /** The name `--reporter` takes. */
  name: string;
  /** The module under reporters/ (`needlework/reporters/<module>`), whose default export is the reporter. */
  module: string;
  /** The file it writes in the reports folder, when it writes one there (its `outputFile`). */
  file?: string;
  /** It takes the results store (its `store` option): the trend reporter appends to it, the others read the gate. */
  store: boolean;
  /** When a run writes it without `--reporter`: `always`, only `ci` (the CI variable), or only on request. */
  by: 'always' | 'ci' | 'request';
}

/** The rows, in the order Vitest is given them: the trend reporter last (the other reports read the history it appends). */
export const REPORTERS: readonly ReporterRow[] = [
  { name: 'needlework-junit', module: 'junit', file: 'junit.xml', store: true, by: 'ci' },
  { name: 'needlework-html', module: 'html', file: 'report.html', store: true, by: 'ci' },
  { name: 'needlework-summary', module: 'summary', store: true, by: 'ci' },
  { name: 'needlework-otel', module: 'otel', file: 'evaluations.otlp.json', store: true, by: 'request' },
  // Its file is the trend.json of needlework before the store, imported when the store is created.
  { name: 'needlework-trend', module: 'trend', file: 'trend.json', store: true, by: 'always' },
];

/** The rows a run writes without `--reporter`, in the table's order. */
export function defaultRows(ci: boolean): ReporterRow[] {
  return REPORTERS.filter((row) => row.by === 'always' || (ci && row.by === 'ci'));
}
