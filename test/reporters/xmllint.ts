import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/** Whether `xmllint` (Debian's libxml2-utils) is installed; the XSD tests are skipped with this reason when not. */
export const hasXmllint = spawnSync('xmllint', ['--version']).status === 0;
export const NO_XMLLINT = 'xmllint is not installed (apt-get install -y libxml2-utils)';

const xsd = resolve(import.meta.dirname, 'jenkins-junit.xsd');

/** Validates a JUnit file against the Jenkins-style XSD; returns xmllint's verdict and messages. */
export function validateJUnit(file: string): { ok: boolean; output: string } {
  const run = spawnSync('xmllint', ['--noout', '--schema', xsd, file], { encoding: 'utf8' });
  return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
}
