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

describe('the plugin and the matchers', () => {
  /** The `setupFiles` the plugin's `config` hook leaves, from a config that has `own`. */
  function setupFiles(options: Parameters<typeof fromSource>[0], own?: string): unknown {
    const config: { test?: { setupFiles?: string | string[] } } = own ? { test: { setupFiles: own } } : {};
    (fromSource(options).config as (c: typeof config) => void)(config);
    return config.test?.setupFiles;
  }

  it("registers the matchers for the project's own tests, after the project's setup files", () => {
    expect(setupFiles({}, 'my-setup.ts')).toEqual(['my-setup.ts', join(ROOT, 'src/vitest/setup.ts')]);
  });

  it('registers none when only specs run (needlework run), which assert with none', () => {
    expect(setupFiles({ includeTests: false })).toBeUndefined();
    expect(setupFiles({ includeTests: false }, 'my-setup.ts')).toBe('my-setup.ts');
  });
});
