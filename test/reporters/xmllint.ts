import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/** Whether `xmllint` (Debian's libxml2-utils) is installed; the XSD tests are skipped with this reason when not. */
export const hasXmllint = spawnSync('xmllint', ['--version']).status === 0;
export const NO_XMLLINT = 'xmllint is not installed (apt-get install -y libxml2-utils)';

/** The schema each JUnit dialect is held to: junit-10.xsd's constraints, and those plus `file`/`line`/properties. */
const schemas = {
  'junit-10': resolve(import.meta.dirname, 'jenkins-junit.xsd'),
  ci: resolve(import.meta.dirname, 'ci-junit.xsd'),
} as const;

/** Validates a JUnit file against its dialect's XSD; returns xmllint's verdict and messages. */
export function validateJUnit(
  file: string,
  dialect: keyof typeof schemas = 'ci',
): { ok: boolean; output: string } {
  const run = spawnSync('xmllint', ['--noout', '--schema', schemas[dialect], file], { encoding: 'utf8' });
  return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
}
