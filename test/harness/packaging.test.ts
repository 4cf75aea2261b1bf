// Each harness's SDK is an optional peer: only that harness's folder may import it, and it has its own subpath export.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

/** The SDK packages each harness may import, and which harness folder owns them. */
const SDKS: Record<string, { harness: string; packages: RegExp; peer: string }> = {
  '@openai/agents': {
    harness: 'openai-agents',
    packages: /^@openai\/agents(-[a-z]+)?(\/|$)/,
    peer: '@openai/agents',
  },
  '@langchain/core': { harness: 'langchain', packages: /^@langchain\//, peer: '@langchain/core' },
  '@opentelemetry/sdk-trace-base': {
    harness: 'otel',
    packages: /^@opentelemetry\//,
    peer: '@opentelemetry/sdk-trace-base',
  },
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every module a source file imports or re-exports, statically or dynamically. */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)].map((m) => m[1]!);
}

describe('harness packaging', () => {
  const files = [...sources(join(root, 'src')), ...sources(join(root, 'reporters'))];

  it('imports each SDK only inside its own harness folder', () => {
    const strays: string[] = [];
    for (const file of files) {
      const where = relative(root, file);
      for (const specifier of imports(file)) {
        for (const { harness, packages } of Object.values(SDKS)) {
          if (packages.test(specifier) && !where.startsWith(`src/harness/${harness}/`))
            strays.push(`${where} imports ${specifier}`);
        }
      }
    }
    expect(strays).toEqual([]);
  });

  it('gives each harness a subpath export and its SDK as an optional peer dependency', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    for (const { harness, peer } of Object.values(SDKS)) {
      expect(pkg.exports[`./harness/${harness}`]).toEqual({
        types: `./dist/src/harness/${harness}/index.d.ts`,
        default: `./dist/src/harness/${harness}/index.js`,
      });
      expect(pkg.peerDependencies[peer]).toBeDefined();
      expect(pkg.peerDependenciesMeta[peer]).toEqual({ optional: true });
      expect(pkg.devDependencies[peer]).toBeDefined();
      expect(pkg.dependencies[peer]).toBeUndefined();
    }
  });
});
