import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = new URL('../../', import.meta.url).pathname;
export const BIN = join(ROOT, 'dist/src/cli/bin.js');

export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** `needlework <command> ...args` from the built package in `cwd`, as CI runs it (no colour, CI=true). */
export function needlework(cwd: string, command: string, ...args: string[]): Promise<Outcome> {
  return needleworkWithEnv(cwd, {}, command, ...args);
}

/** `needlework` with these environment variables set too. */
export async function needleworkWithEnv(
  cwd: string,
  env: Record<string, string>,
  command: string,
  ...args: string[]
): Promise<Outcome> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, command, ...args], {
      cwd,
      env: { ...process.env, CI: 'true', NO_COLOR: '1', ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as Outcome;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** `spec > workup > criterion: status` for every test of a Vitest JSON report, sorted. */
export async function outcomes(file: string): Promise<string[]> {
  const report = JSON.parse(await readFile(file, 'utf8')) as {
    testResults: Array<{
      assertionResults: Array<{ ancestorTitles: string[]; title: string; status: string }>;
    }>;
  };
  return report.testResults
    .flatMap((f) =>
      f.assertionResults.map((t) => `${[...t.ancestorTitles, t.title].join(' > ')}: ${t.status}`),
    )
    .sort();
}
