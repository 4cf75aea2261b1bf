import { stripVTControlCharacters } from 'node:util';
import type { NeedleSpec } from '../../src/model/spec.js';
import { loadSpec } from '../../src/specs/load.js';
import { loadWorkup } from '../../src/workup/load.js';

const root = new URL('../../', import.meta.url).pathname;

export const fixture = (name: string) => loadWorkup(`${root}fixtures/workups/${name}`);
export const needle = async (name: string) =>
  (await loadSpec(`${root}needles/${name}.needle.yaml`)) as NeedleSpec;

/** The message an assertion fails with, without colour codes. */
export function failure(assertion: () => unknown): string {
  try {
    assertion();
  } catch (error) {
    return stripVTControlCharacters((error as Error).message);
  }
  throw new Error('expected the assertion to fail');
}

export async function asyncFailure(assertion: () => Promise<unknown>): Promise<string> {
  try {
    await assertion();
  } catch (error) {
    return stripVTControlCharacters((error as Error).message);
  }
  throw new Error('expected the assertion to fail');
}
