import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { validatorsSource } from '../../src/parse/compile-validators.js';

describe('the precompiled schema validators', () => {
  it('are what the shipped schemas compile to today (regenerate after editing a schema)', async () => {
    const committed = await readFile(
      new URL('../../src/parse/validators.generated.ts', import.meta.url),
      'utf8',
    );
    const fresh = validatorsSource();
    expect(
      committed === fresh,
      'src/parse/validators.generated.ts is stale: npm run build && node dist/src/parse/compile-validators.js src/parse/validators.generated.ts',
    ).toBe(true);
  });
});
