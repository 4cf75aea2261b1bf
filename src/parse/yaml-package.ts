import { createRequire } from 'node:module';

type YamlPackage = typeof import('yaml');

let loaded: YamlPackage | undefined;

/**
 * The `yaml` package, loaded on first use. A valid spec is read on js-yaml's light path (src/parse/yaml-fast.ts), so
 * `needlework validate` on good specs never pays the ~25 ms that loading `yaml` costs; the Document (every node's
 * place, for diagnostics) is built only when something must be placed. Under Node, `import 'yaml'` resolves to the
 * same CommonJS build, so a module that imports it directly shares this instance.
 */
export function yamlPackage(): YamlPackage {
  loaded ??= createRequire(import.meta.url)('yaml') as YamlPackage;
  return loaded;
}
