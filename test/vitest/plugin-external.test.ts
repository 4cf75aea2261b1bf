import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { needlework as fromSource } from '../../src/vitest/plugin.js';

const ROOT = new URL('../../', import.meta.url).pathname;

type ConfigHook = (config: { test?: { server?: { deps?: { external?: Array<string | RegExp> } } } }) => void;

/** What the plugin's `config` hook sets `test.server.deps.external` to, from an empty config. */
function externals(plugin: { config?: unknown }): Array<string | RegExp> | undefined {
  const config: Parameters<ConfigHook>[0] = {};
  (plugin.config as ConfigHook)(config);
  return config.test?.server?.deps?.external;
}

describe('the plugin, built', () => {
  it("has Node load needlework's own built modules natively, not through Vite's transform", async () => {
    const { needlework } = await import(join(ROOT, 'dist/src/vitest/plugin.js'));
    const [own] = externals(needlework()) as RegExp[];
    expect(own!.test(join(ROOT, 'dist/src/vitest/suite.js'))).toBe(true);
    expect(own!.test(join(ROOT, 'dist/src/metrics/citations/index.js'))).toBe(true);
    expect(own!.test(join(ROOT, 'src/vitest/suite.ts'))).toBe(false);
    expect(own!.test(join(ROOT, 'dist-other/x.js'))).toBe(false);
  });
});

describe('the plugin, from its TypeScript sources', () => {
  it('leaves its modules to Vite, which must transform them', () => {
    expect(externals(fromSource())).toBeUndefined();
  });
});
